# PCP's PMDA library through pkg-config, plus what this project needs to know
# about the installed PCP: whether the PMDA fetch API says pmdaResult (PCP 7)
# or pmResult (PCP 6). Where PCP keeps its agents is the installed PCP's
# business: the pmda-darwin command reads it from pcp.conf when it places them.
find_package(PkgConfig REQUIRED)
if(DEFINED PMDA_DARWIN_PCP_STUBS)
  # A build for macOS from Linux (cmake/zig-macos.cmake), where PCP's macOS
  # libraries are not: the agents compile against the build host's PCP
  # headers, copied so that nothing else of its include directory is on the
  # path, with packaging/macos/include's shims for what those
  # Linux-configured headers include, and link against the text stubs the
  # toolchain names, whose install names are where PCP's macOS package puts
  # the libraries (/usr/local/lib).
  pkg_get_variable(pcp_includedir libpcp_pmda includedir)
  # Debian's includedir is PCP's own directory (/usr/include/pcp)
  foreach(dir "${pcp_includedir}" "${pcp_includedir}/pcp")
    if(EXISTS "${dir}/pmda.h")
      set(pcp_headers "${dir}")
    endif()
  endforeach()
  if(NOT pcp_headers)
    message(FATAL_ERROR "no PCP headers in ${pcp_includedir} (Debian: libpcp-pmda3-dev)")
  endif()
  set(pcp_copy "${CMAKE_BINARY_DIR}/pcp-headers")
  file(REMOVE_RECURSE "${pcp_copy}")
  file(COPY "${pcp_headers}/" DESTINATION "${pcp_copy}/pcp")
  set(PCP_INCLUDE_DIRS "${pcp_copy}" "${CMAKE_CURRENT_LIST_DIR}/../packaging/macos/include")
  set(PCP_LINK_LIBRARIES ${PMDA_DARWIN_PCP_STUBS})
  add_library(PkgConfig::PCP INTERFACE IMPORTED)
  set_target_properties(PkgConfig::PCP PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${PCP_INCLUDE_DIRS}"
    INTERFACE_LINK_LIBRARIES "${PCP_LINK_LIBRARIES}")
else()
  pkg_check_modules(PCP REQUIRED IMPORTED_TARGET libpcp_pmda)
endif()

include(CheckCSourceCompiles)
set(CMAKE_REQUIRED_INCLUDES ${PCP_INCLUDE_DIRS})
check_c_source_compiles("
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
int main(void) { pmdaResult *r = 0; return r != 0; }" HAVE_PMDA_RESULT)
unset(CMAKE_REQUIRED_INCLUDES)
