#include "day_counters.h"
#include "day_requests.h"

#include <stdio.h>
#include <stdlib.h>

/* A step per second this many times the largest before is no machine's
 * (a 32-bit wrap is 2^32 units; the machine's steps are constant). */
#define JUMP_FACTOR 1000.0

struct seen {
    int inst;
    unsigned int round;
    double value, max_rate;
    int steps;
};

struct metric {
    const struct metric_row *row;
    struct seen *seen;
    unsigned int nseen, cap;
};

struct day_counters {
    struct metric *metrics;
    unsigned int n;
};

struct day_counters *
counters_new(const pmID *pmids, unsigned int n)
{
    struct day_counters *c = calloc(1, sizeof(*c));

    if (c == NULL || (c->metrics = calloc(n, sizeof(*c->metrics))) == NULL) {
        free(c);
        return NULL;
    }
    c->n = n;
    for (unsigned int i = 0; i < n; i++)
        c->metrics[i].row = day_row(pmids[i]);
    return c;
}

void
counters_free(struct day_counters *c)
{
    for (unsigned int i = 0; c != NULL && i < c->n; i++)
        free(c->metrics[i].seen);
    if (c != NULL)
        free(c->metrics);
    free(c);
}

static struct seen *
seen_of(struct metric *m, int inst)
{
    for (unsigned int i = 0; i < m->nseen; i++)
        if (m->seen[i].inst == inst)
            return &m->seen[i];
    if (m->nseen == m->cap) {
        unsigned int cap = m->cap ? m->cap * 2 : 8;
        struct seen *grown = realloc(m->seen, cap * sizeof(*grown));

        if (grown == NULL)
            return NULL;
        m->seen = grown;
        m->cap = cap;
    }
    m->seen[m->nseen] = (struct seen){ .inst = inst, .steps = -1 };
    return &m->seen[m->nseen++];
}

static unsigned int
check_value(struct metric *m, int inst, double v, unsigned int round, const char *fault)
{
    struct seen *s = seen_of(m, inst);
    unsigned int problems = 0;

    if (s == NULL)
        return 1;
    if (s->steps >= 0) {
        double rate = (v - s->value) / (round - s->round);

        if (v < s->value) {
            printf("FAIL: second %u: %s[%d] stepped back from %.17g to %.17g (fault: %s)\n", round,
                   m->row->name, inst, s->value, v, fault);
            problems++;
        } else if (s->steps > 0 && rate > JUMP_FACTOR * (s->max_rate > 1 ? s->max_rate : 1)) {
            printf("FAIL: second %u: %s[%d] jumped from %.17g to %.17g, %.3g a second where it never "
                   "moved more than %.3g (fault: %s)\n", round, m->row->name, inst, s->value, v, rate,
                   s->max_rate, fault);
            problems++;
        }
        if (rate > s->max_rate && problems == 0)
            s->max_rate = rate;
    }
    s->steps++;
    s->value = v;
    s->round = round;
    return problems;
}

unsigned int
counters_check(struct day_counters *c, const agent_result *res, unsigned int round, const char *fault)
{
    unsigned int problems = 0;

    for (unsigned int i = 0; i < c->n && (int)i < res->numpmid; i++) {
        const pmValueSet *vs = res->vset[i];

        for (int j = 0; j < vs->numval; j++) {
            pmAtomValue a;

            if (pmExtractValue(vs->valfmt, &vs->vlist[j], c->metrics[i].row->type, &a, PM_TYPE_DOUBLE) < 0)
                continue;
            problems += check_value(&c->metrics[i], vs->vlist[j].inst, a.d, round, fault);
        }
    }
    return problems;
}
