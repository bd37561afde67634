/*
 * What kind of interface a network interface is, for labels and for what
 * network.all includes. Portable, no PCP types; tests/unit/test_convert.c
 * checks the rules.
 */
#ifndef PMDA_DARWIN_NETIF_KIND_H
#define PMDA_DARWIN_NETIF_KIND_H

#include "platform.h"

/*
 * "loopback", "ethernet", "wifi", "awdl" (Apple Wireless Direct Link),
 * "cellular", "coprocessor", "companion", "bridge", "tunnel", "ppp" or
 * "other". The kernel's functional type (SIOCGIFFUNCTIONALTYPE) decides
 * where it is known, since Wi-Fi reports the Ethernet IFT type; otherwise
 * the IFT type does, and utun/ipsec interfaces (IFT_OTHER) are tunnels.
 */
const char *netif_kind(const struct plat_netif *netif);

#endif
