/*
 * The type of a network interface: network.interface.type, its
 * interface_type label, and which interfaces network.all leaves out.
 * Portable, no PCP types; tests/unit/test_convert.c checks the rules.
 */
#ifndef PMDA_DARWIN_NETIF_TYPE_H
#define PMDA_DARWIN_NETIF_TYPE_H

#include "platform.h"

/*
 * "loopback", "ethernet", "wifi", "awdl" (Apple Wireless Direct Link),
 * "cellular", "coprocessor", "companion", "bridge", "tunnel", "ppp" or
 * "other". The kernel's functional type (SIOCGIFFUNCTIONALTYPE) decides
 * where it is known, since Wi-Fi reports the Ethernet IFT type; otherwise
 * the IFT type does, and utun/ipsec interfaces (IFT_OTHER) are tunnels.
 */
const char *netif_type(const struct plat_netif *netif);

#endif
