/*
 * Fuzz target for the parsers: the same bytes go to the snapshot parser (as
 * a file, through every platform call) and to the interface-list and
 * ifmibdata decoders (as a sysctl buffer). Any bytes in: no crash, no leak,
 * no read outside the buffer, and every failure explains itself. Built for
 * libFuzzer by tests/fuzz/run-fuzz.sh and replayed over the corpus by ctest.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "netif_parse.h"
#include "netstat_parse.h"
#include "nfs_parse.h"
#include "replay.h"
#include "procargs_parse.h"
#include "registry_decode.h"
#include "battery_decode.h"
#include "energy_decode.h"
#include "gpu_decode.h"
#include "thermal_decode.h"
#include "platform.h"

/* The hardware decoders over any entries, and every derived value. */
static void
decode_hardware(const struct plat_entry_set *rs)
{
    static struct gpu gpus[16];
    static struct sensor sensors[64];
    static struct energy_channel channels[64];
    struct battery b;
    struct fans fans;
    struct energy energy;
    unsigned int n;
    uint64_t level;
    uint32_t u;
    int32_t i;
    float f;
    double d;

    gpu_decode(rs, gpus, 16, &n);
    sensors_from_hid(rs, sensors, 64, &n);
    sensors_hottest_at(sensors, n, LOC_CPU, &d);
    sensors_from_smc(rs, sensors, 64, &n);
    sensors_hottest_role(sensors, n, SMC_AMBIENT, &d);
    fans_decode(rs, &fans);
    energy_decode(rs, &energy, channels, 64);
    if (thermal_pressure_decode(rs, &level) == 0)
        thermal_pressure_name(level);
    for (unsigned int e = 0; e < rs->n; e++)
        smc_entry_value(&rs->entry[e], &d);
    if (battery_decode(rs, &b) == 0) {
        battery_charge_percent(&b, &u);
        battery_health_percent(&b, &u);
        battery_full_charge_mah(&b, &u);
        battery_time_remaining(&b, &i);
        battery_temperature(&b, &f);
        battery_amperage(&b, &i);
        battery_watts(&b, &d);
        battery_state(&b);
        battery_condition(&b);
    }
}

/* As a sysctl would hand them over: an exact-size heap copy, so that any
 * read past the end is caught by the sanitizers. */
static void
parse_as_sysctl_buffer(const uint8_t *data, size_t size)
{
    static struct plat_netif netifs[64];
    unsigned char *copy = malloc(size ? size : 1);
    unsigned int n;
    uint64_t ib, ob;
    int sts;

    if (copy == NULL)
        return;
    memcpy(copy, data, size);
    sts = netif_parse_iflist2(copy, size, netifs, 64, &n);
    if (sts != 0 && sts != -EINVAL && sts != -E2BIG)
        __builtin_trap();
    for (unsigned int i = 0; i < n; i++)
        if (memchr(netifs[i].name, '\0', sizeof(netifs[i].name)) == NULL)
            __builtin_trap();       /* names are always terminated */
    netif_parse_ifmibdata(copy, size, &ib, &ob);
    {
        struct plat_udp u;
        struct plat_icmp c;
        struct plat_ip6 i6;
        struct plat_tcp t;
        struct plat_tcpconn tc;
        struct plat_nfs_client nc;
        struct plat_nfs_server ns;

        if (nfs_parse_client(copy, size, &nc) == -ENOTSUP && (size == NFSCLNTSTATS_SIZE_12 ||
                                                              size == NFSCLNTSTATS_SIZE_15_4))
            __builtin_trap();       /* a known layout is never refused */
        nfs_parse_server(copy, size, &ns);
        netstat_parse_udp(copy, size, &u);
        netstat_parse_icmp(copy, size, &c);
        netstat_parse_ip6(copy, size, &i6);
        netstat_parse_tcp(copy, size, &t);
        if ((sts = netstat_count_tcp_states(copy, size, &tc)) != 0 && sts != -EINVAL)
            __builtin_trap();
        {
            static uint32_t owners[PLAT_PID_LIMIT];
            char cmd[256];

            if ((sts = netstat_count_socket_owners(copy, size, owners, PLAT_PID_LIMIT)) != 0 && sts != -EINVAL)
                __builtin_trap();
            if (procargs_command_line(copy, size, cmd, sizeof(cmd)) >= 0 && strlen(cmd) >= sizeof(cmd))
                __builtin_trap();   /* the command line always fits its room */
        }
    }
    free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[] = "/tmp/pmda-darwin-fuzz-XXXXXX";
    char msg[512];
    struct platform p;
    int fd = mkstemp(path);
    FILE *fp;

    parse_as_sysctl_buffer(data, size);
    if (fd < 0 || (fp = fdopen(fd, "w")) == NULL)
        return 0;
    fwrite(data, 1, size, fp);
    fclose(fp);
    if (platform_snapshot_open(&p, path, msg, sizeof(msg)) == 0) {
        struct plat_host h;
        struct plat_memory m;
        struct plat_uname u;
        struct plat_loadavg l;
        struct plat_cpu_ticks t;
        struct plat_cpu_set c;
        struct plat_clock k;
        struct plat_sysctl_set sy;
        struct plat_tasks ts;
        struct plat_login_set lg;
        struct plat_topology tp;
        struct plat_netif_set ni;
        struct plat_udp ud;
        struct plat_icmp ic;
        struct plat_ip6 i6;
        struct plat_tcp tp2;
        struct plat_tcpconn tc;

        if (p.host(p.ctx, &h) < 0 && p.error(p.ctx)[0] == '\0')
            __builtin_trap();       /* a failure must say why */
        p.memory(p.ctx, &m);
        p.uname(p.ctx, &u);
        p.loadavg(p.ctx, &l);
        p.cpu_total(p.ctx, &t);
        p.cpus(p.ctx, &c);
        p.clock(p.ctx, &k);
        for (int f = 0; f < PLAT_SYSCTL_NGROUPS; f++)
            p.sysctls(p.ctx, (enum plat_sysctl_group)f, &sy);
        p.tasks(p.ctx, &ts);
        p.logins(p.ctx, &lg);
        p.topology(p.ctx, &tp);
        p.interfaces(p.ctx, &ni);
        p.udp(p.ctx, &ud);
        p.icmp(p.ctx, &ic);
        p.ip6(p.ctx, &i6);
        p.tcp(p.ctx, &tp2);
        p.tcpconn(p.ctx, &tc);
        for (int q = 0; q < PLAT_QUERY_N; q++) {
            struct plat_entry_set rs;

            if (p.query(p.ctx, &plat_queries[q], &rs) == 0) {
                static struct reg_disk disks[64];
                static struct reg_apfs_container cs[64];
                static struct reg_apfs_volume vs[64];
                unsigned int nd, nc, nv;

                for (unsigned int i = 0; i < rs.n; i++)
                    for (unsigned int k = 0; k < rs.entry[i].nprops; k++)
                        if (rs.entry[i].prop[k].path == NULL)
                            __builtin_trap();   /* every property has its path */
                /* the decoders survive any entries: cycles, missing parents, wrong kinds */
                reg_disks(&rs, disks, 64, &nd);
                reg_apfs(&rs, cs, 64, &nc, vs, 64, &nv);
                decode_hardware(&rs);
            }
        }
        {
            struct plat_mount_set ms;
            struct plat_nfs nfs;

            p.mounts(p.ctx, &ms);
            p.nfs(p.ctx, &nfs);
        }
        p.close(p.ctx);
    } else if (msg[0] == '\0') {
        __builtin_trap();
    }
    unlink(path);
    return 0;
}
