/*
 * The Wi-Fi link of each network interface from the entries of
 * PLAT_QUERY_WIFI: every IONetworkInterface and its parent. Portable and
 * unit-tested.
 *
 * The Wi-Fi family publishes the link it is associated on as properties of
 * the interface (not documented by Apple; the M1's en0, an IO80211Interface
 * on macOS 11.0.1, in shared/real-macs/net): the channel number, its
 * centre frequency and width in MHz, the band as text ("5 GHz") and the
 * regulatory country code ("DE"). An unprivileged process reads them. The
 * same dump has them on llw0 too (the low-latency interface over the same
 * radio). fastfetch (fastfetch-cli/fastfetch src/detection/wifi/
 * wifi_apple.m) looks for IO80211ChannelFrequency on the interface and
 * then on its ancestors, and says it is present only while associated:
 * each key is therefore taken from the interface, else from its parent,
 * and an interface with none of them has no link.
 *
 * The signal strength, noise and transmit rate are not among them: macOS
 * gives those through CoreWLAN (Objective-C) or `wdutil info` (root).
 */
#ifndef PMDA_DARWIN_WIFI_DECODE_H
#define PMDA_DARWIN_WIFI_DECODE_H

#include <stdint.h>

#include "platform.h"

#define WIFI_NAME_KEY "BSD Name"
#define WIFI_CHANNEL_KEY "IO80211Channel"
#define WIFI_FREQUENCY_KEY "IO80211ChannelFrequency"
#define WIFI_WIDTH_KEY "IO80211ChannelBandwidth"
#define WIFI_BAND_KEY "IO80211Band"
#define WIFI_COUNTRY_KEY "IO80211CountryCode"
/* The keys the query reads (queries.c). */
#define WIFI_KEYS WIFI_NAME_KEY, WIFI_CHANNEL_KEY, WIFI_FREQUENCY_KEY, WIFI_WIDTH_KEY, WIFI_BAND_KEY, WIFI_COUNTRY_KEY

/* A link's facts; bit 1u << each is set in have when known. */
enum wifi_fact { WIFI_CHANNEL, WIFI_FREQUENCY_MHZ, WIFI_WIDTH_MHZ, WIFI_BAND, WIFI_COUNTRY, WIFI_NFACTS };

#define WIFI_TEXT_MAX 16

struct wifi_link {
    char name[PLAT_NAME_MAX];           /* the interface's BSD name, e.g. "en0" */
    unsigned int have;
    uint32_t number[WIFI_BAND];         /* WIFI_CHANNEL .. WIFI_WIDTH_MHZ */
    char band[WIFI_TEXT_MAX];
    char country[WIFI_TEXT_MAX];
};

/* The links of the interfaces in set, at most cap, into out: how many. A
 * number that does not fit 32 bits is not known. */
unsigned int wifi_links(const struct plat_entry_set *set, struct wifi_link *out, unsigned int cap);

#endif
