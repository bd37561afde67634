/*
 * Memory bandwidth from the power manager's (PMP's) "DCS BW" state
 * channels (the DRAM controllers' traffic, per requestor). Portable and
 * tested on histograms recorded on real Macs (shared/real-macs/ioreport).
 *
 * Such a channel is a histogram of time: one state per bandwidth bucket,
 * named by its value ("1GB/s" ... "32GB/s" on an M4 Max, "  24GB/s" in 8
 * GB/s steps on an M1 Pro), whose residency is the time the requestor's
 * traffic spent in that bucket. A channel is named "[DIE<n> ]<requestor>
 * <direction>": the requestor ("EACC0", "AGX", "ANE L0", the controllers'
 * own "AMCC"; none on an M1 Pro, whose channel is just "RD+WR"), the
 * direction "RD", "WR" or "RD+WR"; macOS 27 puts "DIE0 " before the name,
 * so the direction is found at the end (kennss/SiliconScope issues 14, 30,
 * 46; metaspartan/mactop pull request 91).
 */
#ifndef PMDA_DARWIN_BANDWIDTH_DECODE_H
#define PMDA_DARWIN_BANDWIDTH_DECODE_H

#include <stdint.h>

#include "platform.h"

/* Buckets a channel may have: 32 on an M4 Max, at most 30 in an M1's
 * legend; a channel with more is refused. Its other properties are its
 * subgroup and unit (ioreport_channels.h). */
#define BANDWIDTH_MAX_BUCKETS 64
#define BANDWIDTH_MAX_PROPS (BANDWIDTH_MAX_BUCKETS + 4)
#define BANDWIDTH_NOT_A_BUCKET 0xff

enum bandwidth_direction { BANDWIDTH_READ, BANDWIDTH_WRITE, BANDWIDTH_READ_WRITE };

/* What a channel is and where its numbers are: the same for every reading
 * of one subscription, so read once. */
struct bandwidth_layout {
    char requestor[PLAT_ENTRY_NAME_MAX];  /* "AGX", "EACC0", "ANE L0", "AMCC"; "" for a bare "RD+WR" */
    int die;                            /* n of a "DIE<n> " prefix, or -1 */
    enum bandwidth_direction direction;
    unsigned int n;                     /* buckets: the k-th (from 0) is (k + 1) * step GB/s */
    unsigned int step;                  /* GB/s */
    unsigned int nprops;                /* the entry's */
    unsigned char bucket[BANDWIDTH_MAX_PROPS];  /* per property: its bucket, or BANDWIDTH_NOT_A_BUCKET */
};

/*
 * The layout of the channel at e: 0; -ENOENT when its name has no
 * direction, so that it is no requestor's reads or writes (an M1's
 * "Bandwidth" subgroup also has "ECPU DCS", "GPU DCS":
 * shared/real-macs/ioreport's M1 legend); -EDOM when it is not a bandwidth
 * histogram (a state not named "<N>GB/s", more than BANDWIDTH_MAX_BUCKETS)
 * or not a whole one: its buckets are not the series step, 2 step, ... n
 * step, whose lowest label is its step, as an M4 Max's 1 ... 32 GB/s and
 * an M4 Pro's 16 GB/s floor in 16 GB/s steps are (mactop pull request
 * 91); one cut short below cannot give a mean; -ENODATA when it has no
 * states this round (the live layer leaves out the states of a channel
 * libIOReport gave no residency for).
 */
int bandwidth_layout(const struct plat_entry *e, struct bandwidth_layout *out);

/*
 * The residencies of the channel at e, laid out as l, into residency
 * (l->n of them): 0; -ESTALE when e is not laid out so (another number of
 * properties, a bucket that holds no number); -ENODATA when one is
 * libIOReport's kIOReportInvalidValue (INT64_MIN), which is no time at all.
 */
int bandwidth_residencies(const struct plat_entry *e, const struct bandwidth_layout *l, uint64_t *residency);

/* The requestor, die and direction of a channel named name (the fields
 * of out before n): 0, or -ENOENT when the name has no direction. */
int bandwidth_name(const char *name, struct bandwidth_layout *out);

/*
 * The bytes the memory controllers counted for a requestor and direction
 * since boot: a simple channel of "AMC Stats" "Perf Counters" ("DCS RD",
 * "GFX WR", "PCPU DCS RD", ... in an M1's legend, with no "RD+WR"),
 * named as the histograms are (bandwidth_name). 0; -ENODATA when it has
 * no value this round (the live layer leaves out a value libIOReport gave
 * as kIOReportInvalidValue, as every one of an M3 Max's on the macOS 27
 * beta was: SiliconScope issue 14), or holds INT64_MIN itself: no count.
 * The M1's legend declares these channels' unit as 0x09 << 56, quantity
 * "data" at scale 1, which is kIOReportUnitBits (xnu-11417.101.15
 * iokit/IOKit/IOReportTypes.h:216-217, 241, 298, 374-375);
 * the peers proven on real Macs read them as bytes (SiliconScope's
 * bandwidth sampler; mactop, whose byte arithmetic on "DCS RD" and "DCS
 * WR" its pull request 91 describes), and so does the agent.
 */
int bandwidth_bytes(const struct plat_entry *e, uint64_t *bytes);

struct bandwidth_channel {
    char requestor[PLAT_ENTRY_NAME_MAX];
    int die;
    enum bandwidth_direction direction;
    unsigned int n, step;
    uint64_t residency[BANDWIDTH_MAX_BUCKETS];
};

/* The channel at e, laid out and read: bandwidth_layout's answers, and
 * bandwidth_residencies' -ENODATA. */
int bandwidth_channel(const struct plat_entry *e, struct bandwidth_channel *out);

struct bandwidth_mean {
    double gbps;                        /* GB/s */
    int saturated;                      /* time in the top bucket: the traffic may be above gbps */
};

/*
 * The mean bandwidth of n buckets step GB/s apart between two readings
 * (before, then after): the sum over buckets of the bucket's value times
 * the time gained in it, over the time gained in all. 0; -ERANGE when a
 * residency stepped back; -ENODATA when no time passed in any bucket.
 *
 * A bucket's value is its label, which is its top edge: time at no
 * traffic at all is counted in the lowest bucket (an idle M4 Pro reads
 * its lowest label, 16 GB/s: mactop pull request 91; an M3 Max's floor
 * is its lowest label, 32 GB/s: SiliconScope issue 46), so the label is
 * the one point of a bucket that the Mac states; a midpoint would need a
 * bottom edge it does not give. The peers proven on real Macs average the
 * labels (SiliconScope's M4 Max histograms read 1.950 and 3.744 GB/s so,
 * where midpoints would read 0.5 GB/s less). The top bucket also holds
 * all traffic above its label (an M4 Max's GPU under load stays at the
 * 32 GB/s label: SiliconScope pull request 29), so with time there the
 * mean may be short of the traffic: saturated.
 */
int bandwidth_mean_of(unsigned int n, unsigned int step, const uint64_t *before, const uint64_t *after,
                      struct bandwidth_mean *out);

/* The same of two readings of a channel; -EINVAL when they are not the
 * same channel's buckets. */
int bandwidth_mean(const struct bandwidth_channel *before, const struct bandwidth_channel *after,
                   struct bandwidth_mean *out);

#endif
