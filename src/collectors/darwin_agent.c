/*
 * The system agent: its collectors, help text and name. Adding a metric
 * family means adding its collector here (docs/adding-a-metric-family.md).
 */
#include "agent.h"
#include "collector.h"

extern const struct collector hinv_collector;
extern const struct collector memory_collector;
extern const struct collector uname_collector;
extern const struct collector loadavg_collector;
extern const struct collector cpu_total_collector;
extern const struct collector percpu_collector;
extern const struct collector uptime_collector;
extern const struct collector vfs_collector;
extern const struct collector login_collector;
extern const struct collector limits_collector;
extern const struct collector ipc_collector;
extern const struct collector pressure_collector;
extern const struct collector vmstat_collector;
extern const struct collector boottime_collector;
extern const struct collector topology_collector;
extern const struct collector perflevel_cpu_collector;
extern const struct collector netif_collector;
extern const struct collector netif_state_collector;
extern const struct collector network_all_collector;
extern const struct collector sockstat_collector;
extern const struct collector udp_collector;
extern const struct collector icmp_collector;
extern const struct collector ipv6_collector;
extern const struct collector tcpconn_collector;
extern const struct collector tcp_collector;
extern const struct collector tcp_access_collector;
extern const struct collector filesys_collector;
extern const struct collector filesys_state_collector;
extern const struct collector disk_collector;
extern const struct collector nfs_collector;
extern const struct collector apfs_collector;
extern const struct collector gpu_collector;
extern const struct collector gpu_detail_collector;
extern const struct collector power_collector;
extern const struct collector battery_detail_collector;
extern const struct collector thermal_collector;
extern const struct collector sensors_collector;
extern const struct collector energy_collector;

static const struct collector *const darwin_collectors[] = {
    &hinv_collector,
    &memory_collector,
    &uname_collector,
    &loadavg_collector,
    &cpu_total_collector,
    &percpu_collector,
    &uptime_collector,
    &vfs_collector,
    &login_collector,
    &limits_collector,
    &ipc_collector,
    &pressure_collector,
    &vmstat_collector,
    &boottime_collector,
    &topology_collector,
    &perflevel_cpu_collector,
    &netif_collector,
    &netif_state_collector,
    &network_all_collector,
    &sockstat_collector,
    &udp_collector,
    &icmp_collector,
    &ipv6_collector,
    &tcpconn_collector,
    &tcp_collector,
    &tcp_access_collector,
    &filesys_collector,
    &filesys_state_collector,
    &disk_collector,
    &nfs_collector,
    &apfs_collector,
    &gpu_collector,
    &gpu_detail_collector,
    &power_collector,
    &battery_detail_collector,
    &thermal_collector,
    &sensors_collector,
    &energy_collector,
};

extern const char darwin_help_source[];

const struct agent_desc darwin_agent = {
    .name = "darwin",
    .collectors = darwin_collectors,
    .ncollectors = sizeof(darwin_collectors) / sizeof(darwin_collectors[0]),
    .help_source = darwin_help_source,
};
