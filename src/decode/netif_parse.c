#include "netif_parse.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Every Mac is little-endian (arm64 and x86_64); read fields as such
 * whatever the host, so that the tests mean the same everywhere. */
static uint64_t
le(const unsigned char *p, unsigned int size)
{
    uint64_t v = 0;

    for (unsigned int i = size; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

static void
link_name(const unsigned char *msg, size_t msglen, uint32_t index, char *out, size_t outlen)
{
    const unsigned char *sdl = msg + NETIF_MSG_SIZE;
    size_t room = msglen - NETIF_MSG_SIZE;

    if (msglen > NETIF_MSG_SIZE + NETIF_SDL_DATA && sdl[NETIF_SDL_FAMILY] == NETIF_AF_LINK &&
        sdl[NETIF_SDL_NLEN] > 0 && (size_t)NETIF_SDL_DATA + sdl[NETIF_SDL_NLEN] <= room &&
        (size_t)NETIF_SDL_DATA + sdl[NETIF_SDL_NLEN] <= sdl[NETIF_SDL_LEN]) {
        unsigned int nlen = sdl[NETIF_SDL_NLEN];

        if (nlen >= outlen)
            nlen = (unsigned int)outlen - 1;
        for (unsigned int i = 0; i < nlen; i++) {
            unsigned char c = sdl[NETIF_SDL_DATA + i];

            out[i] = (c > ' ' && c < 0x7f) ? (char)c : '?';    /* instance names stay printable */
        }
        out[nlen] = '\0';
        return;
    }
    snprintf(out, outlen, "if%u", (unsigned int)index);
}

static void
decode(const unsigned char *msg, size_t msglen, struct plat_netif *out)
{
    const unsigned char *d = msg + NETIF_MSG_DATA;
    uint64_t *counters[] = { &out->ipackets, &out->ierrors, &out->opackets, &out->oerrors, &out->collisions,
                             &out->ibytes, &out->obytes, &out->imcasts, &out->omcasts, &out->iqdrops };

    memset(out, 0, sizeof(*out));
    out->index = (uint32_t)le(msg + NETIF_MSG_INDEX, 2);
    out->flags = (uint32_t)le(msg + NETIF_MSG_FLAGS, 4);
    out->snd_drops = (uint32_t)le(msg + NETIF_MSG_SND_DROPS, 4);
    out->type = d[NETIF_DATA_TYPE];
    out->mtu = (uint32_t)le(d + NETIF_DATA_MTU, 4);
    out->baudrate = le(d + NETIF_DATA_BAUDRATE, 8);
    for (unsigned int i = 0; i < sizeof(counters) / sizeof(counters[0]); i++)
        *counters[i] = le(d + NETIF_DATA_IPACKETS + 8 * i, 8);
    out->functional_status = -ENOENT;
    out->mib_status = -ENOENT;
    link_name(msg, msglen, out->index, out->name, sizeof(out->name));
}

int
netif_parse_iflist2(const unsigned char *buf, size_t len, struct plat_netif *out, unsigned int cap,
                    unsigned int *n)
{
    size_t at = 0;

    *n = 0;
    while (at < len) {
        size_t msglen;

        if (len - at < 4)
            return -EINVAL;             /* not even a message header */
        msglen = (size_t)le(buf + at + NETIF_MSG_LEN, 2);
        if (msglen < 4 || msglen > len - at)
            return -EINVAL;
        if (buf[at + NETIF_MSG_TYPE] == NETIF_RTM_IFINFO2) {
            if (msglen < NETIF_MSG_SIZE)
                return -EINVAL;
            if (*n == cap)
                return -E2BIG;
            decode(buf + at, msglen, &out[(*n)++]);
        }
        at += msglen;
    }
    return 0;
}

int
netif_parse_ifmibdata(const unsigned char *buf, size_t len, uint64_t *ibytes, uint64_t *obytes)
{
    if (len < NETIF_MIB_SIZE)
        return -EINVAL;
    *ibytes = le(buf + NETIF_MIB_DATA + NETIF_DATA_IBYTES, 8);
    *obytes = le(buf + NETIF_MIB_DATA + NETIF_DATA_OBYTES, 8);
    return 0;
}
