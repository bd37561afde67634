#include "cpu_topology.h"

#include <ctype.h>

int
cpu_level_of_cluster_type(const char *type, const char *const *names, unsigned int nlevels)
{
    int found = -1;

    if (nlevels == 1)
        return 0;
    if (type == NULL || type[0] == '\0')
        return -1;
    for (unsigned int i = 0; i < nlevels; i++) {
        if (names[i] == NULL || toupper((unsigned char)names[i][0]) != toupper((unsigned char)type[0]))
            continue;
        if (found >= 0)
            return -1;          /* two levels start with the letter */
        found = (int)i;
    }
    return found;
}

void
cpu_level_word(const char *in, char *out, size_t outlen)
{
    size_t n = 0;

    for (; *in != '\0' && n + 1 < outlen; in++)
        if (isalnum((unsigned char)*in))
            out[n++] = (char)tolower((unsigned char)*in);
    out[n] = '\0';
}
