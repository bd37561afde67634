/*
 * An IORegistry recorded on a real Mac, in the double: loads a tree that
 * tests/live/ioreg-tree printed (its help says the format) with dbl_reg_entry,
 * dbl_reg_attach, dbl_reg_superclass and the dbl_cf_* constructors.
 */
#ifndef PMDA_DARWIN_LIVE_IOREG_TREE_H
#define PMDA_DARWIN_LIVE_IOREG_TREE_H

#include <stddef.h>
#include <stdio.h>

/* Add the tree at path to the double's registry: 0, or -1 with
 * "PATH:LINE: what is wrong" in err. */
int ioreg_tree_load(const char *path, char *err, size_t errlen);
/* The same from an open stream, named name in err. */
int ioreg_tree_read(FILE *fp, const char *name, char *err, size_t errlen);

#endif
