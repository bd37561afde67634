/*
 * The live layer and the replay, on the same dumps recorded on real Macs.
 * For every dump that tests/real-macs/FAMILY/NAME.expect imports (prepared by
 * tests/live/agreement.py, whose help says the files):
 *  - a registry dump: what src/macos/registry.c reads of it in
 *    the IOKit double, and what the replay reads of the snapshot that
 *    tools/ioreg-import made of it, for the agent's query of that MATCH,
 *    must be the same entries (id, parent, name, class) with the same
 *    properties (path, kind, value);
 *  - a dump of sysctl output: what live_topology (perflevels.c) reads of
 *    it in the sysctl double, and what the replay reads of the snapshot
 *    that tools/sysctl-import made of it, the same brand, counts, levels
 *    and clusters (a value known on both sides is the same; one side's
 *    failure is the other's: the snapshot holds no errno).
 * Every difference is printed, each dump is a test named by its Mac and
 * macOS release.
 *
 *   test_agreement        compares what BUILD_DIR/agreement/manifest lists
 *                         (BUILD_DIR: this program's folder), or the
 *                         manifest $PMDA_DARWIN_AGREEMENT names
 *   test_agreement -q|-s  prints the agent's registry queries or sysctl
 *                         names as darwin-snapshot -q or -s does: what
 *                         agreement.py makes the snapshots with
 */
#include "harness.h"
#include "ioreg_tree.h"
#include "entry_set.h"
#include "replay.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- what is compared: a line of the manifest ---- */

enum { KIND, EXPECT, RECORDED, FIELD_N = 7 };
enum { REG_MATCH = 3, REG_DUMP, REG_TREE, REG_SNAPSHOT };
enum { SYS_DUMP = 3, SYS_LIST, SYS_SNAPSHOT };

struct comparison {
    char *line;                     /* the manifest's line, split in place */
    char *field[FIELD_N];
    unsigned int nfields;
    char name[1024];
};

static unsigned int
difference(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static unsigned int
difference(const char *fmt, ...)
{
    va_list ap;

    printf("    DIFFERENT: ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    return 1;
}

static struct platform
replay_of(const char *snapshot)
{
    struct platform r;
    char msg[512];

    if (platform_snapshot_open(&r, snapshot, msg, sizeof(msg)) < 0)
        fail_msg("the replay of %s does not open: %s", snapshot, msg);
    return r;
}

/* ---- the registry ---- */

static unsigned int compare_clusters(const struct plat_topology *l, const struct plat_topology *r);

static const struct plat_query *
query_of(const char *match)
{
    for (int q = 0; q < PLAT_QUERY_N; q++)
        if (strcmp(plat_queries[q].match, match) == 0)
            return &plat_queries[q];
    fail_msg("no query of the agent's matches %s", match);
    return NULL;
}

static const char *
shown(const struct plat_prop *p, char *buf, size_t size)
{
    size_t at;

    switch (p->kind) {
    case PLAT_PROP_NUMBER: snprintf(buf, size, "number %llu", (unsigned long long)p->number); break;
    case PLAT_PROP_BOOL: snprintf(buf, size, "bool %llu", (unsigned long long)p->number); break;
    case PLAT_PROP_FLOAT: snprintf(buf, size, "float %.17g", p->real); break;
    case PLAT_PROP_STRING: snprintf(buf, size, "string \"%s\"", p->text); break;
    case PLAT_PROP_DATA:
        at = (size_t)snprintf(buf, size, "data of %u bytes ", p->len);
        for (uint32_t i = 0; i < p->len && at + 3 < size; i++)
            at += (size_t)snprintf(buf + at, size - at, "%02x", p->data[i]);
        break;
    }
    return buf;
}

static int
same_value(const struct plat_prop *a, const struct plat_prop *b)
{
    if (a->kind != b->kind)
        return 0;
    switch (a->kind) {
    case PLAT_PROP_NUMBER:
    case PLAT_PROP_BOOL: return a->number == b->number;
    case PLAT_PROP_FLOAT: return a->real == b->real;
    case PLAT_PROP_STRING: return strcmp(a->text, b->text) == 0;
    case PLAT_PROP_DATA: return a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
    }
    return 0;
}

static unsigned int
compare_props(const struct plat_entry *l, const struct plat_entry *r)
{
    char lv[256], rv[256];
    unsigned int n = 0;

    for (unsigned int i = 0; i < l->nprops; i++) {
        const struct plat_prop *lp = &l->prop[i], *rp = entry_prop(r, lp->path);

        if (rp == NULL)
            n += difference("entry 0x%llx %s: live only: %s", (unsigned long long)l->id, lp->path,
                            shown(lp, lv, sizeof(lv)));
        else if (!same_value(lp, rp))
            n += difference("entry 0x%llx %s: live %s, replay %s", (unsigned long long)l->id, lp->path,
                            shown(lp, lv, sizeof(lv)), shown(rp, rv, sizeof(rv)));
    }
    for (unsigned int i = 0; i < r->nprops; i++)
        if (entry_prop(l, r->prop[i].path) == NULL)
            n += difference("entry 0x%llx %s: replay only: %s", (unsigned long long)r->id, r->prop[i].path,
                            shown(&r->prop[i], rv, sizeof(rv)));
    return n;
}

static unsigned int
compare_entry(const struct plat_entry *l, const struct plat_entry *r)
{
    unsigned int n = 0;

    if (strcmp(l->name, r->name) != 0)
        n += difference("entry 0x%llx: named \"%s\" live, \"%s\" replayed", (unsigned long long)l->id, l->name,
                        r->name);
    if (strcmp(l->class_name, r->class_name) != 0)
        n += difference("entry 0x%llx: of class %s live, %s replayed", (unsigned long long)l->id, l->class_name,
                        r->class_name);
    if (l->parent != r->parent)
        n += difference("entry 0x%llx (%s): parent 0x%llx live, 0x%llx replayed", (unsigned long long)l->id, l->name,
                        (unsigned long long)l->parent, (unsigned long long)r->parent);
    return n + compare_props(l, r);
}

static const struct plat_entry *
entry_with_id(const struct plat_entry_set *set, uint64_t id)
{
    for (unsigned int i = 0; i < set->n; i++)
        if (set->entry[i].id == id)
            return &set->entry[i];
    return NULL;
}

static unsigned int
compare_sets(const struct plat_entry_set *l, const struct plat_entry_set *r)
{
    unsigned int n = 0;

    for (unsigned int i = 0; i < l->n; i++) {
        const struct plat_entry *e = &l->entry[i], *other = entry_with_id(r, e->id);

        n += other ? compare_entry(e, other)
                   : difference("entry 0x%llx (%s, %s): live only", (unsigned long long)e->id, e->name, e->class_name);
    }
    for (unsigned int i = 0; i < r->n; i++)
        if (entry_with_id(l, r->entry[i].id) == NULL)
            n += difference("entry 0x%llx (%s, %s): replay only", (unsigned long long)r->entry[i].id,
                            r->entry[i].name, r->entry[i].class_name);
    return n;
}

/* What the topology makes of the CPUs' entries (the rest of it is the
 * sysctls', which a registry dump does not hold). */
static unsigned int
clusters_agree(struct platform *live, struct platform *replay)
{
    struct plat_topology lt, rt;

    assert_int_equal(live->topology(live->ctx, &lt), 0);
    assert_int_equal(replay->topology(replay->ctx, &rt), 0);
    printf("    the CPUs' clusters: %u live, %u replayed\n", lt.nclusters, rt.nclusters);
    return compare_clusters(&lt, &rt);
}

static void
test_registry_agrees(void **state)
{
    const struct comparison *c = *state;
    const struct plat_query *q = query_of(c->field[REG_MATCH]);
    struct platform live, replay;
    struct plat_entry_set ls = { 0 }, rs = { 0 };
    char err[512];
    unsigned int n = 0;
    int lsts, rsts;

    live_setup(&live);
    if (ioreg_tree_load(c->field[REG_TREE], err, sizeof(err)) < 0)
        fail_msg("%s", err);
    replay = replay_of(c->field[REG_SNAPSHOT]);
    lsts = live.query(live.ctx, q, &ls);
    rsts = replay.query(replay.ctx, q, &rs);
    printf("    %s in %s: %u entries live, %u replayed\n", q->match, c->field[REG_DUMP], ls.n, rs.n);
    if (lsts != rsts)
        n += difference("the query answers %d live (%s), %d replayed (%s)", lsts, lsts ? live.error(live.ctx) : "",
                        rsts, rsts ? replay.error(replay.ctx) : "");
    n += compare_sets(&ls, &rs);
    if (q == &plat_queries[PLAT_QUERY_CPUS])
        n += clusters_agree(&live, &replay);
    replay.close(replay.ctx);
    live_teardown(&live);
    if (n > 0)
        fail_msg("%u differences between the live registry walk and the replay", n);
}

/* ---- the topology ---- */

static void
load_sysctls(const char *path)
{
    FILE *fp = fopen(path, "r");
    char line[1024];
    unsigned int lineno = 0;

    if (fp == NULL)
        fail_msg("%s: cannot be read", path);
    while (fgets(line, sizeof(line), fp) != NULL) {
        char *kind = strtok(line, "\t\n"), *name = strtok(NULL, "\t\n"), *value = strtok(NULL, "\n");

        lineno++;
        if (kind == NULL || name == NULL)
            fail_msg("%s:%u: not KIND NAME VALUE", path, lineno);
        if (strcmp(kind, "int") == 0 && value != NULL) {
            unsigned long long v = strtoull(value, NULL, 10);

            dbl_sysctl_int(name, v, v > UINT32_MAX ? 8 : 4);
        } else if (strcmp(kind, "string") == 0) {
            dbl_sysctl_string(name, value ? value : "");
        } else if (strcmp(kind, "error") == 0 && value != NULL) {
            dbl_sysctl_error(name, atoi(value));
        } else {
            fail_msg("%s:%u: not int, string or error", path, lineno);
        }
    }
    fclose(fp);
}

static const char *
status_or_value(int status, uint64_t value, char *buf, size_t size)
{
    if (status < 0)
        snprintf(buf, size, "unknown (%d)", status);
    else
        snprintf(buf, size, "%llu", (unsigned long long)value);
    return buf;
}

/* A value agrees when both sides know it and it is the same, or neither does. */
static unsigned int
compare_value(const char *what, int ls, uint64_t lv, int rs, uint64_t rv)
{
    char a[64], b[64];

    if ((ls < 0) == (rs < 0) && (ls < 0 || lv == rv))
        return 0;
    return difference("%s: live %s, replay %s", what, status_or_value(ls, lv, a, sizeof(a)),
                      status_or_value(rs, rv, b, sizeof(b)));
}

static unsigned int
compare_text(const char *what, int ls, const char *lv, int rs, const char *rv)
{
    if ((ls < 0) == (rs < 0) && (ls < 0 || strcmp(lv, rv) == 0))
        return 0;
    return difference("%s: live %s\"%s\" (%d), replay %s\"%s\" (%d)", what, ls < 0 ? "unknown " : "", ls < 0 ? "" : lv,
                      ls, rs < 0 ? "unknown " : "", rs < 0 ? "" : rv, rs);
}

static unsigned int
compare_levels(const struct plat_topology *l, const struct plat_topology *r)
{
    unsigned int n = compare_value("hw.nperflevels read", 0, l->nlevels, 0, r->nlevels);
    char what[64];

    for (unsigned int i = 0; i < l->nlevels && i < r->nlevels; i++) {
        snprintf(what, sizeof(what), "hw.perflevel%u.name", i);
        n += compare_text(what, l->level[i].name_status, l->level[i].name, r->level[i].name_status,
                          r->level[i].name);
        for (int f = 0; f < PLAT_PL_N; f++) {
            snprintf(what, sizeof(what), "hw.perflevel%u.%s", i, plat_perflevel_fields[f]);
            n += compare_value(what, l->level[i].status[f], l->level[i].value[f], r->level[i].status[f],
                               r->level[i].value[f]);
        }
    }
    return n;
}

/* The CPUs' cluster types, which both decode from the registry's /cpus. */
static unsigned int
compare_clusters(const struct plat_topology *l, const struct plat_topology *r)
{
    unsigned int n = compare_value("CPU clusters", l->clusters_status, l->nclusters, r->clusters_status,
                                   r->nclusters);

    for (unsigned int i = 0; l->clusters_status == 0 && r->clusters_status == 0 && i < l->nclusters; i++)
        if (strcmp(l->cluster[i].cpu, r->cluster[i].cpu) != 0 || strcmp(l->cluster[i].type, r->cluster[i].type) != 0)
            n += difference("cluster %u: live %s %s, replay %s %s", i, l->cluster[i].cpu, l->cluster[i].type,
                            r->cluster[i].cpu, r->cluster[i].type);
    return n;
}

static unsigned int
compare_topology(const struct plat_topology *l, const struct plat_topology *r)
{
    unsigned int ndefs, n = compare_text("machdep.cpu.brand_string", l->brand_status, l->brand, r->brand_status,
                                         r->brand);
    const struct plat_sysctl_def *defs = plat_sysctl_defs(PLAT_SYSCTL_CPU_COUNTS, &ndefs);

    n += compare_value("CPU counts read", 0, l->counts.n, 0, r->counts.n);
    for (unsigned int i = 0; i < ndefs && i < l->counts.n && i < r->counts.n; i++)
        n += compare_value(defs[i].name, l->counts.status[i], l->counts.value[i], r->counts.status[i],
                           r->counts.value[i]);
    return n + compare_levels(l, r) + compare_clusters(l, r);
}

static void
test_topology_agrees(void **state)
{
    const struct comparison *c = *state;
    struct platform live, replay;
    struct plat_topology lt, rt;
    unsigned int n;

    memset(&lt, 0xa5, sizeof(lt));                 /* a field a call leaves as it was shows */
    memset(&rt, 0xa5, sizeof(rt));
    live_setup(&live);
    load_sysctls(c->field[SYS_LIST]);
    replay = replay_of(c->field[SYS_SNAPSHOT]);
    assert_int_equal(live.topology(live.ctx, &lt), 0);
    assert_int_equal(replay.topology(replay.ctx, &rt), 0);
    printf("    %s: %u levels live, %u replayed; brand \"%s\"\n", c->field[SYS_DUMP], lt.nlevels, rt.nlevels,
           lt.brand_status == 0 ? lt.brand : "unknown");
    n = compare_topology(&lt, &rt);
    replay.close(replay.ctx);
    live_teardown(&live);
    if (n > 0)
        fail_msg("%u differences between live_topology and the replay", n);
}

/* ---- without the corpus ---- */

static void
test_corpus_absent(void **state)
{
    const struct comparison *c = *state;

    print_message("%s: the agreement of the live layer and the replay on real Macs' dumps is not tested\n",
                  c->field[1]);
    if (getenv("PMDA_DARWIN_SHARED_REQUIRED") != NULL)
        fail_msg("PMDA_DARWIN_SHARED_REQUIRED is set: the corpus must be there");
    skip();
}

/* ---- the tree loader itself, on a synthetic tree ---- */

static const char synthetic_tree[] =
    "ioreg-tree 1\n"
    "# SYNTHETIC: a Fusion container's scheme below both stores, and a CPU in two planes\n"
    "entry 0x0 cpus % IOPlatformDevice\n"
    "parent IODeviceTree top\n"
    "entry 0x100000100 Root % IORegistryEntry\n"
    "parent IOService top\n"
    "entry 0x10 Untitled%202 2 IOMedia\n"
    "parent IOService 0x100000100\n"
    "entry 0x12 AppleAPFSContainerScheme % AppleAPFSContainerScheme\n"
    "parent IOService 0x10\n"
    "parent IOService 0x11\n"
    "superclass IOMedia\n"
    "dict Statistics\n"
    "number Bytes%20(Read) 18446744073709550616\n"
    "array Ops\n"
    "bool 0 1\n"
    "data 1 %\n"
    "end\n"
    "end\n"
    "string Content Apple_APFS%0A%25\n"
    "entry 0x11 Untitled%202 2 IOMedia\n"
    "parent IOService 0x100000100\n"
    "entry 0x20 cpu0 0 IOPlatformDevice\n"
    "parent IOService 0x100000100\n"
    "parent IODeviceTree 0x0\n"
    "data cluster-type 4500\n";

/* Load text as a tree named "synthetic": what ioreg_tree_read answers. */
static int
load_text(const char *text, char *err, size_t errlen)
{
    FILE *fp = fmemopen((void *)text, strlen(text), "r");
    int sts;

    if (fp == NULL)
        fail_msg("fmemopen: %s", strerror(errno));
    sts = ioreg_tree_read(fp, "synthetic", err, errlen);
    fclose(fp);
    return sts;
}

static void
test_tree_loads_as_printed(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;
    const struct plat_entry *e;
    char err[256];

    assert_int_equal(load_text(synthetic_tree, err, sizeof(err)), 0);
    assert_int_equal(p->query(p->ctx, &(struct plat_query){ "IOMedia", 1, NULL, 0 }, &set), 0);
    assert_int_equal(set.n, 3);
    e = entry_with_id(&set, 0x12);
    assert_non_null(e);
    assert_int_equal(e->parent, 0x10);              /* the first parent of two */
    assert_string_equal(e->class_name, "AppleAPFSContainerScheme");
    assert_int_equal(entry_prop(e, "Statistics.Bytes%20(Read)")->number, (uint64_t)-1000);
    assert_int_equal(entry_prop(e, "Statistics.Ops.0")->kind, PLAT_PROP_BOOL);
    assert_int_equal(entry_prop(e, "Statistics.Ops.1")->len, 0);
    assert_string_equal(entry_prop(e, "Content")->text, "Apple_APFS\n%");
    assert_string_equal(entry_with_id(&set, 0x10)->name, "Untitled 2");
    assert_int_equal(p->query(p->ctx, &(struct plat_query){ "IODeviceTree:/cpus", 0, NULL, 0 }, &set), 0);
    assert_int_equal(set.n, 1);
    assert_int_equal(set.entry[0].id, 0x20);
    assert_int_equal(set.entry[0].parent, 0);
    assert_memory_equal(entry_prop(&set.entry[0], "cluster-type")->data, "E", 2);
}

static void
assert_refused(const char *text, const char *why)
{
    char err[256];

    assert_int_equal(load_text(text, err, sizeof(err)), -1);
    if (strstr(err, why) == NULL || strncmp(err, "synthetic:", strlen("synthetic:")) != 0)
        fail_msg("\"%s\" does not name the file and say \"%s\"", err, why);
}

static void
test_tree_damage_refused(void **state)
{
    (void)state;
    assert_refused("ioreg-tree 2\n", ":1: not an ioreg-tree of version 1");
    assert_refused("ioreg-tree 1\nnumber a 1\n", ":2: \"number\" before the first entry");
    assert_refused("ioreg-tree 1\nentry 0x1 a % C\nparent IOService 0x2\n", "parent 0x2 is not an entry");
    assert_refused("ioreg-tree 1\nentry 0x1 a % C\ndict D\n", "a container without its \"end\"");
    assert_refused("ioreg-tree 1\nentry 0x1 a % C\nend\n", ":3: an \"end\" without a container");
    assert_refused("ioreg-tree 1\nentry 0x1 a % C\nnumber n -1\n", ":3: not a property");
    assert_refused("ioreg-tree 1\nentry 0x1 a % C\ndata d 4\n", ":3: not a property");
    assert_refused("ioreg-tree 1\nentry 0x1 a%2 % C\n", ":2: a word with a bad %XX escape");
    assert_refused("ioreg-tree 1\nentry 0x1 a %\n", ":2: not \"entry ID NAME LOCATION CLASS\"");
}

/* ---- the manifest ---- */

static void
print_queries(void)
{
    for (int q = 0; q < PLAT_QUERY_N; q++) {
        printf("%s\t%u\t%u", plat_queries[q].match, plat_queries[q].depth, plat_queries[q].ancestors);
        for (const char *const *key = plat_queries[q].keys; key != NULL && *key != NULL; key++)
            printf("\t%s", *key);
        printf("\n");
    }
}

static void
print_sysctls(void)
{
    for (int f = 0; f < PLAT_SYSCTL_NGROUPS; f++) {
        unsigned int n;
        const struct plat_sysctl_def *defs = plat_sysctl_defs((enum plat_sysctl_group)f, &n);

        for (unsigned int i = 0; i < n; i++)
            printf("%s\n", defs[i].name);
    }
}

static const char *
manifest_path(void)
{
    static char path[PATH_MAX];
    const char *env = getenv("PMDA_DARWIN_AGREEMENT");
    ssize_t len;

    if (env != NULL)
        return env;
    if ((len = readlink("/proc/self/exe", path, sizeof(path) - 64)) < 0)
        return "agreement/manifest";
    path[len] = '\0';
    strcpy(strrchr(path, '/') + 1, "agreement/manifest");
    return path;
}

/* One test per line of the manifest; NULL when it cannot be read. */
static struct CMUnitTest *
tests_of(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "r");
    struct CMUnitTest *tests;
    char *line = NULL;
    size_t size = 0;

    *n = 0;
    if (fp == NULL)
        return NULL;
    if ((tests = malloc(sizeof(*tests))) == NULL)
        abort();
    while (getline(&line, &size, fp) != -1) {
        struct comparison *c = calloc(1, sizeof(*c));

        tests = realloc(tests, (*n + 1) * sizeof(*tests));
        if (c == NULL || tests == NULL || (c->line = strdup(line)) == NULL)
            abort();
        for (char *f = strtok(c->line, "\t\n"); f != NULL && c->nfields < FIELD_N; f = strtok(NULL, "\t\n"))
            c->field[c->nfields++] = f;
        if (c->nfields == 7 && strcmp(c->field[KIND], "registry") == 0) {
            snprintf(c->name, sizeof(c->name), "%s of %s (%s; %s)", c->field[REG_MATCH], c->field[REG_DUMP],
                     c->field[RECORDED], c->field[EXPECT]);
            tests[*n] = (struct CMUnitTest){ c->name, test_registry_agrees, NULL, NULL, c };
        } else if (c->nfields == 6 && strcmp(c->field[KIND], "sysctl") == 0) {
            snprintf(c->name, sizeof(c->name), "topology of %s (%s; %s)", c->field[SYS_DUMP], c->field[RECORDED],
                     c->field[EXPECT]);
            tests[*n] = (struct CMUnitTest){ c->name, test_topology_agrees, NULL, NULL, c };
        } else if (c->nfields == 2 && strcmp(c->field[KIND], "skip") == 0) {
            tests[*n] = (struct CMUnitTest){ "real Macs' dumps", test_corpus_absent, NULL, NULL, c };
        } else {
            fprintf(stderr, "%s: not a line of agreement.py's manifest: %s", path, line);
            exit(1);
        }
        (*n)++;
    }
    free(line);
    fclose(fp);
    return tests;
}

int
main(int argc, char **argv)
{
    const struct CMUnitTest loader[] = {
        cmocka_unit_test_setup_teardown(test_tree_loads_as_printed, live_test_setup, live_test_teardown),
        cmocka_unit_test(test_tree_damage_refused),
    };
    const char *manifest = manifest_path();
    struct CMUnitTest *tests;
    size_t n;
    int failed;

    if (argc == 2 && strcmp(argv[1], "-q") == 0) {
        print_queries();
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "-s") == 0) {
        print_sysctls();
        return 0;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: test_agreement [-q | -s]\n");
        return 2;
    }
    failed = cmocka_run_group_tests(loader, NULL, NULL);
    if ((tests = tests_of(manifest, &n)) == NULL) {
        fprintf(stderr, "test_agreement: %s: no manifest: run tests/live/agreement.py BUILD_DIR first\n", manifest);
        return 1;
    }
    failed += _cmocka_run_group_tests("live and replayed, on real Macs' dumps", tests, n, NULL, NULL);
    for (size_t i = 0; i < n; i++) {
        struct comparison *c = tests[i].initial_state;

        free(c->line);
        free(c);
    }
    free(tests);
    return failed;
}
