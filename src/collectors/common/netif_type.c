#include "netif_type.h"

#include <string.h>

/* IFT_* (net/if_types.h) and IFRTYPE_FUNCTIONAL_* (net/if.h) values. */
enum { IFT_OTHER = 0x01, IFT_ETHER = 0x06, IFT_PPP = 0x17, IFT_LOOP = 0x18, IFT_GIF = 0x37, IFT_STF = 0x39,
       IFT_IEEE80211 = 0x47, IFT_BRIDGE = 0xd1, IFT_CELLULAR = 0xff };

static const char *const functional_types[] = {
    NULL, "loopback", "ethernet", "wifi", "awdl", "cellular", "coprocessor", "companion",
};

const char *
netif_type(const struct plat_netif *netif)
{
    if (netif->functional_status == 0 && netif->functional_type > 0 &&
        netif->functional_type < sizeof(functional_types) / sizeof(functional_types[0]))
        return functional_types[netif->functional_type];
    switch (netif->type) {
    case IFT_LOOP: return "loopback";
    case IFT_ETHER: return "ethernet";
    case IFT_IEEE80211: return "wifi";
    case IFT_CELLULAR: return "cellular";
    case IFT_BRIDGE: return "bridge";
    case IFT_GIF:
    case IFT_STF: return "tunnel";
    case IFT_PPP: return "ppp";
    case IFT_OTHER:
        if (strncmp(netif->name, "utun", 4) == 0 || strncmp(netif->name, "ipsec", 5) == 0)
            return "tunnel";
        return "other";
    default:
        return "other";
    }
}
