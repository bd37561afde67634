/*
 * Growing an array by doubling, shared by the sources and the collectors.
 */
#ifndef PMDA_DARWIN_ARRAY_GROW_H
#define PMDA_DARWIN_ARRAY_GROW_H

#include <stddef.h>

/* Make room for element `used` of *array (*cap elements of size bytes),
 * doubling as often as that takes: 0, or -ENOMEM with *array and *cap
 * unchanged. */
int array_grow(void **array, unsigned int *cap, unsigned int used, size_t size);

#endif
