/*
 * The system agent: its collectors, help text and name. Adding a metric
 * collector means adding it here (docs/adding-a-collector.md).
 */
#include "agent.h"
#include "collector.h"
#include "collectors.h"

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
    &topology_collector,
    &perflevel_cpu_collector,
    &netif_collector,
    &network_all_collector,
    &wifi_collector,
    &sockstat_collector,
    &udp_collector,
    &icmp_collector,
    &ipv6_collector,
    &tcpconn_collector,
    &tcp_collector,
    &filesys_collector,
    &disk_collector,
    &nfs_collector,
    &apfs_collector,
    &gpu_collector,
    &power_collector,
    &thermal_collector,
    &dvfs_collector,
    &cpucluster_collector,
    &cpucore_collector,
    &gpu_pstate_collector,
    &energy_collector,
    &system_power_collector,
    &bandwidth_collector,
    &nvme_collector,
    &cpu_power_collector,
    &ane_collector,
};

extern const char darwin_help_source[];

const struct agent_desc darwin_agent = {
    .name = "darwin",
    .collectors = darwin_collectors,
    .ncollectors = sizeof(darwin_collectors) / sizeof(darwin_collectors[0]),
    .help_source = darwin_help_source,
};
