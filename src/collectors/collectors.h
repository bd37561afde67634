/*
 * The system agent's collectors, for the agent's list (darwin_agent.c)
 * and for a collector that reads another's data (its depends).
 */
#ifndef PMDA_DARWIN_COLLECTORS_H
#define PMDA_DARWIN_COLLECTORS_H

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
extern const struct collector topology_collector;
extern const struct collector perflevel_cpu_collector;
extern const struct collector netif_collector;
extern const struct collector network_all_collector;
extern const struct collector wifi_collector;
extern const struct collector sockstat_collector;
extern const struct collector udp_collector;
extern const struct collector icmp_collector;
extern const struct collector ipv6_collector;
extern const struct collector tcpconn_collector;
extern const struct collector tcp_collector;
extern const struct collector filesys_collector;
extern const struct collector disk_collector;
extern const struct collector nfs_collector;
extern const struct collector apfs_collector;
extern const struct collector gpu_collector;
extern const struct collector power_collector;
extern const struct collector thermal_collector;
extern const struct collector dvfs_collector;
extern const struct collector cpucluster_collector;
extern const struct collector cpucore_collector;
extern const struct collector gpu_pstate_collector;
extern const struct collector energy_collector;
extern const struct collector system_power_collector;
extern const struct collector bandwidth_collector;
extern const struct collector nvme_collector;
extern const struct collector cpu_power_collector;
extern const struct collector ane_collector;

#endif
