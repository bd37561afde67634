# A build for macOS from Linux with the Zig toolchain (tests/cross/find-zig.sh
# finds or installs it): the platform layer, the live source against Apple's
# headers and darwin-snapshot, linked as a Mach-O executable, with the
# project's own flags (the macOS cross check, tests/cross/check-macos.sh).
#
#   cmake -S . -B build-macos -DCMAKE_TOOLCHAIN_FILE=cmake/zig-macos.cmake \
#         -DZIG_TARGET=x86_64-macos.13.0 -DPMDA_DARWIN_WERROR=ON
#
# ZIG_TARGET defaults to aarch64-macos.13.0: macOS 13 is the oldest release
# whose SDK declares everything the live source uses. The agents need PCP's
# libraries for macOS, which Linux has not: they are not built
# (PMDA_DARWIN_AGENTS off; scripts/release.sh links them against stubs).
set(CMAKE_SYSTEM_NAME Darwin)
set(ZIG_TARGET aarch64-macos.13.0 CACHE STRING "Zig's target: <arch>-macos.<version>")
# try_compile reads this file again, in a project of its own
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES ZIG_TARGET)
string(REGEX REPLACE "-.*" "" CMAKE_SYSTEM_PROCESSOR "${ZIG_TARGET}")

get_filename_component(pmda_darwin_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
execute_process(COMMAND sh "${pmda_darwin_root}/tests/cross/find-zig.sh"
  OUTPUT_VARIABLE zig OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE zig_status)
if(NOT zig_status EQUAL 0)
  message(FATAL_ERROR "no Zig 0.11 toolchain (tests/cross/find-zig.sh)")
endif()
set(CMAKE_C_COMPILER "${zig}" cc -target "${ZIG_TARGET}")
# Zig's archiver, as a program CMake can name
set(zig_ar "${CMAKE_BINARY_DIR}/zig-ar")
file(WRITE "${zig_ar}" "#!/bin/sh\nexec \"${zig}\" ar \"$@\"\n")
file(CHMOD "${zig_ar}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE)
set(CMAKE_AR "${zig_ar}" CACHE FILEPATH "" FORCE)

# Zig carries Apple's libc headers but no frameworks: the IOKit and
# CoreFoundation declarations the live source uses, and the frameworks'
# symbols as text stubs, come from tests/cross.
set(CMAKE_C_STANDARD_INCLUDE_DIRECTORIES "${pmda_darwin_root}/tests/cross/sdk")
set(PMDA_DARWIN_FRAMEWORKS "${pmda_darwin_root}/tests/cross/IOKit.tbd"
  "${pmda_darwin_root}/tests/cross/CoreFoundation.tbd" CACHE STRING "" FORCE)
set(PMDA_DARWIN_AGENTS OFF CACHE BOOL "" FORCE)
