/*
 * The help-text parser.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "help_text.h"

static void
entries_with_and_without_long_text(void **state)
{
    struct help_table t;
    char msg[128];
    const struct help_entry *e;

    (void)state;
    assert_int_equal(help_parse("# comment\n@ a.b one line\nlong\ntext\n\n@ 78.3 indom\n@ c only\n",
                                &t, msg, sizeof(msg)), 0);
    assert_int_equal(t.nentries, 3);
    e = help_find(&t, "a.b");
    assert_non_null(e);
    assert_string_equal(e->oneline, "one line");
    assert_string_equal(e->text, "long\ntext");
    e = help_find(&t, "78.3");
    assert_string_equal(e->text, "indom");
    assert_string_equal(help_find(&t, "c")->oneline, "only");
    assert_null(help_find(&t, "zzz"));
    help_free(&t);
}

static void
malformed_help_is_refused(void **state)
{
    struct help_table t;
    char msg[128];

    (void)state;
    assert_int_equal(help_parse("stray\n@ a x\n", &t, msg, sizeof(msg)), -EINVAL);
    assert_string_equal(msg, "help line 1: text before the first \"@ name\" line");
    assert_int_equal(help_parse("@ a x\n@ a y\n", &t, msg, sizeof(msg)), -EINVAL);
    assert_string_equal(msg, "help: a has two entries");
    assert_int_equal(help_parse("@ lonely\n", &t, msg, sizeof(msg)), -EINVAL);
    assert_string_equal(msg, "help line 1: an entry needs a name and a one-line text");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(entries_with_and_without_long_text),
        cmocka_unit_test(malformed_help_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
