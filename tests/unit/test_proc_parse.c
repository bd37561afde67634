/*
 * The KERN_PROCARGS2 decoder over buffers laid out as XNU's
 * sysctl_procargsx copies them out (bsd/kern/kern_sysctl.c,
 * xnu-11417.121.6): the int argc, then the top of the process's stack: the
 * executable path (its "executable_path=" prefix stripped by the kernel),
 * NUL padding to a pointer boundary, argv's strings, the environment's.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "procargs_parse.h"

static unsigned char buf[512];

/* argc, then each of the NUL-terminated strings given, padding after the path. */
static size_t
procargs(int32_t argc, const char *path, const char *const *strings, unsigned int n)
{
    size_t at = sizeof(argc);

    memcpy(buf, &argc, sizeof(argc));
    memcpy(buf + at, path, strlen(path) + 1);
    at += strlen(path) + 1;
    while (at % 8 != 0)
        buf[at++] = '\0';
    for (unsigned int i = 0; i < n; i++) {
        memcpy(buf + at, strings[i], strlen(strings[i]) + 1);
        at += strlen(strings[i]) + 1;
    }
    return at;
}

static void
arguments_without_the_environment(void **state)
{
    static const char *const s[] = { "python3", "train.py", "--epochs", "10", "HOME=/Users/secret" };
    char out[256];
    size_t len = procargs(4, "/opt/homebrew/bin/python3.12", s, 5);

    (void)state;
    assert_int_equal(procargs_command_line(buf, len, out, sizeof(out)), 4);
    assert_string_equal(out, "python3 train.py --epochs 10");
    assert_int_equal(procargs_command_line(buf, len, out, 12), 4);         /* truncated to the room */
    assert_string_equal(out, "python3 tra");
}

static void
no_arguments_and_hostile_buffers(void **state)
{
    static const char *const s[] = { "a\tb", "c" };
    char out[64];
    size_t len = procargs(0, "/usr/libexec/x", s, 0);

    (void)state;
    assert_int_equal(procargs_command_line(buf, len, out, sizeof(out)), 0);
    assert_string_equal(out, "");
    len = procargs(2, "/bin/x", s, 2);
    assert_int_equal(procargs_command_line(buf, len, out, sizeof(out)), 2);
    assert_string_equal(out, "a?b c");                                      /* control characters shown as ? */
    for (size_t cut = 0; cut < len; cut++)                                  /* cut anywhere: bounded */
        assert_true(procargs_command_line(buf, cut, out, sizeof(out)) <= 2);
    assert_int_equal(procargs_command_line(buf, 3, out, sizeof(out)), -EINVAL);
    len = procargs(1000000, "/bin/x", s, 2);                                /* argc beyond the strings */
    assert_int_equal(procargs_command_line(buf, len, out, sizeof(out)), 2);
    len = procargs(-1, "/bin/x", s, 2);
    assert_int_equal(procargs_command_line(buf, len, out, sizeof(out)), -EINVAL);
}

/* A buffer that ends inside an argument (the snapshot keeps a buffer's
 * first bytes, docs/snapshot-format.md): the arguments that are whole, not
 * a piece of the next. */
static void
only_whole_arguments_of_a_buffer_cut_short(void **state)
{
    static const char *const s[] = { "python3", "train.py", "--epochs", "10" };
    char out[256];
    size_t len = procargs(4, "/opt/homebrew/bin/python3.12", s, 4);

    (void)state;
    assert_int_equal(procargs_command_line(buf, len - strlen("10") - 1 - strlen("-epochs") - 1, out, sizeof(out)), 2);
    assert_string_equal(out, "python3 train.py");
    assert_int_equal(procargs_command_line(buf, len - 1, out, sizeof(out)), 3);     /* "10" without its NUL */
    assert_string_equal(out, "python3 train.py --epochs");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(arguments_without_the_environment),
        cmocka_unit_test(no_arguments_and_hostile_buffers),
        cmocka_unit_test(only_whole_arguments_of_a_buffer_cut_short),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
