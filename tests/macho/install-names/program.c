#include "uses_pcp.h"

int
main(void)
{
    return progname() == 0;
}
