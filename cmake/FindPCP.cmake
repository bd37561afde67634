# PCP's PMDA library through pkg-config, plus what this project needs to know
# about the installed PCP: whether the PMDA fetch API says pmdaResult (PCP 7)
# or pmResult (PCP 6). Where PCP keeps its agents is the installed PCP's
# business: the pmda-darwin command reads it from pcp.conf when it places them.
find_package(PkgConfig REQUIRED)
pkg_check_modules(PCP REQUIRED IMPORTED_TARGET libpcp_pmda)

include(CheckCSourceCompiles)
set(CMAKE_REQUIRED_INCLUDES ${PCP_INCLUDE_DIRS})
check_c_source_compiles("
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
int main(void) { pmdaResult *r = 0; return r != 0; }" HAVE_PMDA_RESULT)
unset(CMAKE_REQUIRED_INCLUDES)
