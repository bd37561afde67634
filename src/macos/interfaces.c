/*
 * Network interfaces: the NET_RT_IFLIST2 list (decoded by the portable
 * netif_parse.c), each interface's IFMIB_IFDATA byte counters, and its
 * functional type (wired, Wi-Fi, ...).
 */
#include "live_source.h"
#include "netif_parse.h"

#include <errno.h>
#include <net/if.h>
#include <net/if_dl.h>
#include <net/if_var.h>
#include <net/route.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/sockio.h>
#include <sys/sysctl.h>

/* The portable decoder's layouts are Apple's: checked here, where the SDK's
 * headers are (the cross-check compiles this file on every test run). */
_Static_assert(sizeof(struct if_msghdr2) == NETIF_MSG_SIZE, "if_msghdr2 size");
_Static_assert(offsetof(struct if_msghdr2, ifm_type) == NETIF_MSG_TYPE, "ifm_type");
_Static_assert(offsetof(struct if_msghdr2, ifm_flags) == NETIF_MSG_FLAGS, "ifm_flags");
_Static_assert(offsetof(struct if_msghdr2, ifm_index) == NETIF_MSG_INDEX, "ifm_index");
_Static_assert(offsetof(struct if_msghdr2, ifm_snd_drops) == NETIF_MSG_SND_DROPS, "ifm_snd_drops");
_Static_assert(offsetof(struct if_msghdr2, ifm_data) == NETIF_MSG_DATA, "ifm_data");
_Static_assert(IFF_UP == PLAT_IFF_UP && IFF_RUNNING == PLAT_IFF_RUNNING, "IFF_* flags");
_Static_assert(sizeof(struct if_data64) == NETIF_DATA_SIZE, "if_data64 size");
_Static_assert(offsetof(struct if_data64, ifi_mtu) == NETIF_DATA_MTU, "ifi_mtu");
_Static_assert(offsetof(struct if_data64, ifi_baudrate) == NETIF_DATA_BAUDRATE, "ifi_baudrate");
_Static_assert(offsetof(struct if_data64, ifi_ipackets) == NETIF_DATA_IPACKETS, "ifi_ipackets");
_Static_assert(offsetof(struct if_data64, ifi_collisions) == NETIF_DATA_COLLISIONS, "ifi_collisions");
_Static_assert(offsetof(struct if_data64, ifi_ibytes) == NETIF_DATA_IBYTES, "ifi_ibytes");
_Static_assert(offsetof(struct if_data64, ifi_obytes) == NETIF_DATA_OBYTES, "ifi_obytes");
_Static_assert(offsetof(struct if_data64, ifi_iqdrops) == NETIF_DATA_IQDROPS, "ifi_iqdrops");
_Static_assert(offsetof(struct sockaddr_dl, sdl_nlen) == NETIF_SDL_NLEN, "sdl_nlen");
_Static_assert(offsetof(struct sockaddr_dl, sdl_data) == NETIF_SDL_DATA, "sdl_data");
_Static_assert(RTM_IFINFO2 == NETIF_RTM_IFINFO2 && AF_LINK == NETIF_AF_LINK, "constants");

/* net/if_mib.h is not in every SDK: its constants (XNU net/if_mib.h). */
#define NETLINK_GENERIC_ 0
#define IFMIB_IFDATA_ 2
#define IFDATA_GENERAL_ 1
#ifndef SIOCGIFFUNCTIONALTYPE
#define SIOCGIFFUNCTIONALTYPE _IOWR('i', 173, struct ifreq)
#endif

#define IFLIST_MAX (16u << 20)

/* The 64-bit byte counters of NET_RT_IFLIST2 are truncated to 32 bits for
 * programs other than Apple's on several releases; the per-interface
 * IFMIB_IFDATA record is not (node_exporter #3333). */
static void
read_mib(struct live_source *src, struct plat_netif *netif)
{
    int mib[6] = { CTL_NET, PF_LINK, NETLINK_GENERIC_, IFMIB_IFDATA_, (int)netif->index, IFDATA_GENERAL_ };
    unsigned char record[NETIF_MIB_SIZE + 64];
    size_t got = sizeof(record);

    if (sysctl(mib, 6, record, &got, NULL, 0) == -1) {
        netif->mib_status = live_fail(src, -errno, "IFMIB_IFDATA %s: %s", netif->name, strerror(errno));
        return;
    }
    netif->mib_status = netif_parse_ifmibdata(record, got, &netif->mib_ibytes, &netif->mib_obytes);
    if (netif->mib_status < 0)
        live_fail(src, netif->mib_status, "IFMIB_IFDATA %s: %zu bytes", netif->name, got);
}

static void
read_functional_type(struct live_source *src, struct plat_netif *netif)
{
    struct ifreq ifr;

    if (src->ioctl_fd < 0) {
        netif->functional_status = -EBADF;
        return;
    }
    memset(&ifr, 0, sizeof(ifr));
    strlcpy(ifr.ifr_name, netif->name, sizeof(ifr.ifr_name));
    if (ioctl(src->ioctl_fd, SIOCGIFFUNCTIONALTYPE, &ifr) == -1) {
        netif->functional_status = -errno;
        return;
    }
    netif->functional_type = ifr.ifr_ifru.ifru_functional_type;
    netif->functional_status = 0;
}

int
live_interfaces(void *ctx, struct plat_netif_set *out)
{
    struct live_source *src = live_begin(ctx);
    int mib[6] = { CTL_NET, PF_ROUTE, 0, 0, NET_RT_IFLIST2, 0 };
    size_t len;
    unsigned int n;
    int sts;

    if ((sts = live_sysctl_growing(src, "NET_RT_IFLIST2", mib, 6, &src->iflist, IFLIST_MAX, &len)) < 0)
        return sts;
    if (src->netifs == NULL && (src->netifs = calloc(PLAT_MAX_NETIFS, sizeof(*src->netifs))) == NULL)
        return live_fail(src, -ENOMEM, "interfaces: out of memory");
    if ((sts = netif_parse_iflist2(src->iflist.data, len, src->netifs, PLAT_MAX_NETIFS, &n)) < 0)
        return live_fail(src, sts, "NET_RT_IFLIST2: %s after %u interfaces in %zu bytes",
                         sts == -E2BIG ? "too many interfaces" : "malformed message", n, len);
    for (unsigned int i = 0; i < n; i++) {
        read_mib(src, &src->netifs[i]);
        read_functional_type(src, &src->netifs[i]);
    }
    out->n = n;
    out->netif = src->netifs;
    return 0;
}
