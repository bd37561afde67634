/*
 * The OS calls one request may cost, per source: a source the request's
 * metrics do not need costs nothing; one they need costs at most its
 * budget (DESIGN.md "Never block pmcd": one IOReport sample per refresh
 * for every group the request needs, none for groups nobody asked for).
 */
#ifndef PMDA_DARWIN_DAY_BUDGETS_H
#define PMDA_DARWIN_DAY_BUDGETS_H

#include "agent.h"

struct day_budget_mark;
struct day_budget_plan;

/* What a request of these n pmids may cost, source by source (free() it). */
struct day_budget_plan *budgets_plan(const pmID *pmids, unsigned int n);

/* The double's call counts now, before a request. */
struct day_budget_mark *budgets_mark(void);

/* After the request that plan is for, made by client at second round:
 * print each source over its budget; returns how many; frees mark. */
unsigned int budgets_check(struct day_budget_mark *mark, const struct day_budget_plan *plan, const char *client,
                           unsigned int round, const char *fault);

/* The table's rows, for the report. */
void budgets_print(void);

#endif
