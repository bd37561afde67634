/*
 * What goes wrong over a day on a Mac, as a table: each fault has a start
 * and a clear, and says how soon after its clear every value must be back.
 * A fault another part of issue 42 models plugs in as one more entry.
 */
#ifndef PMDA_DARWIN_DAY_FAULTS_H
#define PMDA_DARWIN_DAY_FAULTS_H

#include <stdint.h>

struct day_fault {
    const char *name;
    void (*start)(void);
    void (*clear)(void);            /* NULL: the fault is one event (a restart), over once started */
    /* Seconds after the clear within which every value is back: 0 for the
     * next round; else the retry interval the live source states, where it
     * backs off instead of retrying at every fetch. */
    unsigned int retry_s;
    /* NULL, or the issue-42 item whose defect makes this entry fail today:
     * the day runs it and reports what breaks, without failing on it. */
    const char *known_defect;
};

extern const struct day_fault day_faults[];
extern const unsigned int day_nfaults;

/* One fault of the day: which, the second it starts and the second it clears. */
struct day_event {
    const struct day_fault *fault;
    unsigned int start, clear;
};

/* A day's faults, one at a time with quiet seconds between them, drawn from
 * seed over seconds 1..rounds: up to max into events; returns how many. */
unsigned int day_schedule(uint64_t seed, unsigned int rounds, struct day_event *events, unsigned int max);

#endif
