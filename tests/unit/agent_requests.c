#include "agent_requests.h"

#include <stdlib.h>

unsigned int
requests_metrics(pmdaExt *ext, pmID *pmids, unsigned int max)
{
    unsigned int n = 0;

    for (int m = 0; m < ext->e_nmetrics && n < max; m++)
        pmids[n++] = ext->e_metrics[m].m_desc.pmid;
    return n;
}

static uint64_t
digest(uint64_t h, const void *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ ((const unsigned char *)bytes)[i]) * 1099511628211ull;     /* FNV-1a */
    return h;
}

void
requests_fetch(pmdaInterface *dp, const pmID *list, unsigned int n, struct outcome *out, int with_instances)
{
    pmdaExt *ext = dp->version.seven.ext;
    agent_result *res = NULL;
    int sts = dp->version.seven.fetch((int)n, (pmID *)list, (void *)&res, ext);

    for (unsigned int m = 0; out != NULL && m < n; m++) {
        const pmValueSet *vs = sts < 0 ? NULL : res->vset[m];

        out[m] = (struct outcome){ .sts = sts < 0 ? sts : vs->numval < 0 ? vs->numval : 0 };
        for (int i = 0; vs != NULL && i < vs->numval; i++) {
            const pmValue *v = &vs->vlist[i];

            out[m].numval++;
            if (with_instances)
                out[m].digest = digest(out[m].digest, &v->inst, sizeof(v->inst));
            if (vs->valfmt == PM_VAL_INSITU)
                out[m].digest = digest(out[m].digest, &v->value.lval, sizeof(v->value.lval));
            else
                out[m].digest = digest(out[m].digest, v->value.pval->vbuf, v->value.pval->vlen - PM_VAL_HDR_SIZE);
        }
    }
    if (sts >= 0)
        ext->e_resultCallBack((void *)res);             /* as pmcd does after every fetch */
}

/* pmcd hands the callback an empty set to add to. */
static void
labels(pmdaInterface *dp, int ident, int type)
{
    pmLabelSet *sets = NULL;
    int n = dp->version.seven.label(ident, type, &sets, dp->version.seven.ext);

    if (n > 0)
        pmFreeLabelSets(sets, n);
}

/* As pmcd frees pmdaInstance's answer: the names are copies. */
static void
free_instances(pmInResult *ir)
{
    for (int i = 0; ir->namelist != NULL && i < ir->numinst; i++)
        free(ir->namelist[i]);
    free(ir->namelist);
    free(ir->instlist);
    free(ir);
}

void
requests_round(pmdaInterface *dp, const pmID *pmids, unsigned int n, struct outcome *out, int with_instances)
{
    pmdaExt *ext = dp->version.seven.ext;
    char *text;

    requests_fetch(dp, pmids, n, out, with_instances);
    labels(dp, dp->domain, PM_LABEL_DOMAIN);
    for (int i = 0; i < ext->e_nindoms; i++) {
        pmInDom indom = ext->e_indoms[i].it_indom;
        pmInResult *ir;

        if (dp->version.seven.instance(indom, PM_IN_NULL, NULL, &ir, ext) >= 0)
            free_instances(ir);
        labels(dp, (int)indom, PM_LABEL_INDOM);
        labels(dp, (int)indom, PM_LABEL_INSTANCES);
    }
    for (unsigned int m = 0; m < n; m++) {
        labels(dp, (int)pmids[m], PM_LABEL_ITEM);
        dp->version.seven.text((int)pmids[m], PM_TEXT_PMID | PM_TEXT_HELP, &text, ext);
    }
}
