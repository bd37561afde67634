/*
 * Fuzz target for the snapshot parser: any bytes in, no crash, no leak, and
 * every look-up either succeeds or explains itself. Built for libFuzzer by
 * tests/fuzz/run-fuzz.sh and replayed over the corpus by ctest.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[] = "/tmp/pmda-darwin-fuzz-XXXXXX";
    char msg[512];
    struct platform p;
    int fd = mkstemp(path);
    FILE *fp;

    if (fd < 0 || (fp = fdopen(fd, "w")) == NULL)
        return 0;
    fwrite(data, 1, size, fp);
    fclose(fp);
    if (platform_snapshot_open(&p, path, msg, sizeof(msg)) == 0) {
        struct plat_host h;
        struct plat_memory m;
        struct plat_uname u;
        struct plat_loadavg l;
        struct plat_cpu_ticks t;
        struct plat_cpu_set c;
        struct plat_clock k;

        if (p.host(p.ctx, &h) < 0 && p.error(p.ctx)[0] == '\0')
            __builtin_trap();       /* a failure must say why */
        p.memory(p.ctx, &m);
        p.uname(p.ctx, &u);
        p.loadavg(p.ctx, &l);
        p.cpu_total(p.ctx, &t);
        p.cpus(p.ctx, &c);
        p.clock(p.ctx, &k);
        p.close(p.ctx);
    } else if (msg[0] == '\0') {
        __builtin_trap();
    }
    unlink(path);
    return 0;
}
