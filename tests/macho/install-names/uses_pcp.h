/* One function of PCP's libpcp (its pmapi.h declares it). */
const char *pmGetProgname(void);
const char *progname(void);
