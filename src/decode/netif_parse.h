/*
 * Decoding the interface sysctls' byte buffers: the NET_RT_IFLIST2 message
 * stream and an IFMIB_IFDATA ifmibdata record. Portable (the layouts are
 * written out here; the live source checks them against Apple's headers
 * with static assertions), unit-tested and fuzzed with crafted buffers.
 */
#ifndef PMDA_DARWIN_NETIF_PARSE_H
#define PMDA_DARWIN_NETIF_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "platform.h"

/* struct if_msghdr2 (net/if.h, with if_data64 packed to 4 bytes). */
#define NETIF_MSG_LEN           0       /* u_short ifm_msglen */
#define NETIF_MSG_VERSION       2       /* u_char ifm_version */
#define NETIF_MSG_TYPE          3       /* u_char ifm_type */
#define NETIF_MSG_FLAGS         8       /* int ifm_flags */
#define NETIF_MSG_INDEX         12      /* u_short ifm_index */
#define NETIF_MSG_SND_DROPS     24      /* int ifm_snd_drops */
#define NETIF_MSG_DATA          32      /* struct if_data64 ifm_data */
#define NETIF_MSG_SIZE          160     /* sizeof(struct if_msghdr2) */
#define NETIF_RTM_IFINFO2       0x12
#define NETIF_RTM_VERSION       5

/* struct if_data64 (net/if_var.h), from its start. */
#define NETIF_DATA_TYPE         0       /* u_char ifi_type */
#define NETIF_DATA_MTU          8       /* u_int32_t */
#define NETIF_DATA_BAUDRATE     16      /* the u_int64_t counters follow from here */
#define NETIF_DATA_IPACKETS     24
#define NETIF_DATA_IERRORS      32
#define NETIF_DATA_OPACKETS     40
#define NETIF_DATA_OERRORS      48
#define NETIF_DATA_COLLISIONS   56
#define NETIF_DATA_IBYTES       64
#define NETIF_DATA_OBYTES       72
#define NETIF_DATA_IMCASTS      80
#define NETIF_DATA_OMCASTS      88
#define NETIF_DATA_IQDROPS      96
#define NETIF_DATA_SIZE         128

/* struct sockaddr_dl (net/if_dl.h): the link address after the header. */
#define NETIF_SDL_LEN           0
#define NETIF_SDL_FAMILY        1
#define NETIF_SDL_NLEN          5
#define NETIF_SDL_DATA          8       /* the name, sdl_nlen bytes, not terminated */
#define NETIF_AF_LINK           18

/* struct ifmibdata (net/if_mib.h): 16-byte name, 9 u_ints, then if_data64. */
#define NETIF_MIB_DATA          52
#define NETIF_MIB_SIZE          (NETIF_MIB_DATA + NETIF_DATA_SIZE)

/*
 * Walk a NET_RT_IFLIST2 buffer of len bytes into out[0..cap). Messages of
 * other types (RTM_NEWMADDR2) are skipped by their length; an interface
 * message without a link-layer name gets "if<index>". Returns 0 with *n set,
 * or -EINVAL when a message's length runs past the buffer or is too short
 * to hold its header (the interfaces before it are in out[0..*n)), or
 * -E2BIG when there are more than cap interfaces. Fills every field except
 * the functional type and the IFMIB byte counters.
 */
int netif_parse_iflist2(const unsigned char *buf, size_t len, struct plat_netif *out, unsigned int cap,
                        unsigned int *n);

/* The byte counters of an IFMIB_IFDATA/IFDATA_GENERAL record; -EINVAL if
 * len is too short to hold them. */
int netif_parse_ifmibdata(const unsigned char *buf, size_t len, uint64_t *ibytes, uint64_t *obytes);

#endif
