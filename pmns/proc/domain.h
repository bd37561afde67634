/* The proc agent's domain, as upstream darwin_proc and PCP's stdpmid have it. */
#define PROC 3
