/*
 * The Wi-Fi link of each interface (wifi_decode.h), decoded from the M1's
 * en0 entry (../shared/real-macs/net; its header says where it comes from)
 * as tools/ioreg-import imports it and the replay answers the query.
 * Expected values are the dump's own. Without the corpus that test is
 * skipped, saying so. The cases the dump lacks (the facts on the parent,
 * an interface without them, a number too wide) are synthetic and say so.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "real_macs_import.h"
#include "reg_entries.h"
#include "replay.h"
#include "wifi_decode.h"

#define M1_EN0 "net/m1-macbookair10-1-macos11.0.1-en0-io80211interface.txt"

static const unsigned int all_facts = (1u << WIFI_NFACTS) - 1;

/* The M1's en0: "IO80211Channel" = 52, "IO80211ChannelFrequency" = 5260,
 * "IO80211ChannelBandwidth" = 80, "IO80211Band" = "5 GHz",
 * "IO80211CountryCode" = "DE". */
static void
m1_en0_link(void **state)
{
    struct platform replay;
    struct plat_entry_set set = real_macs_replayed(&plat_queries[PLAT_QUERY_WIFI], M1_EN0, "IO80211Interface",
                                                   &replay);
    struct wifi_link l[4];

    (void)state;
    assert_int_equal(wifi_links(&set, l, 4), 1);
    assert_string_equal(l[0].name, "en0");
    assert_int_equal(l[0].have, all_facts);
    assert_int_equal(l[0].number[WIFI_CHANNEL], 52);
    assert_int_equal(l[0].number[WIFI_FREQUENCY_MHZ], 5260);
    assert_int_equal(l[0].number[WIFI_WIDTH_MHZ], 80);
    assert_string_equal(l[0].band, "5 GHz");
    assert_string_equal(l[0].country, "DE");
    replay.close(replay.ctx);
}

/* SYNTHETIC, in the dump's keys: facts the interface lacks come from its
 * parent (as fastfetch looks for them); an interface with none, itself or
 * above, has no link (the M1's awdl0 and ap1 have none); a number wider
 * than 32 bits is not known. */
static void
facts_from_the_parent_and_interfaces_without_a_link(void **state)
{
    struct plat_entry_set set;
    struct wifi_link l[4];

    (void)state;
    entry_builder_reset(&b);
    entry(0x10, 0x0, "AppleBCMWLANCore", "AppleBCMWLANCore");
    number(WIFI_CHANNEL_KEY, 36);
    text(WIFI_BAND_KEY, "5 GHz");
    entry(0x11, 0x10, "en0", "IO80211Interface");
    text(WIFI_NAME_KEY, "en0");
    number(WIFI_CHANNEL_KEY, 52);
    number(WIFI_WIDTH_KEY, 1ll << 32);
    entry(0x20, 0x0, "AppleEthernetController", "AppleEthernetController");
    entry(0x21, 0x20, "en1", "IOEthernetInterface");
    text(WIFI_NAME_KEY, "en1");
    set = finish();
    assert_int_equal(wifi_links(&set, l, 4), 1);
    assert_string_equal(l[0].name, "en0");
    assert_int_equal(l[0].number[WIFI_CHANNEL], 52);
    assert_string_equal(l[0].band, "5 GHz");
    assert_int_equal(l[0].have, 1u << WIFI_CHANNEL | 1u << WIFI_BAND);
    entry_builder_free(&b);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(m1_en0_link),
        cmocka_unit_test(facts_from_the_parent_and_interfaces_without_a_link),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
