#ifndef PMDA_DARWIN_FILESYS_H
#define PMDA_DARWIN_FILESYS_H

#include "platform.h"

#define FILESYS_CLUSTER 5
#define FILESYS_INDOM 1

/* The mount whose instance is inst at the last cluster 5 refresh, or NULL. */
const struct plat_mount *filesys_of_inst(unsigned int inst);

#endif
