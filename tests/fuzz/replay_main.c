/*
 * Runs the fuzz target over files, and over every file in directories,
 * without libFuzzer, so that the corpus is checked on every test run with
 * any compiler.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Feed one file to the target; 1 if it was read, 0 if not. */
static int
replay_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    long size;
    uint8_t *buf;
    int done = 0;

    if (fp == NULL)
        return 0;
    fseek(fp, 0, SEEK_END);
    size = ftell(fp);
    rewind(fp);
    buf = malloc(size > 0 ? (size_t)size : 1);
    if (buf != NULL && size >= 0 && fread(buf, 1, (size_t)size, fp) == (size_t)size) {
        LLVMFuzzerTestOneInput(buf, (size_t)size);
        done = 1;
    }
    free(buf);
    fclose(fp);
    return done;
}

int
main(int argc, char **argv)
{
    int n = 0;

    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR|FILE...\n", argv[0]);
        return 2;
    }
    for (int a = 1; a < argc; a++) {
        DIR *dir = opendir(argv[a]);
        struct dirent *d;

        if (dir == NULL) {
            n += replay_file(argv[a]);
            continue;
        }
        while ((d = readdir(dir)) != NULL) {
            char path[4096];

            if (d->d_name[0] == '.')
                continue;
            snprintf(path, sizeof(path), "%s/%s", argv[a], d->d_name);
            n += replay_file(path);
        }
        closedir(dir);
    }
    printf("%d passed, 0 failed: corpus inputs parsed without a crash\n", n);
    return n > 0 ? 0 : 1;
}
