/*
 * mounts.c, logins.c and the integer sysctl groups (sysctl_group.c,
 * sysctl_read.c) on the double.
 */
#include "harness.h"

#include <string.h>

static void
test_mounts(void **state)
{
    struct platform *p = *state;
    struct plat_mount_set set;

    dbl_mount("/", "/dev/disk3s1s1", "apfs", PLAT_MNT_RDONLY | PLAT_MNT_LOCAL, 4096, 242837545, 200000000,
              190000000, 4294967295ull, 4290000000ull);
    dbl_mount("/Volumes/share", "server:/export", "nfs", 0, 8192, 1000, 500, 400, 100, 50);
    assert_int_equal(p->mounts(p->ctx, &set), 0);
    assert_int_equal(set.n, 2);
    assert_string_equal(set.mount[0].on, "/");
    assert_string_equal(set.mount[0].from, "/dev/disk3s1s1");
    assert_string_equal(set.mount[0].fstype, "apfs");
    assert_int_equal(set.mount[0].flags, PLAT_MNT_RDONLY | PLAT_MNT_LOCAL);
    assert_int_equal(set.mount[0].bsize, 4096);
    assert_int_equal(set.mount[0].blocks, 242837545);
    assert_int_equal(set.mount[0].bfree, 200000000);
    assert_int_equal(set.mount[0].bavail, 190000000);
    assert_int_equal(set.mount[0].files, 4294967295ull);
    assert_int_equal(set.mount[0].ffree, 4290000000ull);
    assert_string_equal(set.mount[1].fstype, "nfs");
    assert_int_equal(set.mount[1].bsize, 8192);
}

static void
test_mounts_refused(void **state)
{
    struct platform *p = *state;
    struct plat_mount_set set;

    dbl_mount("/", "/dev/disk3s1s1", "apfs", PLAT_MNT_LOCAL, 4096, 1, 1, 1, 1, 1);
    dbl_fail("getfsstat", 1, 5);
    assert_int_equal(p->mounts(p->ctx, &set), -5);
    assert_error_has(p, "getfsstat: Input/output error");
    dbl_fail("getfsstat", 2, 14);                   /* the count, then the list fails */
    assert_int_equal(p->mounts(p->ctx, &set), -14);
    assert_int_equal(set.n, 0);
}

static void
mounts_round(struct platform *p)
{
    struct plat_mount_set set;

    assert_int_equal(p->mounts(p->ctx, &set), 0);
}

static void
test_mounts_hold_nothing(void **state)
{
    for (int i = 0; i < 20; i++)
        dbl_mount("/System/Volumes/Data", "/dev/disk3s5", "apfs", PLAT_MNT_LOCAL, 4096, 10, 5, 5, 100, 50);
    assert_steady(*state, mounts_round, 500);
}

static void
test_logins(void **state)
{
    struct platform *p = *state;
    struct plat_login_set set;
    char full[300];                                 /* longer than ut_user (256 on Darwin) */

    memset(full, 'u', sizeof(full) - 1);
    full[sizeof(full) - 1] = '\0';
    dbl_login(2 /* BOOT_TIME */, "");
    dbl_login(PLAT_UTMPX_USER_PROCESS, "alice");
    dbl_login(PLAT_UTMPX_USER_PROCESS, full);       /* ut_user filled to its end, without a NUL */
    assert_int_equal(p->logins(p->ctx, &set), 0);
    assert_int_equal(set.n, 3);
    assert_int_equal(set.login[0].type, 2);
    assert_int_equal(set.login[1].type, PLAT_UTMPX_USER_PROCESS);
    assert_string_equal(set.login[1].user, "alice");
    assert_int_equal(strlen(set.login[2].user), sizeof(set.login[2].user) - 1);
}

/* A utmpx file that cannot be read is an error, not "nobody logged in". */
static void
test_logins_unreadable(void **state)
{
    struct platform *p = *state;
    struct plat_login_set set;

    dbl_login(PLAT_UTMPX_USER_PROCESS, "alice");
    dbl_logins_readable(13);
    assert_int_equal(p->logins(p->ctx, &set), -13);
    assert_error_has(p, "/var/run/utmpx: Permission denied");
}

static void
test_sysctl_groups(void **state)
{
    struct platform *p = *state;
    struct plat_sysctl_set set;
    unsigned int n;
    const struct plat_sysctl_def *defs = plat_sysctl_defs(PLAT_SYSCTL_LIMITS, &n);

    dbl_sysctl_int(defs[0].name, 12288, 4);
    dbl_sysctl_int(defs[1].name, 5000000000ull, 8);
    assert_int_equal(p->sysctls(p->ctx, PLAT_SYSCTL_LIMITS, &set), 0);
    assert_int_equal(set.n, n);
    assert_int_equal(set.status[0], 0);
    assert_int_equal(set.value[0], 12288);
    assert_int_equal(set.status[1], 0);
    assert_int_equal(set.value[1], 5000000000ull);
    for (unsigned int i = 2; i < n; i++)
        assert_int_equal(set.status[i], -2);        /* each value fails alone */
    assert_error_has(p, defs[2].name);
    assert_int_equal(p->sysctls(p->ctx, PLAT_SYSCTL_NGROUPS, &set), -22);
    assert_error_has(p, "unknown sysctl group");
}

/* A value neither 4 nor 8 bytes wide is refused, not half-copied. */
static void
test_sysctl_of_another_width(void **state)
{
    struct platform *p = *state;
    struct plat_sysctl_set set;
    unsigned int n;
    const struct plat_sysctl_def *defs = plat_sysctl_defs(PLAT_SYSCTL_VFS, &n);
    const uint16_t two = 7;

    dbl_sysctl_bytes(defs[0].name, NULL, 0, &two, sizeof(two));
    assert_int_equal(p->sysctls(p->ctx, PLAT_SYSCTL_VFS, &set), 0);
    assert_int_equal(set.status[0], -D_EMSGSIZE);
    assert_error_has(p, "unexpected size 2");
}

#define T(name) cmocka_unit_test_setup_teardown(name, live_test_setup, live_test_teardown)

int
main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_mounts), T(test_mounts_refused), T(test_mounts_hold_nothing), T(test_logins),
        T(test_logins_unreadable), T(test_sysctl_groups), T(test_sysctl_of_another_width),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
