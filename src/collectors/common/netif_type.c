#include "netif_type.h"

#include <string.h>

/* IFT_* (net/if_types.h) and IFRTYPE_FUNCTIONAL_* (net/if.h) values. */
enum { IFT_OTHER = 0x01, IFT_ETHER = 0x06, IFT_PPP = 0x17, IFT_LOOP = 0x18, IFT_GIF = 0x37, IFT_STF = 0x39,
       IFT_IEEE80211 = 0x47, IFT_BRIDGE = 0xd1, IFT_CELLULAR = 0xff };

static const char *const functional_types[] = {
    NULL, "loopback", "ethernet", "wifi", "awdl", "cellular", "coprocessor", "companion",
};

/* The name of each IFT_* the agent tells apart; any other is "other". */
static const struct {
    uint32_t type;
    const char *name;
} link_types[] = {
    { IFT_LOOP, "loopback" }, { IFT_ETHER, "ethernet" }, { IFT_IEEE80211, "wifi" }, { IFT_CELLULAR, "cellular" },
    { IFT_BRIDGE, "bridge" }, { IFT_GIF, "tunnel" }, { IFT_STF, "tunnel" }, { IFT_PPP, "ppp" },
};

const char *
netif_type(const struct plat_netif *netif)
{
    if (netif->functional_status == 0 && netif->functional_type > 0 &&
        netif->functional_type < sizeof(functional_types) / sizeof(functional_types[0]))
        return functional_types[netif->functional_type];
    for (size_t i = 0; i < sizeof(link_types) / sizeof(link_types[0]); i++)
        if (link_types[i].type == netif->type)
            return link_types[i].name;
    /* utun and ipsec interfaces are IFT_OTHER */
    if (netif->type == IFT_OTHER && (strncmp(netif->name, "utun", 4) == 0 || strncmp(netif->name, "ipsec", 5) == 0))
        return "tunnel";
    return "other";
}
