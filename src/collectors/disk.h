#ifndef PMDA_DARWIN_DISK_H
#define PMDA_DARWIN_DISK_H

#define DISK_CLUSTER 7
#define DISK_INDOM 2

#endif
