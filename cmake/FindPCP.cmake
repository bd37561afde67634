# PCP's PMDA library through pkg-config, plus what this project needs to know
# about the installed PCP: whether the PMDA fetch API says pmdaResult (PCP 7)
# or pmResult (PCP 6), and where PMDAs are installed.
find_package(PkgConfig REQUIRED)
pkg_check_modules(PCP REQUIRED IMPORTED_TARGET libpcp_pmda)

include(CheckCSourceCompiles)
set(CMAKE_REQUIRED_INCLUDES ${PCP_INCLUDE_DIRS})
check_c_source_compiles("
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
int main(void) { pmdaResult *r = 0; return r != 0; }" HAVE_PMDA_RESULT)
unset(CMAKE_REQUIRED_INCLUDES)

if(NOT DEFINED PCP_PMDAS_DIR)
  pkg_get_variable(pcp_pmdas_from_pc libpcp_pmda pmdasdir)
  if(pcp_pmdas_from_pc)
    set(default_pmdas "${pcp_pmdas_from_pc}")
  else()
    set(pcp_conf "$ENV{PCP_CONF}")
    if(NOT pcp_conf)
      set(pcp_conf "/etc/pcp.conf")
    endif()
    if(EXISTS "${pcp_conf}")
      file(STRINGS "${pcp_conf}" line REGEX "^PCP_PMDAS_DIR=")
      string(REGEX REPLACE "^PCP_PMDAS_DIR=" "" default_pmdas "${line}")
    endif()
  endif()
  if(NOT default_pmdas)
    set(default_pmdas "/var/lib/pcp/pmdas")
  endif()
  set(PCP_PMDAS_DIR "${default_pmdas}" CACHE PATH "Where PCP looks for PMDAs")
endif()
