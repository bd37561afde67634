/*
 * The agent core: the PCP callbacks and refresh planning, for whichever
 * agent description it is given (struct agent_desc: darwin_init's system
 * metrics, or the proc daemon's). It holds no metric knowledge: rows,
 * values, indoms and labels come from the description's collectors.
 */
#include "agent.h"
#include "collector.h"
#include "help_text.h"
#include "instance_names.h"
#include "label_cache.h"
#include "refresh_plan.h"
#include "source_open.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What pmdaMetric.m_user points at: the row, the collector that owns it
 * and its help text. */
struct binding {
    unsigned int collector;
    const struct metric_row *row;
    const struct help_entry *help;
    const struct indom_def *indom;  /* the row's, among its collector's; NULL with no indom */
};

/* A cluster's metrics by item number, for finding a PMID's row at once. */
struct cluster_items {
    unsigned int nitems;
    const struct binding **item;    /* NULL where the cluster has no such item */
};

struct refresh_outcome {
    int status;             /* result of this request's refresh */
    int logged;             /* last status written to the log, to log each change once */
};

static struct agent {
    const struct agent_desc *desc;
    int domain;
    struct platform platform;
    int platform_status;            /* 0, or why no source could be opened */
    struct plan_node *nodes;        /* one per collector, same order */
    struct refresh_outcome *outcomes;    /* one per collector, same order */
    void **states;                  /* each collector's state, same order (NULL for none) */
    pmdaMetric *metrics;
    struct binding *bindings;
    unsigned int nmetrics;
    struct cluster_items *by_cluster;   /* indexed by cluster number */
    unsigned int nclusters;
    pmdaIndom *indoms;
    unsigned int nindoms;
    struct help_table help;
    struct label_cache labels;      /* instance label sets, each built once */
} agent;

static pmInDom
owned_indom(const struct collector *c)
{
    return c->indom ? pmInDom_build(agent.domain, c->indom->serial) : PM_INDOM_NULL;
}

/* One line in pmcd's log per change of a collector's status, not per fetch;
 * the reason is the failed dependency's name, or else the source's text. */
static void
note_status(unsigned int i, int sts, const struct collector *failed_dependency, const char *refusal)
{
    const struct collector *c = agent.desc->collectors[i];
    struct refresh_outcome *cs = &agent.outcomes[i];
    char errmsg[PM_MAXERRMSGLEN];

    if (sts == cs->logged || agent.platform_status < 0)
        return;             /* with no source at all, init already said why */
    if (sts < 0 && failed_dependency != NULL)
        pmNotifyErr(LOG_WARNING, "%s: %s unavailable: it needs %s", agent.desc->name, c->name,
                    failed_dependency->name);
    else if (sts < 0 && refusal != NULL)
        pmNotifyErr(LOG_WARNING, "%s: %s unavailable: %s", agent.desc->name, c->name, refusal);
    else if (sts < 0)
        pmNotifyErr(LOG_WARNING, "%s: %s unavailable: %s - %s", agent.desc->name, c->name,
                    pmErrStr_r(sts, errmsg, sizeof(errmsg)), agent.platform.error(agent.platform.ctx));
    else
        pmNotifyErr(LOG_INFO, "%s: %s available again", agent.desc->name, c->name);
    cs->logged = sts;
}

/* pmcd's table gets the instances a refresh named, whether it succeeded or
 * not (the names it listed before may be gone); a collector that builds its
 * own sets hands them over when it succeeded. */
static void
adopt_instances(unsigned int i, int sts)
{
    unsigned int x = 0;

    for (unsigned int k = 0; k < i; k++)
        x += collector_nindoms(agent.desc->collectors[k]);
    for (unsigned int k = 0; k < collector_nindoms(agent.desc->collectors[i]); k++, x++) {
        const struct indom_def *def = &agent.desc->collectors[i]->indom[k];

        if (def->instances != NULL && sts == 0)
            agent.indoms[x].it_numinst = def->instances(agent.states[i], &agent.indoms[x].it_set);
        else if (def->instances == NULL && def->set == NULL)
            agent.indoms[x].it_numinst = names_instances(agent.indoms[x].it_indom, &agent.indoms[x].it_set);
    }
}

/* Refresh the collectors in wanted[] and their dependencies, each once. */
static void
refresh(const unsigned char *wanted, int with_depends)
{
    unsigned int order[agent.desc->ncollectors], norder = 0;

    if (with_depends) {
        plan_refresh(agent.nodes, agent.desc->ncollectors, wanted, order, &norder);
    } else {
        for (unsigned int i = 0; i < agent.desc->ncollectors; i++)
            if (wanted[i])
                order[norder++] = i;
    }
    for (unsigned int k = 0; k < norder; k++) {
        unsigned int i = order[k];
        const struct collector *c = agent.desc->collectors[i];
        int sts = collector_error(agent.platform_status);
        const struct collector *failed_dependency = NULL;
        struct refresh_call call = { &agent.platform, c->name, owned_indom(c) };

        for (unsigned int d = 0; d < c->ndepends; d++) {
            call.depends[d] = agent.states[agent.nodes[i].dep_index[d]];
            if (sts == 0 && with_depends && (sts = agent.outcomes[agent.nodes[i].dep_index[d]].status) < 0)
                failed_dependency = agent.desc->collectors[agent.nodes[i].dep_index[d]];
        }
        if (sts == 0 && c->refresh != NULL)
            sts = c->refresh(agent.states[i], &call);
        adopt_instances(i, sts);
        agent.outcomes[i].status = sts;
        /* Only a fetch logs: an instance request refreshes without the
         * dependencies that values need, so its success says nothing of them. */
        if (with_depends)
            note_status(i, sts, failed_dependency, call.reason);
    }
}

/* The indom_def of row among c's (NULL for a row with no indom, or one
 * its collector does not own). */
static const struct indom_def *
indom_of(const struct collector *c, const struct metric_row *row)
{
    for (unsigned int k = 0; k < collector_nindoms(c); k++)
        if (row->indom != COLLECTOR_NO_INDOM && c->indom[k].serial == row->indom)
            return &c->indom[k];
    return NULL;
}

/* The binding of pmid, or NULL: an unknown PMID refreshes nothing. */
static const struct binding *
binding_of(pmID pmid)
{
    unsigned int cluster = pmID_cluster(pmid), item;     /* libpcp's functions: each called once */
    const struct cluster_items *c;

    if (pmID_domain(pmid) != (unsigned int)agent.domain || cluster >= agent.nclusters)
        return NULL;
    c = &agent.by_cluster[cluster];
    item = pmID_item(pmid);
    return item < c->nitems ? c->item[item] : NULL;
}

/* The collector owning indom, or -1; *def gets its description. */
static int
collector_of_indom(pmInDom indom, const struct indom_def **def)
{
    unsigned int serial = pmInDom_serial(indom);

    if (pmInDom_domain(indom) != (unsigned int)agent.domain)
        return -1;
    for (unsigned int i = 0; i < agent.desc->ncollectors; i++)
        for (unsigned int k = 0; k < collector_nindoms(agent.desc->collectors[i]); k++)
            if (agent.desc->collectors[i]->indom[k].serial == serial) {
                *def = &agent.desc->collectors[i]->indom[k];
                return (int)i;
            }
    return -1;
}

static int
agent_fetch(int numpmid, pmID pmidlist[], agent_result **resp, pmdaExt *pmda)
{
    unsigned char wanted[agent.desc->ncollectors];

    memset(wanted, 0, sizeof(wanted));
    for (int i = 0; i < numpmid; i++) {
        const struct binding *b = binding_of(pmidlist[i]);

        if (b == NULL)
            continue;
        wanted[b->collector] = 1;
        if (agent.desc->collectors[b->collector]->want != NULL)
            agent.desc->collectors[b->collector]->want(agent.states[b->collector], b->row);
    }
    refresh(wanted, 1);
    return pmdaFetch(numpmid, pmidlist, resp, pmda);
}

static int
agent_fetch_value(pmdaMetric *mdesc, unsigned int inst, pmAtomValue *atom)
{
    const struct binding *b = mdesc->m_user;
    const void *state, *entry;
    int sts;

    if (b == NULL)
        return PM_ERR_PMID;
    if (agent.outcomes[b->collector].status < 0)
        return collector_error(agent.outcomes[b->collector].status);
    state = agent.states[b->collector];
    entry = state;          /* NULL for a collector that keeps no state */
    if (b->indom != NULL && (entry = collector_entry(b->indom, state, inst)) == NULL)
        return PM_ERR_INST;
    if (b->row->derive != NULL)
        sts = b->row->derive(state, entry, b->row, inst, atom);
    else if (b->row->field.kind != FIELD_NONE && (b->indom == NULL || collector_has_entries(b->indom)))
        sts = collector_field(b->row, entry, atom);
    else
        sts = PM_ERR_PMID;
    /* A row its collector does not serve is a bug, for pmdaFetch to log;
     * any other failure was logged once, by the collector, and stays quiet. */
    return sts == PM_ERR_PMID ? sts : collector_error(sts);
}

static int
agent_instance(pmInDom indom, int inst, char *name, pmInResult **result, pmdaExt *pmda)
{
    unsigned char wanted[agent.desc->ncollectors];
    const struct indom_def *def;
    int c = collector_of_indom(indom, &def);

    /* Only a dynamic indom needs its owner refreshed; a static set is known. */
    memset(wanted, 0, sizeof(wanted));
    if (c >= 0 && (def->set == NULL || def->instances != NULL))
        wanted[c] = 1;
    refresh(wanted, 0);
    return pmdaInstance(indom, inst, name, result, pmda);
}

static int
agent_store(agent_result *result, pmdaExt *pmda)
{
    if (agent.desc->store != NULL)
        return agent.desc->store(result, pmda);
    return PM_ERR_PERMISSION;       /* every metric of this agent is read-only */
}

static int
by_pmid(const void *a, const void *b)
{
    pmID x = ((const pmdaMetric *)a)->m_desc.pmid, y = ((const pmdaMetric *)b)->m_desc.pmid;

    return x < y ? -1 : x > y;
}

static int
agent_text(int ident, int type, char **buffer, pmdaExt *pmda)
{
    const struct help_entry *h = NULL;
    char key[32];

    (void)pmda;
    if (type & PM_TEXT_PMID) {
        const struct binding *b = binding_of((pmID)ident);

        if (b != NULL)
            h = b->help;
    } else if (type & PM_TEXT_INDOM) {
        snprintf(key, sizeof(key), "%u.%u", pmInDom_domain((pmInDom)ident), pmInDom_serial((pmInDom)ident));
        h = help_find(&agent.help, key);
    }
    if (h == NULL)
        return PM_ERR_TEXT;
    *buffer = (char *)((type & PM_TEXT_ONELINE) ? h->oneline : h->text);
    return 0;
}

/* Add the labels of json to *lp: a copy of the set built once for that
 * JSON when *lp is empty (pmdaAddLabels parses it anew each time). */
static void
add_labels(pmLabelSet **lp, const char *json)
{
    if (*lp != NULL || label_cache_new(&agent.labels, json, lp) < 0)
        pmdaAddLabels(lp, "%s", json);
}

static int
agent_label(int ident, int type, pmLabelSet **lp, pmdaExt *pmda)
{
    char json[PM_MAXLABELJSONLEN];
    const struct indom_def *def;

    switch (type) {
    case PM_LABEL_DOMAIN:
        snprintf(json, sizeof(json), "{\"agent\":\"%s\",\"data_source\":\"%s\"}", agent.desc->name,
                 agent.platform_status == 0 ? agent.platform.name : "unavailable");
        add_labels(lp, json);
        break;
    case PM_LABEL_INDOM:
        if (collector_of_indom((pmInDom)ident, &def) >= 0) {
            snprintf(json, sizeof(json), "{\"indom_name\":\"%s\"}", def->label_name);
            add_labels(lp, json);
        }
        break;
    default:
        break;
    }
    return pmdaLabel(ident, type, lp, pmda);
}

static int
agent_instance_labels(pmInDom indom, unsigned int inst, pmLabelSet **lp)
{
    const struct indom_def *def;
    int c = collector_of_indom(indom, &def), n;
    char json[PM_MAXLABELJSONLEN];

    if (c < 0 || agent.desc->collectors[c]->instance_labels == NULL ||
        agent.desc->collectors[c]->instance_labels(agent.states[c], indom, inst, json, sizeof(json)) < 0)
        return 0;
    if (*lp != NULL && (*lp)->json == NULL && (n = label_cache_fill(&agent.labels, json, *lp)) >= 0)
        return n;
    return pmdaAddLabels(lp, "%s", json) < 0 ? 0 : (*lp)->nlabels;      /* built here, not kept */
}

/* agent.by_cluster from the metric table, which is in PMID order. */
static int
index_items(void)
{
    const struct binding **slots;
    unsigned int nslots = 0;

    agent.nclusters = agent.nmetrics ? pmID_cluster(agent.metrics[agent.nmetrics - 1].m_desc.pmid) + 1 : 0;
    if ((agent.by_cluster = calloc(agent.nclusters ? agent.nclusters : 1, sizeof(*agent.by_cluster))) == NULL)
        return -ENOMEM;
    for (unsigned int m = 0; m < agent.nmetrics; m++) {
        struct cluster_items *c = &agent.by_cluster[pmID_cluster(agent.metrics[m].m_desc.pmid)];

        c->nitems = pmID_item(agent.metrics[m].m_desc.pmid) + 1;     /* the last is the largest */
    }
    for (unsigned int c = 0; c < agent.nclusters; c++)
        nslots += agent.by_cluster[c].nitems;
    if ((slots = calloc(nslots ? nslots : 1, sizeof(*slots))) == NULL)
        return -ENOMEM;
    for (unsigned int c = 0; c < agent.nclusters; c++) {
        agent.by_cluster[c].item = slots;
        slots += agent.by_cluster[c].nitems;
    }
    for (unsigned int m = 0; m < agent.nmetrics; m++) {
        pmID pmid = agent.metrics[m].m_desc.pmid;

        agent.by_cluster[pmID_cluster(pmid)].item[pmID_item(pmid)] = agent.metrics[m].m_user;
    }
    return 0;
}

/* Build pmcd's tables from the collectors' rows; 0 or a negative errno. */
static int
build_tables(void)
{
    unsigned int m = 0, x = 0;

    agent.nmetrics = agent.nindoms = 0;
    for (unsigned int i = 0; i < agent.desc->ncollectors; i++) {
        agent.nmetrics += agent.desc->collectors[i]->nrows;
        agent.nindoms += collector_nindoms(agent.desc->collectors[i]);
    }
    agent.metrics = calloc(agent.nmetrics, sizeof(*agent.metrics));
    agent.bindings = calloc(agent.nmetrics, sizeof(*agent.bindings));
    agent.indoms = calloc(agent.nindoms ? agent.nindoms : 1, sizeof(*agent.indoms));
    agent.nodes = calloc(agent.desc->ncollectors, sizeof(*agent.nodes));
    agent.outcomes = calloc(agent.desc->ncollectors, sizeof(*agent.outcomes));
    agent.states = calloc(agent.desc->ncollectors, sizeof(*agent.states));
    if (!agent.metrics || !agent.bindings || !agent.indoms || !agent.nodes || !agent.outcomes || !agent.states)
        return -ENOMEM;
    for (unsigned int i = 0; i < agent.desc->ncollectors; i++) {
        const struct collector *c = agent.desc->collectors[i];

        if (c->state_size != 0 && (agent.states[i] = calloc(1, c->state_size)) == NULL)
            return -ENOMEM;

        agent.nodes[i] = (struct plan_node){ .id = c, .ndepends = c->ndepends };
        for (unsigned int d = 0; d < c->ndepends && d < PLAN_MAX_DEPENDS; d++)
            agent.nodes[i].depends[d] = c->depends[d];
        for (unsigned int k = 0; k < collector_nindoms(c); k++, x++) {
            agent.indoms[x].it_indom = pmInDom_build(agent.domain, c->indom[k].serial);
            agent.indoms[x].it_numinst = c->indom[k].nset;
            agent.indoms[x].it_set = c->indom[k].set;
        }
        for (unsigned int r = 0; r < c->nrows; r++, m++) {
            const struct metric_row *row = &c->rows[r];

            agent.bindings[m] = (struct binding){ i, row, help_find(&agent.help, row->name), indom_of(c, row) };
            agent.metrics[m].m_user = &agent.bindings[m];
            agent.metrics[m].m_desc.pmid = pmID_build(agent.domain, row->cluster, row->item);
            agent.metrics[m].m_desc.type = row->type;
            agent.metrics[m].m_desc.indom = row->indom == COLLECTOR_NO_INDOM
                ? PM_INDOM_NULL : pmInDom_build(agent.domain, row->indom);
            agent.metrics[m].m_desc.sem = row->sem;
            agent.metrics[m].m_desc.units = row->units;
        }
    }
    /* m_user points into bindings, so the table can be put in PMID order */
    qsort(agent.metrics, agent.nmetrics, sizeof(*agent.metrics), by_pmid);
    if (index_items() < 0)
        return -ENOMEM;
    return plan_check(agent.nodes, agent.desc->ncollectors);
}

static void
open_platform(void)
{
    const char *notes;
    char msg[512];

    agent.platform_status = source_open(&agent.platform, msg, sizeof(msg), &notes, agent.desc->processes);
    if (agent.platform_status < 0) {
        pmNotifyErr(LOG_ERR, "%s: no data source: %s", agent.desc->name, msg);
        return;
    }
    pmNotifyErr(LOG_INFO, "%s: %s", agent.desc->name, msg);
    if (notes[0] != '\0') {
        char *copy = strdup(notes), *line, *save = NULL;

        for (line = copy ? strtok_r(copy, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save))
            pmNotifyErr(LOG_WARNING, "%s: %s", agent.desc->name, line);
        free(copy);
    }
}

static int
setup(pmdaInterface *dp, const struct agent_desc *desc, const struct platform *platform, int open_now)
{
    char msg[256];
    int sts;

    memset(&agent, 0, sizeof(agent));
    label_cache_init(&agent.labels);
    agent.desc = desc;
    agent.domain = dp->domain;
    if (platform != NULL)
        agent.platform = *platform;
    else if (open_now)
        open_platform();
    else
        agent.platform_status = -EAGAIN;        /* until agent_open_source() */
    if ((sts = help_parse(desc->help_source, &agent.help, msg, sizeof(msg))) < 0) {
        pmNotifyErr(LOG_ERR, "%s: %s", agent.desc->name, msg);
        return sts;
    }
    if ((sts = build_tables()) < 0) {
        pmNotifyErr(LOG_ERR, "%s: cannot build the metric tables: %s", agent.desc->name, strerror(-sts));
        return sts;
    }
    dp->version.seven.fetch = agent_fetch;
    dp->version.seven.instance = agent_instance;
    dp->version.seven.store = agent_store;
    dp->version.seven.text = agent_text;
    dp->version.seven.label = agent_label;
    pmdaSetFetchCallBack(dp, agent_fetch_value);
    pmdaSetLabelCallBack(dp, agent_instance_labels);
    pmdaSetFlags(dp, PMDA_EXT_FLAG_HASHED);
    pmdaInit(dp, agent.indoms, (int)agent.nindoms, agent.metrics, (int)agent.nmetrics);
    return dp->status;
}

int
agent_setup(pmdaInterface *dp, const struct agent_desc *desc, const struct platform *platform)
{
    return setup(dp, desc, platform, 1);
}

int
agent_setup_unopened(pmdaInterface *dp, const struct agent_desc *desc)
{
    return setup(dp, desc, NULL, 0);
}

void
agent_open_source(void)
{
    if (agent.platform_status == -EAGAIN)
        open_platform();
}

const void *
agent_collector_state(const struct collector *c)
{
    for (unsigned int i = 0; agent.states != NULL && i < agent.desc->ncollectors; i++)
        if (agent.desc->collectors[i] == c)
            return agent.states[i];
    return NULL;
}

void
agent_teardown(void)
{
    for (unsigned int i = 0; agent.states != NULL && i < agent.desc->ncollectors; i++) {
        const struct collector *c = agent.desc->collectors[i];

        if (c->teardown)
            c->teardown(agent.states[i]);
        free(agent.states[i]);
        for (unsigned int k = 0; k < collector_nindoms(c); k++)
            if (c->indom[k].set == NULL && c->indom[k].instances == NULL)
                names_forget(pmInDom_build(agent.domain, c->indom[k].serial));
    }
    if (agent.platform_status == 0 && agent.platform.close)
        agent.platform.close(agent.platform.ctx);
    help_free(&agent.help);
    label_cache_free(&agent.labels);
    if (agent.by_cluster != NULL)
        free(agent.by_cluster[0].item);         /* every cluster's slots are one allocation */
    free(agent.by_cluster);
    free(agent.metrics);
    free(agent.bindings);
    free(agent.indoms);
    free(agent.nodes);
    free(agent.outcomes);
    free(agent.states);
    memset(&agent, 0, sizeof(agent));
}
