/*
 * The kernel structs that the protocol and NFS statistics decoders read, laid out
 * as XNU declares them, field by field, so that the tests build their
 * buffers from XNU's layout and not from the decoders' own offsets (a
 * decoder and a test built from one wrong assumption agree and are both
 * wrong on a Mac). Field names as in XNU; the source of each is named.
 * Checked against xnu-11417.121.6 (macOS 15.5); what the decoders read is
 * unchanged from xnu-7195 (macOS 11). The test machines are little-endian,
 * as every Mac is, so a struct's bytes are the kernel's.
 */
#ifndef PMDA_DARWIN_XNU_LAYOUTS_H
#define PMDA_DARWIN_XNU_LAYOUTS_H

#include <stdint.h>

/* bsd/netinet/ip_icmp.h: XNU's value; BSD's and glibc's is 18. */
#define XNU_ICMP_MAXTYPE 40

/* bsd/netinet/icmp_var.h */
struct xnu_icmpstat {
    uint32_t icps_error;
    uint32_t icps_oldshort;
    uint32_t icps_oldicmp;
    uint32_t icps_outhist[XNU_ICMP_MAXTYPE + 1];
    uint32_t icps_badcode;
    uint32_t icps_tooshort;
    uint32_t icps_checksum;
    uint32_t icps_badlen;
    uint32_t icps_reflect;
    uint32_t icps_inhist[XNU_ICMP_MAXTYPE + 1];
    uint32_t icps_bmcastecho;
    uint32_t icps_bmcasttstamp;
};
_Static_assert(sizeof(struct xnu_icmpstat) == 368, "struct icmpstat is 368 bytes on macOS");

/* The same struct with BSD's ICMP_MAXTYPE (18): what no Mac returns. */
struct bsd_icmpstat {
    uint32_t head[3], outhist[19], mid[5], inhist[19], tail[2];
};

/* bsd/netinet/udp_var.h */
struct xnu_udpstat {
    uint32_t udps_ipackets;
    uint32_t udps_hdrops;
    uint32_t udps_badsum;
    uint32_t udps_badlen;
    uint32_t udps_noport;
    uint32_t udps_noportbcast;
    uint32_t udps_fullsock;
    uint32_t udpps_pcbcachemiss;
    uint32_t udpps_pcbhashmiss;
    uint32_t udps_opackets;
    uint32_t udps_fastout;
    uint32_t udps_nosum;
    uint32_t udps_noportmcast;
    uint32_t udps_filtermcast;
    uint32_t udps_rcv_swcsum;
    uint32_t udps_rcv_swcsum_bytes;
    uint32_t udps_rcv6_swcsum;
    uint32_t udps_rcv6_swcsum_bytes;
    uint32_t udps_snd_swcsum;
    uint32_t udps_snd_swcsum_bytes;
    uint32_t udps_snd6_swcsum;
    uint32_t udps_snd6_swcsum_bytes;
};
_Static_assert(sizeof(struct xnu_udpstat) == 88, "struct udpstat is 88 bytes on macOS");

/* bsd/netinet6/ip6_var.h: the first 17 of its u_quad_t fields (the struct
 * goes on with more counters and histograms). */
struct xnu_ip6stat_head {
    uint64_t ip6s_total;
    uint64_t ip6s_tooshort;
    uint64_t ip6s_toosmall;
    uint64_t ip6s_fragments;
    uint64_t ip6s_fragdropped;
    uint64_t ip6s_fragtimeout;
    uint64_t ip6s_fragoverflow;
    uint64_t ip6s_forward;
    uint64_t ip6s_cantforward;
    uint64_t ip6s_redirectsent;
    uint64_t ip6s_delivered;
    uint64_t ip6s_localout;
    uint64_t ip6s_odropped;
    uint64_t ip6s_reassembled;
    uint64_t ip6s_atmfrag_rcvd;
    uint64_t ip6s_fragmented;
    uint64_t ip6s_ofragments;
};

/* bsd/netinet/tcp_var.h: the first 32 of its u_int32_t fields (241 in all
 * in xnu-11417; each release appends). */
struct xnu_tcpstat_head {
    uint32_t tcps_connattempt;
    uint32_t tcps_accepts;
    uint32_t tcps_connects;
    uint32_t tcps_drops;
    uint32_t tcps_conndrops;
    uint32_t tcps_closed;
    uint32_t tcps_segstimed;
    uint32_t tcps_rttupdated;
    uint32_t tcps_delack;
    uint32_t tcps_timeoutdrop;
    uint32_t tcps_rexmttimeo;
    uint32_t tcps_persisttimeo;
    uint32_t tcps_keeptimeo;
    uint32_t tcps_keepprobe;
    uint32_t tcps_keepdrops;
    uint32_t tcps_sndtotal;
    uint32_t tcps_sndpack;
    uint32_t tcps_sndbyte;
    uint32_t tcps_sndrexmitpack;
    uint32_t tcps_sndrexmitbyte;
    uint32_t tcps_sndacks;
    uint32_t tcps_sndprobe;
    uint32_t tcps_sndurg;
    uint32_t tcps_sndwinup;
    uint32_t tcps_sndctrl;
    uint32_t tcps_rcvtotal;
    uint32_t tcps_rcvpack;
    uint32_t tcps_rcvbyte;
    uint32_t tcps_rcvbadsum;
    uint32_t tcps_rcvbadoff;
    uint32_t tcps_rcvmemdrop;
    uint32_t tcps_rcvshort;
};
#define XNU_TCPSTAT_FIELDS_7195 232     /* sizeof(struct tcpstat) / 4, macOS 11 */

#pragma pack(push, 4)
/* bsd/netinet/in_pcb.h (inside #pragma pack(4)); inp_gen_t and so_gen_t
 * are u_quad_t. */
struct xnu_xinpgen {
    uint32_t xig_len;
    uint32_t xig_count;
    uint64_t xig_gen;
    uint64_t xig_sogen;
};

/* bsd/netinet/tcp_var.h (inside #pragma pack(4)), up to t_state;
 * TCPT_NTIMERS_EXT is 4 (bsd/netinet/tcp_timer.h). */
struct xnu_xtcpcb_n_head {
    uint32_t xt_len;
    uint32_t xt_kind;
    uint64_t t_segq;
    int32_t t_dupacks;
    int32_t t_timer[4];
    int32_t t_state;
};

/* bsd/sys/socketvar.h (inside #pragma pack(4)), xnu-11417.121.6; so_gen_t
 * is u_quad_t. */
struct xnu_xsocket_n {
    uint32_t xso_len;
    uint32_t xso_kind;
    uint64_t xso_so;
    int16_t so_type;
    uint32_t so_options;
    int16_t so_linger;
    int16_t so_state;
    uint64_t so_pcb;
    int32_t xso_protocol;
    int32_t xso_family;
    int16_t so_qlen;
    int16_t so_incqlen;
    int16_t so_qlimit;
    int16_t so_timeo;
    uint16_t so_error;
    int32_t so_pgid;
    uint32_t so_oobmark;
    uint32_t so_uid;
    int32_t so_last_pid;
    int32_t so_e_pid;
    uint64_t so_gencnt;
    uint32_t so_flags;
    uint32_t so_flags1;
    int32_t so_usecount;
    int32_t so_retaincnt;
    uint32_t xso_filter_flags;
};
#pragma pack(pop)
_Static_assert(sizeof(struct xnu_xinpgen) == 24, "struct xinpgen is 24 bytes");

#define XNU_XSO_TCPCB 0x020         /* bsd/sys/socketvar.h */

/* bsd/nfs/nfsproto.h and nfs.h: NFS_NPROCS, NFS_OP_COUNT, NFS_OP_CB_COUNT,
 * NFSERR_INFO_COMMON_SIZE, NFSERR_INFO_V4_SIZE (the last three as of the
 * release that added them). */
#define XNU_NFS_NPROCS 23
#define XNU_NFS_OP_COUNT 40
#define XNU_NFS_OP_CB_COUNT 5
#define XNU_NFSERR_INFO_COMMON_SIZE 30
#define XNU_NFSERR_INFO_V4_SIZE 40

/* struct nfsclntstats, bsd/nfs/nfs.h, as each release declares it. */
struct xnu_nfsclntstats_8019 {          /* xnu-8019.41.5 .. xnu-8796 (macOS 12.2 .. 13) */
    uint64_t attrcache_hits;
    uint64_t attrcache_misses;
    uint64_t lookupcache_hits;
    uint64_t lookupcache_misses;
    uint64_t direofcache_hits;
    uint64_t direofcache_misses;
    uint64_t biocache_reads;
    uint64_t read_bios;
    uint64_t read_physios;
    uint64_t biocache_writes;
    uint64_t write_bios;
    uint64_t write_physios;
    uint64_t biocache_readlinks;
    uint64_t readlink_bios;
    uint64_t biocache_readdirs;
    uint64_t readdir_bios;
    uint64_t rpccntv3[XNU_NFS_NPROCS];
    uint64_t opcntv4[XNU_NFS_OP_COUNT];
    uint64_t rpcretries;
    uint64_t rpcrequests;
    uint64_t rpctimeouts;
    uint64_t rpcunexpected;
    uint64_t rpcinvalid;
    uint64_t pageins;
    uint64_t pageouts;
};
struct xnu_nfsclntstats_10002 {         /* xnu-10002, xnu-10063 (macOS 14) */
    uint64_t attrcache_hits;
    uint64_t attrcache_misses;
    uint64_t lookupcache_hits;
    uint64_t lookupcache_misses;
    uint64_t direofcache_hits;
    uint64_t direofcache_misses;
    uint64_t accesscache_hits;
    uint64_t accesscache_misses;
    uint64_t biocache_reads;
    uint64_t read_bios;
    uint64_t read_physios;
    uint64_t biocache_writes;
    uint64_t write_bios;
    uint64_t write_physios;
    uint64_t biocache_readlinks;
    uint64_t readlink_bios;
    uint64_t biocache_readdirs;
    uint64_t readdir_bios;
    uint64_t rpccntv3[XNU_NFS_NPROCS];
    uint64_t opcntv4[XNU_NFS_OP_COUNT];
    uint64_t rpcretries;
    uint64_t rpcrequests;
    uint64_t rpctimeouts;
    uint64_t rpcunexpected;
    uint64_t rpcinvalid;
    uint64_t pageins;
    uint64_t pageouts;
};
struct xnu_nfsclntstats_11215 {         /* xnu-11215 (macOS 15.0 .. 15.3) */
    uint64_t attrcache_hits;
    uint64_t attrcache_misses;
    uint64_t lookupcache_hits;
    uint64_t lookupcache_misses;
    uint64_t direofcache_hits;
    uint64_t direofcache_misses;
    uint64_t accesscache_hits;
    uint64_t accesscache_misses;
    uint64_t biocache_reads;
    uint64_t read_bios;
    uint64_t read_physios;
    uint64_t biocache_writes;
    uint64_t write_bios;
    uint64_t write_physios;
    uint64_t biocache_readlinks;
    uint64_t readlink_bios;
    uint64_t biocache_readdirs;
    uint64_t readdir_bios;
    uint64_t rpccntv3[XNU_NFS_NPROCS];
    struct {
        uint64_t nlm_lock;
        uint64_t nlm_test;
        uint64_t nlm_unlock;
    } nlmcnt;
    uint64_t opcntv4[XNU_NFS_OP_COUNT];
    uint64_t rpcretries;
    uint64_t rpcrequests;
    uint64_t rpctimeouts;
    uint64_t rpcunexpected;
    uint64_t rpcinvalid;
    uint64_t pageins;
    uint64_t pageouts;
    struct {
        uint64_t errs_common[XNU_NFSERR_INFO_COMMON_SIZE];
        uint64_t errs_v4[XNU_NFSERR_INFO_V4_SIZE];
        uint64_t errs_unknown;
    } nfs_errs;
};
struct xnu_nfsclntstats_11417 {         /* xnu-11417 (macOS 15.4 on) */
    uint64_t attrcache_hits;
    uint64_t attrcache_misses;
    uint64_t lookupcache_hits;
    uint64_t lookupcache_misses;
    uint64_t direofcache_hits;
    uint64_t direofcache_misses;
    uint64_t accesscache_hits;
    uint64_t accesscache_misses;
    uint64_t biocache_reads;
    uint64_t read_bios;
    uint64_t read_physios;
    uint64_t biocache_writes;
    uint64_t write_bios;
    uint64_t write_physios;
    uint64_t biocache_readlinks;
    uint64_t readlink_bios;
    uint64_t biocache_readdirs;
    uint64_t readdir_bios;
    uint64_t rpccntv3[XNU_NFS_NPROCS];
    struct {
        uint64_t nlm_lock;
        uint64_t nlm_test;
        uint64_t nlm_unlock;
    } nlmcnt;
    uint64_t opcntv4[XNU_NFS_OP_COUNT];
    uint64_t cbopcntv4[XNU_NFS_OP_CB_COUNT];
    uint64_t rpcretries;
    uint64_t rpcrequests;
    uint64_t rpctimeouts;
    uint64_t rpcunexpected;
    uint64_t rpcinvalid;
    uint64_t pageins;
    uint64_t pageouts;
    struct {
        uint64_t errs_common[XNU_NFSERR_INFO_COMMON_SIZE];
        uint64_t errs_v4[XNU_NFSERR_INFO_V4_SIZE];
        uint64_t errs_unknown;
    } nfs_errs;
};

/* struct nfsrvstats, bsd/nfs/nfs.h. */
struct xnu_nfsrvstats_8019 {            /* xnu-8019.41.5 .. xnu-10063 */
    uint64_t srvrpccntv3[XNU_NFS_NPROCS];
    uint64_t srvrpc_errs;
    uint64_t srv_errs;
    uint64_t srvcache_inproghits;
    uint64_t srvcache_idemdonehits;
    uint64_t srvcache_nonidemdonehits;
    uint64_t srvcache_misses;
    uint64_t srvvop_writes;
};
struct xnu_nfsrvstats_11215 {           /* xnu-11215 on */
    uint64_t srvrpccntv3[XNU_NFS_NPROCS];
    uint64_t srvrpc_errs;
    uint64_t srv_errs;
    uint64_t srvcache_inproghits;
    uint64_t srvcache_idemdonehits;
    uint64_t srvcache_nonidemdonehits;
    uint64_t srvcache_misses;
    uint64_t srvvop_writes;
    struct {
        uint64_t errs_common[XNU_NFSERR_INFO_COMMON_SIZE];
        uint64_t errs_unknown;
    } nfs_errs;
};

#endif
