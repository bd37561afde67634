/*
 * Building net.inet.{tcp,udp}.pcblist_n record streams for tests, from
 * XNU's layouts (xnu_layouts.h): a generation record, each connection's six
 * records in the kernel's order (bsd/netinet/tcp_subr.c tcp_pcblist_n,
 * bsd/netinet/in_pcblist.c), and a generation record at the end. Each
 * function appends at b + at and returns the new length.
 */
#ifndef PMDA_DARWIN_PCBLIST_BUILD_H
#define PMDA_DARWIN_PCBLIST_BUILD_H

#include <stdint.h>
#include <string.h>

#include "xnu_layouts.h"

static inline size_t
pcb_xinpgen(unsigned char *b, size_t at, uint64_t gen)
{
    struct xnu_xinpgen x = { .xig_len = sizeof(x), .xig_count = 1, .xig_gen = gen, .xig_sogen = 9 };

    memcpy(b + at, &x, sizeof(x));
    return at + sizeof(x);                         /* 24: a multiple of 8, no padding */
}

static inline size_t
pcb_record(unsigned char *b, size_t at, uint32_t kind, uint32_t len, int32_t state)
{
    memset(b + at, 0xee, (len + 7) / 8 * 8);       /* junk, as real records hold data */
    memcpy(b + at, &len, 4);                       /* little-endian, as on every Mac */
    memcpy(b + at + 4, &kind, 4);
    if (kind == 0x01 && len >= sizeof(struct xnu_xsocket_n)) {     /* XSO_SOCKET: state is its last pid */
        struct xnu_xsocket_n x;

        memcpy(&x, b + at, sizeof(x));
        x.so_last_pid = state;
        memcpy(b + at, &x, sizeof(x));
    }
    if (kind == XNU_XSO_TCPCB && len >= sizeof(struct xnu_xtcpcb_n_head)) {
        struct xnu_xtcpcb_n_head x;

        memcpy(&x, b + at, sizeof(x));
        x.t_state = state;
        memcpy(b + at, &x, sizeof(x));
    }
    return at + (len + 7) / 8 * 8;
}

/* One connection: the six record kinds of a TCP pcb, in the kernel's order. */
static inline size_t
pcb_connection(unsigned char *b, size_t at, int32_t state)
{
    at = pcb_record(b, at, 0x10, 125, 0);          /* xinpcb_n (odd length: padded) */
    at = pcb_record(b, at, 0x01, sizeof(struct xnu_xsocket_n), 700 + state);   /* xsocket_n, its last pid */
    at = pcb_record(b, at, 0x02, 36, 0);           /* xsockbuf_n receive */
    at = pcb_record(b, at, 0x04, 36, 0);           /* xsockbuf_n send */
    at = pcb_record(b, at, 0x08, 72, 0);           /* xsockstat_n */
    return pcb_record(b, at, XNU_XSO_TCPCB, 208, state);
}

#endif
