/*
 * Network interfaces as the kernel lists them, in Apple's layouts (this
 * file is compiled with Apple's headers):
 *  - NET_RT_IFLIST2 ({CTL_NET, PF_ROUTE, 0, 0, NET_RT_IFLIST2, 0}) is, per
 *    interface, an RTM_IFINFO2 message (struct if_msghdr2) followed by its
 *    link-level address (struct sockaddr_dl, rounded to 4 bytes), then an
 *    RTM_NEWMADDR2 message per multicast address (xnu-11417.101.15
 *    bsd/net/rtsock.c sysctl_iflist2); for a program not Apple's its byte
 *    counts are rounded down to 1 KiB and cut to 32 bits (ALIGN_BYTES,
 *    rtsock.c:158-160, applied at :2197-2200 unless
 *    csproc_get_platform_binary);
 *  - IFMIB_IFDATA ({CTL_NET, PF_LINK, NETLINK_GENERIC, IFMIB_IFDATA, index,
 *    IFDATA_GENERAL}) is one struct ifmibdata (bsd/net/if_mib.h, not in
 *    every SDK: written out below; bsd/net/if_mib.c
 *    make_ifmibdata), ENOENT for an index no interface has.
 */
#include "double.h"

#include <net/if.h>
#include <net/if_dl.h>
#include <net/if_var.h>
#include <net/route.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/sysctl.h>

struct ifmibdata {                  /* bsd/net/if_mib.h */
    char ifmd_name[IFNAMSIZ];
    unsigned int ifmd_pcount, ifmd_flags, ifmd_snd_len, ifmd_snd_maxlen, ifmd_snd_drops, ifmd_filler[4];
    struct if_data64 ifmd_data;
};

#define ROUND4(n) (((n) + 3) & ~(size_t)3)
#define LIST_MAX 65536

static unsigned char list[LIST_MAX];
static size_t used;

static const int list_mib[6] = { CTL_NET, PF_ROUTE, 0, 0, NET_RT_IFLIST2, 0 };

static void
publish(void)
{
    dbl_sysctl_list("", list_mib, 6, list, used);
}

void
dbl_netif_reset(void)
{
    used = 0;
}

static uint64_t
as_listed(uint64_t bytes)
{
    return (uint32_t)(bytes & ~(uint64_t)1023);
}

/* One interface: its route message (with counters 'counter' apart, from
 * base; the byte counts the kernel's, as listed) and its IFMIB record
 * (mib_ibytes, mib_obytes, the kernel's byte counts; no record when both
 * are 0). */
static void
append(unsigned int index, const char *name, uint32_t flags, uint8_t type, uint64_t base, uint64_t mib_ibytes,
       uint64_t mib_obytes)
{
    struct if_msghdr2 ifm;
    struct sockaddr_dl sdl;
    size_t namelen = strlen(name), sdl_len = ROUND4(offsetof(struct sockaddr_dl, sdl_data) + namelen);
    unsigned char sdl_bytes[256];

    if (namelen > sizeof(sdl_bytes) - offsetof(struct sockaddr_dl, sdl_data) ||
        used + sizeof(ifm) + sdl_len > LIST_MAX)
        dbl_violation("interface %s does not fit the list", name);
    memset(&ifm, 0, sizeof(ifm));
    ifm.ifm_msglen = (u_short)(sizeof(ifm) + sdl_len);
    ifm.ifm_version = RTM_VERSION;
    ifm.ifm_type = RTM_IFINFO2;
    ifm.ifm_addrs = RTA_IFP;
    ifm.ifm_flags = (int)flags;
    ifm.ifm_index = (u_short)index;
    ifm.ifm_snd_drops = (int)(base + 10);
    ifm.ifm_data.ifi_type = type;
    ifm.ifm_data.ifi_mtu = 1500;
    ifm.ifm_data.ifi_baudrate = 1000000000;
    ifm.ifm_data.ifi_ipackets = base;
    ifm.ifm_data.ifi_ierrors = base + 1;
    ifm.ifm_data.ifi_opackets = base + 2;
    ifm.ifm_data.ifi_oerrors = base + 3;
    ifm.ifm_data.ifi_collisions = base + 4;
    ifm.ifm_data.ifi_ibytes = as_listed(mib_ibytes || mib_obytes ? mib_ibytes : base + 5);
    ifm.ifm_data.ifi_obytes = as_listed(mib_ibytes || mib_obytes ? mib_obytes : base + 6);
    ifm.ifm_data.ifi_imcasts = base + 7;
    ifm.ifm_data.ifi_omcasts = base + 8;
    ifm.ifm_data.ifi_iqdrops = base + 9;
    memcpy(list + used, &ifm, sizeof(ifm));
    memset(sdl_bytes, 0, sizeof(sdl_bytes));
    memset(&sdl, 0, sizeof(sdl));
    sdl.sdl_len = (u_char)sdl_len;
    sdl.sdl_family = AF_LINK;
    sdl.sdl_index = (u_short)index;
    sdl.sdl_type = type;
    sdl.sdl_nlen = (u_char)namelen;
    memcpy(sdl_bytes, &sdl, offsetof(struct sockaddr_dl, sdl_data));
    memcpy(sdl_bytes + offsetof(struct sockaddr_dl, sdl_data), name, namelen);
    memcpy(list + used + sizeof(ifm), sdl_bytes, sdl_len);
    used += sizeof(ifm) + sdl_len;
    if (mib_ibytes || mib_obytes) {
        int mib[6] = { CTL_NET, PF_LINK, 0 /* NETLINK_GENERIC */, 2 /* IFMIB_IFDATA */, (int)index,
                       1 /* IFDATA_GENERAL */ };
        struct ifmibdata md;

        memset(&md, 0, sizeof(md));
        strlcpy(md.ifmd_name, name, sizeof(md.ifmd_name));
        md.ifmd_flags = flags;
        md.ifmd_data = ifm.ifm_data;
        md.ifmd_data.ifi_ibytes = mib_ibytes;
        md.ifmd_data.ifi_obytes = mib_obytes;
        dbl_sysctl_bytes("", mib, 6, &md, sizeof(md));
    }
}

void
dbl_netif(unsigned int index, const char *name, uint32_t flags, uint8_t type, uint64_t base, uint64_t mib_ibytes,
          uint64_t mib_obytes)
{
    append(index, name, flags, type, base, mib_ibytes, mib_obytes);
    publish();
}

/* A multicast address's message after the last interface (skipped by
 * readers by its length: ifma_msghdr2 and its addresses). */
void
dbl_netif_multicast(void)
{
    struct ifma_msghdr2 ifmam;
    size_t len = ROUND4(sizeof(ifmam) + 16);

    memset(&ifmam, 0, sizeof(ifmam));
    ifmam.ifmam_msglen = (u_short)len;
    ifmam.ifmam_version = RTM_VERSION;
    ifmam.ifmam_type = RTM_NEWMADDR2;
    memset(list + used, 0, len);
    memcpy(list + used, &ifmam, sizeof(ifmam));
    used += len;
    publish();
}

/* Interfaces that arrive after the caller's size probe, before its
 * read: the list the read sees has it, the probe's size did not. */
void
dbl_netif_arriving(unsigned int first, unsigned int count)
{
    size_t before = used;

    for (unsigned int i = first; i < first + count; i++) {
        char name[IFNAMSIZ];

        snprintf(name, sizeof(name), "en%u", i);
        append(i, name, 0x8863, 6 /* IFT_ETHER, net/if_types.h */, 1000 * i, 0, 0);
    }
    dbl_sysctl_list_next("", list_mib, 6, list, used);
    used = before;
}

/* A message whose length runs past the list's end (damaged). */
void
dbl_netif_damaged(void)
{
    struct if_msghdr2 ifm;

    memset(&ifm, 0, sizeof(ifm));
    ifm.ifm_msglen = 60000;
    ifm.ifm_type = RTM_IFINFO2;
    memcpy(list + used, &ifm, sizeof(ifm));
    used += sizeof(ifm);
    publish();
}
