/*
 * The NET_RT_IFLIST2 and IFMIB_IFDATA decoders over crafted buffers: the
 * layouts of net/if.h, net/if_var.h, net/if_dl.h and net/if_mib.h (which the
 * live source checks against Apple's headers), other message types, names,
 * and every way a buffer can be short or lie about its lengths.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "netif_parse.h"

static void
put(unsigned char *p, uint64_t v, unsigned int size)
{
    for (unsigned int i = 0; i < size; i++)
        p[i] = (unsigned char)(v >> (8 * i));       /* little-endian, as on every Mac */
}

/* Append an RTM_IFINFO2 message for an interface with the given name (NULL:
 * no link address) and counters; returns the new length. */
static size_t
add_ifinfo(unsigned char *buf, size_t at, uint16_t index, uint32_t flags, const char *name, uint64_t base)
{
    unsigned char *m = buf + at, *d = m + NETIF_MSG_DATA, *sdl = m + NETIF_MSG_SIZE;
    size_t nlen = name ? strlen(name) : 0, sdl_len = name ? (NETIF_SDL_DATA + nlen + 3) / 4 * 4 : 0;
    size_t len = NETIF_MSG_SIZE + sdl_len;

    memset(m, 0, len);
    put(m + NETIF_MSG_LEN, len, 2);
    m[NETIF_MSG_VERSION] = NETIF_RTM_VERSION;
    m[NETIF_MSG_TYPE] = NETIF_RTM_IFINFO2;
    put(m + NETIF_MSG_FLAGS, flags, 4);
    put(m + NETIF_MSG_INDEX, index, 2);
    put(m + NETIF_MSG_SND_DROPS, base + 9, 4);
    d[NETIF_DATA_TYPE] = 6;
    put(d + NETIF_DATA_MTU, 1500, 4);
    put(d + NETIF_DATA_BAUDRATE, 1000000000, 8);
    for (unsigned int i = 0; i < 10; i++)
        put(d + NETIF_DATA_IPACKETS + 8 * i, base + i, 8);
    if (name) {
        sdl[NETIF_SDL_LEN] = (unsigned char)(NETIF_SDL_DATA + nlen);
        sdl[NETIF_SDL_FAMILY] = NETIF_AF_LINK;
        sdl[NETIF_SDL_NLEN] = (unsigned char)nlen;
        memcpy(sdl + NETIF_SDL_DATA, name, nlen);
    }
    return at + len;
}

/* Append a message of another type (RTM_NEWMADDR2) of len bytes. */
static size_t
add_other(unsigned char *buf, size_t at, size_t len)
{
    memset(buf + at, 0, len);
    put(buf + at + NETIF_MSG_LEN, len, 2);
    buf[at + NETIF_MSG_TYPE] = 0x13;
    return at + len;
}

static unsigned char buf[8192];
static struct plat_netif out[8];

static void
interfaces_names_and_counters(void **state)
{
    size_t len = 0;
    unsigned int n = 0;

    (void)state;
    len = add_ifinfo(buf, len, 1, 0x8049, "lo0", 100);
    len = add_other(buf, len, 20);                  /* skipped by its length */
    len = add_ifinfo(buf, len, 6, 0x8863, "en0", 5ULL << 32);
    assert_int_equal(netif_parse_iflist2(buf, len, out, 8, &n), 0);
    assert_int_equal(n, 2);
    assert_string_equal(out[0].name, "lo0");
    assert_int_equal(out[0].index, 1);
    assert_int_equal(out[0].flags, 0x8049);
    assert_string_equal(out[1].name, "en0");
    assert_int_equal(out[1].type, 6);
    assert_int_equal(out[1].mtu, 1500);
    assert_int_equal(out[1].baudrate, 1000000000);
    assert_int_equal(out[1].ipackets, (5ULL << 32) + 0);
    assert_int_equal(out[1].ierrors, (5ULL << 32) + 1);
    assert_int_equal(out[1].collisions, (5ULL << 32) + 4);
    assert_int_equal(out[1].ibytes, (5ULL << 32) + 5);     /* all 64 bits */
    assert_int_equal(out[1].obytes, (5ULL << 32) + 6);
    assert_int_equal(out[1].iqdrops, (5ULL << 32) + 9);
    assert_int_equal(out[1].snd_drops, (uint32_t)((5ULL << 32) + 9));
    assert_int_equal(out[1].mib_status, -ENOENT);          /* the IFMIB read is the caller's */
    assert_int_equal(out[1].functional_status, -ENOENT);
}

static void
names_without_link_address_odd_bytes_or_too_long(void **state)
{
    char longname[200];
    size_t len = 0;
    unsigned int n;

    (void)state;
    memset(longname, 'x', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    len = add_ifinfo(buf, len, 3, 0, NULL, 0);
    len = add_ifinfo(buf, len, 4, 0, "a\001b", 0);
    len = add_ifinfo(buf, len, 5, 0, longname, 0);
    assert_int_equal(netif_parse_iflist2(buf, len, out, 8, &n), 0);
    assert_int_equal(n, 3);
    assert_string_equal(out[0].name, "if3");
    assert_string_equal(out[1].name, "a?b");                 /* instance names stay printable */
    assert_int_equal(strlen(out[2].name), PLAT_NAME_MAX - 1);
}

static void
a_name_longer_than_its_message_is_not_read(void **state)
{
    size_t len = add_ifinfo(buf, 0, 7, 0, "en7", 0);
    unsigned int n;

    (void)state;
    buf[NETIF_MSG_SIZE + NETIF_SDL_NLEN] = 200;              /* claims 200 bytes of name */
    assert_int_equal(netif_parse_iflist2(buf, len, out, 8, &n), 0);
    assert_string_equal(out[0].name, "if7");
}

static void
truncated_and_lying_buffers(void **state)
{
    size_t one = add_ifinfo(buf, 0, 1, 0, "lo0", 0), len = add_ifinfo(buf, one, 2, 0, "en0", 0);
    unsigned int n;

    (void)state;
    assert_int_equal(netif_parse_iflist2(buf, 0, out, 8, &n), 0);       /* no interfaces at all */
    assert_int_equal(n, 0);
    for (size_t cut = one + 1; cut < len; cut += 7) {                    /* the second message cut short */
        assert_int_equal(netif_parse_iflist2(buf, cut, out, 8, &n), -EINVAL);
        assert_int_equal(n, 1);                                          /* what came before stands */
    }
    put(buf + one + NETIF_MSG_LEN, 2, 2);                                /* a length below a header */
    assert_int_equal(netif_parse_iflist2(buf, len, out, 8, &n), -EINVAL);
    put(buf + one + NETIF_MSG_LEN, 100, 2);                              /* too short for an if_msghdr2 */
    assert_int_equal(netif_parse_iflist2(buf, len, out, 8, &n), -EINVAL);
    put(buf + one + NETIF_MSG_LEN, 60000, 2);                            /* past the end */
    assert_int_equal(netif_parse_iflist2(buf, len, out, 8, &n), -EINVAL);
}

static void
more_interfaces_than_room(void **state)
{
    size_t len = 0;
    unsigned int n;

    (void)state;
    for (uint16_t i = 0; i < 9; i++)
        len = add_ifinfo(buf, len, i, 0, "en", 0);
    assert_int_equal(netif_parse_iflist2(buf, len, out, 8, &n), -E2BIG);
    assert_int_equal(n, 8);
}

static void
ifmibdata_byte_counters(void **state)
{
    unsigned char rec[NETIF_MIB_SIZE];
    uint64_t ib = 0, ob = 0;

    (void)state;
    memset(rec, 0, sizeof(rec));
    put(rec + NETIF_MIB_DATA + NETIF_DATA_IBYTES, (7ULL << 32) + 3, 8);
    put(rec + NETIF_MIB_DATA + NETIF_DATA_OBYTES, UINT64_MAX, 8);
    assert_int_equal(netif_parse_ifmibdata(rec, sizeof(rec), &ib, &ob), 0);
    assert_int_equal(ib, (7ULL << 32) + 3);
    assert_int_equal(ob, UINT64_MAX);
    ib = 42;
    assert_int_equal(netif_parse_ifmibdata(rec, sizeof(rec) - 1, &ib, &ob), -EINVAL);
    assert_int_equal(ib, 42);                                            /* nothing made up */
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(interfaces_names_and_counters),
        cmocka_unit_test(names_without_link_address_odd_bytes_or_too_long),
        cmocka_unit_test(a_name_longer_than_its_message_is_not_read),
        cmocka_unit_test(truncated_and_lying_buffers),
        cmocka_unit_test(more_interfaces_than_room),
        cmocka_unit_test(ifmibdata_byte_counters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
