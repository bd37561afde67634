/*
 * Runs the fuzz target over every file in a directory, without libFuzzer,
 * so that the corpus is checked on every test run with any compiler.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
main(int argc, char **argv)
{
    DIR *dir;
    struct dirent *d;
    int n = 0;

    if (argc != 2 || (dir = opendir(argv[1])) == NULL) {
        fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 2;
    }
    while ((d = readdir(dir)) != NULL) {
        char path[4096];
        FILE *fp;
        long size;
        uint8_t *buf;

        if (d->d_name[0] == '.')
            continue;
        snprintf(path, sizeof(path), "%s/%s", argv[1], d->d_name);
        if ((fp = fopen(path, "rb")) == NULL)
            continue;
        fseek(fp, 0, SEEK_END);
        size = ftell(fp);
        rewind(fp);
        buf = malloc(size > 0 ? (size_t)size : 1);
        if (buf != NULL && fread(buf, 1, (size_t)size, fp) == (size_t)size) {
            LLVMFuzzerTestOneInput(buf, (size_t)size);
            n++;
        }
        free(buf);
        fclose(fp);
    }
    closedir(dir);
    printf("%d passed, 0 failed: corpus inputs parsed without a crash\n", n);
    return n > 0 ? 0 : 1;
}
