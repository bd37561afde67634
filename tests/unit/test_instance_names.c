/*
 * Instance ids by name (src/core/instance_names.c): kept while a name is seen and
 * after, never given to another name, one instance for a name given twice,
 * and a bounded memory of names no longer seen.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "instance_names.h"

#define INDOM ((pmInDom)pmInDom_build(78, 4))

/* One refresh that sees the names given, NULL-terminated; their ids go to
 * ids (when not NULL), and the set pmcd would answer must hold them alone. */
static void
refresh(const char *const *names, int *ids)
{
    pmdaInstid *set;
    int n = 0;

    names_begin(INDOM);
    for (; names[n] != NULL; n++) {
        int inst = names_add(INDOM, names[n]);

        assert_true(inst >= 0);
        if (ids != NULL)
            ids[n] = inst;
    }
    assert_int_equal(names_instances(INDOM, &set), n);
    for (int i = 0; i < n; i++)
        assert_string_equal(set[i].i_name, names[i]);
}

static void
a_name_keeps_its_id_while_seen_and_after(void **state)
{
    int first[3], again[2], back[3];

    (void)state;
    refresh((const char *[]){ "en0", "en5", "utun3", NULL }, first);
    assert_true(first[0] != first[1] && first[1] != first[2] && first[0] != first[2]);
    refresh((const char *[]){ "en0", "utun3", NULL }, again);           /* en5 unplugged */
    assert_int_equal(again[0], first[0]);
    assert_int_equal(again[1], first[2]);
    refresh((const char *[]){ "utun3", "en5", "en0", NULL }, back);     /* and back, in another order */
    assert_int_equal(back[0], first[2]);
    assert_int_equal(back[1], first[1]);
    assert_int_equal(back[2], first[0]);
    names_forget(INDOM);
}

static void
a_name_given_twice_in_a_refresh_is_one_instance(void **state)
{
    pmdaInstid *set;

    (void)state;
    names_begin(INDOM);
    assert_int_equal(names_add(INDOM, "gas gauge battery"), names_add(INDOM, "gas gauge battery"));
    assert_int_equal(names_instances(INDOM, &set), 1);
    names_forget(INDOM);
    assert_int_equal(names_instances(INDOM, &set), 0);
    assert_null(set);
}

/* A source that invents a name at every refresh: the names long unseen are
 * forgotten (one coming back is a new instance, with an id never used),
 * those seen lately are not. */
static void
unseen_names_are_forgotten_oldest_first_and_ids_never_reused(void **state)
{
    char name[32];
    const char *one[2] = { name, NULL };
    int ids[3 * NAMES_KEPT], id;

    (void)state;
    for (int i = 0; i < 3 * NAMES_KEPT; i++) {
        snprintf(name, sizeof(name), "utun%d", i);
        refresh(one, &ids[i]);
        assert_int_equal(ids[i], i);                        /* each new name a new id */
    }
    snprintf(name, sizeof(name), "utun%d", 3 * NAMES_KEPT - 2);     /* unseen for one refresh */
    refresh(one, &id);
    assert_int_equal(id, ids[3 * NAMES_KEPT - 2]);
    snprintf(name, sizeof(name), "utun%d", 0);                       /* unseen for 3 * NAMES_KEPT */
    refresh(one, &id);
    assert_int_equal(id, 3 * NAMES_KEPT);                           /* forgotten: a new id */
    names_forget(INDOM);
}

/* pmcd's table holds the set a refresh named until the next is adopted:
 * forgetting, at the next names_begin, must leave every name in it. Live
 * names past NAMES_KEPT / 2 and a new one at every refresh (under the
 * sanitizers, a name freed too soon is a report). */
static void
the_names_pmcd_lists_outlive_the_next_begin(void **state)
{
    enum { LIVE = NAMES_KEPT / 2 + 100 };
    static char names[LIVE + 1][32];
    pmdaInstid *set = NULL;
    int n = 0;

    (void)state;
    for (int r = 1; r <= 2 * NAMES_KEPT; r++) {
        names_begin(INDOM);
        for (int i = 0; i < n; i++)                 /* the set pmcd was given */
            assert_string_equal(set[i].i_name, names[i]);
        snprintf(names[LIVE], sizeof(names[LIVE]), "new%d", r);
        for (int i = 0; i < LIVE + 1; i++) {
            if (i < LIVE)
                snprintf(names[i], sizeof(names[i]), "live%d", i);
            assert_true(names_add(INDOM, names[i]) >= 0);
        }
        assert_int_equal(n = names_instances(INDOM, &set), LIVE + 1);
    }
    names_forget(INDOM);
}

/* A refresh that failed part way (it named none) renumbers nothing. */
static void
a_failed_refresh_forgets_nothing_it_would_have_seen(void **state)
{
    enum { LIVE = NAMES_KEPT + 100 };
    char name[32];
    int before[LIVE];

    (void)state;
    names_begin(INDOM);
    for (int i = 0; i < LIVE; i++) {
        snprintf(name, sizeof(name), "disk%d", i);
        assert_true((before[i] = names_add(INDOM, name)) >= 0);
    }
    names_begin(INDOM);                             /* fails before naming any */
    names_begin(INDOM);
    for (int i = 0; i < LIVE; i++) {
        snprintf(name, sizeof(name), "disk%d", i);
        assert_int_equal(names_add(INDOM, name), before[i]);
    }
    names_forget(INDOM);
}

/* PCP tells instances apart by their names up to the first space. */
static void
a_new_name_that_another_matches_up_to_a_space_is_refused(void **state)
{
    (void)state;
    assert_int_equal(names_add(INDOM, "/Volumes/Untitled"), -EINVAL);  /* not begun */
    names_begin(INDOM);
    assert_int_equal(names_add(INDOM, "/Volumes/Untitled"), 0);
    assert_int_equal(names_add(INDOM, "/Volumes/Untitled 1"), -EEXIST);
    assert_int_equal(names_add(INDOM, "/Volumes/Macintosh HD"), 1);
    assert_int_equal(names_add(INDOM, "/Volumes/Macintosh HD"), 1);      /* itself is no clash */
    assert_int_equal(names_add(INDOM, "/Volumes/Macintosh SSD"), -EEXIST);
    assert_int_equal(names_add(INDOM, "/Volumes/Macintosh2 HD"), 2);
    names_begin(INDOM);                             /* remembered, though unseen */
    assert_int_equal(names_add(INDOM, "/Volumes/Untitled 2"), -EEXIST);
    names_forget(INDOM);
}

static void
forgetting_an_indom_numbers_it_afresh_and_leaves_others(void **state)
{
    pmInDom other = pmInDom_build(78, 3);
    pmdaInstid *set;

    (void)state;
    names_begin(other);
    assert_int_equal(names_add(other, "cpu0"), 0);
    refresh((const char *[]){ "a", "b", NULL }, NULL);
    names_forget(INDOM);
    refresh((const char *[]){ "b", NULL }, NULL);
    assert_int_equal(names_add(INDOM, "b"), 0);
    assert_int_equal(names_instances(other, &set), 1);
    assert_string_equal(set[0].i_name, "cpu0");
    names_forget(INDOM);
    names_forget(other);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_name_keeps_its_id_while_seen_and_after),
        cmocka_unit_test(a_name_given_twice_in_a_refresh_is_one_instance),
        cmocka_unit_test(unseen_names_are_forgotten_oldest_first_and_ids_never_reused),
        cmocka_unit_test(the_names_pmcd_lists_outlive_the_next_begin),
        cmocka_unit_test(a_failed_refresh_forgets_nothing_it_would_have_seen),
        cmocka_unit_test(a_new_name_that_another_matches_up_to_a_space_is_refused),
        cmocka_unit_test(forgetting_an_indom_numbers_it_afresh_and_leaves_others),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
