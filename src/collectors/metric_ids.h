/*
 * Every cluster and instance domain number of the system agent, in one
 * place. Upstream's darwin agent numbered clusters 0 to 27 and indoms 0 to
 * 9; those keep upstream's numbers (archives and pmlogger configurations
 * name them). What goes beyond upstream starts at 100, clear of its range.
 */
#ifndef PMDA_DARWIN_METRIC_IDS_H
#define PMDA_DARWIN_METRIC_IDS_H

enum darwin_cluster {
    CLUSTER_HINV = 0,
    CLUSTER_MEMORY = 1,
    CLUSTER_UNAME = 2,
    CLUSTER_LOADAVG = 3,
    CLUSTER_FILESYS = 5,
    CLUSTER_CPU = 6,
    CLUSTER_DISK = 7,
    CLUSTER_PERCPU = 8,
    CLUSTER_UPTIME = 9,
    CLUSTER_NETIF = 10,
    CLUSTER_NFS = 11,
    CLUSTER_VFS = 12,
    CLUSTER_UDP = 13,
    CLUSTER_ICMP = 14,
    CLUSTER_SOCKSTAT = 15,
    CLUSTER_TCPCONN = 16,
    CLUSTER_TCP = 17,
    CLUSTER_LOGIN = 18,
    CLUSTER_LIMITS = 19,
    CLUSTER_GPU = 20,
    CLUSTER_IPC = 21,
    CLUSTER_POWER = 22,
    CLUSTER_IPV6 = 23,
    CLUSTER_APFS = 24,
    CLUSTER_THERMAL = 25,
    CLUSTER_NETWORK_ALL = 26,
    CLUSTER_PRESSURE = 27,
    CLUSTER_VMSTAT = 101,
    CLUSTER_BOOTTIME = 102,
    CLUSTER_TOPOLOGY = 103,
    CLUSTER_PERFLEVEL_CPU = 104,
    CLUSTER_FILESYS_STATE = 105,
    CLUSTER_CPU_LINUX = 106,
    CLUSTER_PERCPU_LINUX = 107,
    CLUSTER_DISK_LINUX = 108,
    CLUSTER_NETIF_STATE = 110,
    CLUSTER_TCP_ACCESS = 111,
    CLUSTER_GPU_DETAIL = 120,
    CLUSTER_BATTERY = 122,
    CLUSTER_SENSORS = 125,
    CLUSTER_ENERGY = 126,
    CLUSTER_CPU_CLUSTER = 127,
    CLUSTER_CPU_CORE = 128,
    CLUSTER_GPU_PSTATE = 129,
    CLUSTER_SYSTEM_POWER = 130,
    CLUSTER_ANE = 134,
    CLUSTER_CPU_POWER = 135,
};

enum darwin_indom {
    INDOM_LOADAVG = 0,
    INDOM_FILESYS = 1,
    INDOM_DISK = 2,
    INDOM_CPU = 3,
    INDOM_NETIF = 4,
    INDOM_NFS3 = 5,
    INDOM_GPU = 6,
    INDOM_APFS_CONTAINER = 7,
    INDOM_APFS_VOLUME = 8,
    INDOM_FAN = 9,
    INDOM_PERFLEVEL = 100,
    INDOM_SENSOR = 101,
    INDOM_ENERGY_CHANNEL = 102,
    INDOM_CPU_CLUSTER = 103,
    INDOM_CPU_CORE = 104,
    INDOM_CPU_POWER_SOURCE = 108,
};

#endif
