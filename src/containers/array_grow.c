#include "array_grow.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>

int
array_grow(void **array, unsigned int *cap, unsigned int used, size_t size)
{
    unsigned int want;
    void *grown;

    if (used < *cap)
        return 0;
    for (want = *cap ? *cap : 16; want <= used; want *= 2)
        if (want > UINT_MAX / 2)
            return -ENOMEM;
    if ((grown = realloc(*array, (size_t)want * size)) == NULL)
        return -ENOMEM;
    *array = grown;
    *cap = want;
    return 0;
}
