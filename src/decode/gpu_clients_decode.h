/*
 * GPU time per process from the entries of PLAT_QUERY_GPU_CLIENTS: Apple
 * Silicon's GPU accelerators and their children, the user clients (class
 * AGXDeviceUserClient), one per connection a process opened to the GPU.
 * Portable and unit-tested.
 *
 * Each client names the process that opened it in IOUserClientCreator,
 * "pid N, NAME" (xnu-11417.101.15 iokit/Kernel/IOUserClient.cpp:4431-4434
 * sets it from IOCopyLogNameForPID, iokit/Kernel/IOLib.cpp:1575-1583:
 * "pid %d, " then proc_name, the 16-character p_comm). The AGX driver
 * adds AppUsage, an array of one dictionary per graphics API the client
 * used ("Metal", "GL/CL"), each with accumulatedGPUTime: the GPU time of
 * that API's work, in ns, since the client was opened (not documented by
 * Apple; the M1's dump in shared/real-macs/gpu shows the layout, and
 * vladkens/macmon src/app/procs.rs divides its change by elapsed ns for a
 * GPU share; its lastSubmittedTime, a timestamp beside it, is ns too: as
 * 24 MHz ticks the dump's largest would be 10.5 days of uptime on a Mac
 * at most 5 days old). A client that has submitted nothing has an empty
 * AppUsage.
 *
 * Intel Macs' GPU clients are not read yet.
 */
#ifndef PMDA_DARWIN_GPU_CLIENTS_DECODE_H
#define PMDA_DARWIN_GPU_CLIENTS_DECODE_H

#include <stdint.h>

#include "platform.h"

#define GPU_CLIENT_CREATOR_KEY "IOUserClientCreator"
#define GPU_CLIENT_USAGE_KEY "AppUsage"
#define GPU_CLIENT_TIME_KEY "accumulatedGPUTime"
/* The keys the query reads (queries.c). */
#define GPU_CLIENT_KEYS GPU_CLIENT_CREATOR_KEY, GPU_CLIENT_USAGE_KEY

struct gpu_time {
    int32_t pid;
    uint64_t ns;                        /* summed over the pid's clients and their APIs */
};

struct gpu_times {
    unsigned int n;                     /* pids in pid[], in ascending pid order */
    struct gpu_time *pid;               /* room for one per client (the caller's) */
    unsigned int unattributed;          /* clients whose creator is missing or not "pid N, ..." */
    uint64_t unattributed_ns;           /* their GPU time, not given to any pid */
};

/*
 * The GPU time of each pid that has a client in set (an entry whose parent
 * is in set: the accelerators themselves are not clients), into out->pid
 * (room for set->n), and what could not be attributed; a client's time is
 * the sum of its AppUsage entries' accumulatedGPUTime.
 */
void gpu_clients_decode(const struct plat_entry_set *set, struct gpu_times *out);

/* The GPU time of pid as decoded: 0 for a pid without a client. */
uint64_t gpu_time_of(const struct gpu_times *t, int32_t pid);

#endif
