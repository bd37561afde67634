# A build for macOS from Linux: Zig's C compiler with Apple's libc headers,
# LLVM's ld64.lld as the linker, and the stand-ins for what only a Mac has
# (packaging/macos). The release archive (scripts/release.sh) and the macOS
# cross check (tests/cross/check-macos.sh) build through it, one build per
# architecture, with the project's own CMake description and flags:
#
#   cmake -S . -B build-macos-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/zig-macos.cmake \
#         -DMACOS_ARCH=arm64 -DPMDA_DARWIN_WERROR=ON -DBUILD_TESTING=OFF
#
# MACOS_ARCH is arm64 (the default) or x86_64; ZIG names a Zig 0.11 binary
# (by default scripts/find-zig.sh finds or installs one).
set(CMAKE_SYSTEM_NAME Darwin)
set(MACOS_ARCH arm64 CACHE STRING "The architecture to build for: arm64 or x86_64")
# macOS 13 is the oldest release whose SDK declares everything the live
# source uses (rusage flavor 6: ri_energy_nj, ri_user_ptime, from macOS 12's).
set(macos_release 13.0)
# try_compile reads this file again, in a project of its own
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES MACOS_ARCH ZIG)
set(CMAKE_SYSTEM_PROCESSOR "${MACOS_ARCH}")
if(MACOS_ARCH STREQUAL "arm64")
  set(zig_arch aarch64)
elseif(MACOS_ARCH STREQUAL "x86_64")
  set(zig_arch x86_64)
else()
  message(FATAL_ERROR "MACOS_ARCH is ${MACOS_ARCH}: arm64 or x86_64")
endif()

get_filename_component(pmda_darwin_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
if(NOT ZIG)
  execute_process(COMMAND sh "${pmda_darwin_root}/scripts/find-zig.sh"
    OUTPUT_VARIABLE zig OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE zig_status)
  if(NOT zig_status EQUAL 0)
    message(FATAL_ERROR "no Zig 0.11 toolchain (scripts/find-zig.sh)")
  endif()
  set(ZIG "${zig}" CACHE FILEPATH "Zig 0.11, whose C compiler builds for macOS")
endif()
set(CMAKE_C_COMPILER "${ZIG}" cc -target "${zig_arch}-macos.${macos_release}")
# Zig's archiver, as a program CMake can name
set(zig_ar "${CMAKE_BINARY_DIR}/zig-ar")
file(WRITE "${zig_ar}" "#!/bin/sh\nexec \"${ZIG}\" ar \"$@\"\n")
file(CHMOD "${zig_ar}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE)
set(CMAKE_AR "${zig_ar}" CACHE FILEPATH "" FORCE)

# Zig 0.11's Mach-O linker exports every global symbol, hidden ones
# (private extern) included, and compiler_rt's, where the module must export
# darwin_init alone: ld64.lld links instead (cmake/zig-macos-link.cmake),
# against Zig's libSystem stub for the release built for.
execute_process(COMMAND sh "${pmda_darwin_root}/scripts/find-llvm.sh" ld64.lld
  OUTPUT_VARIABLE lld OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE lld_status)
if(NOT lld_status EQUAL 0)
  message(FATAL_ERROR "no ld64.lld (scripts/find-llvm.sh; Debian: apt-get install lld)")
endif()
string(REGEX REPLACE "\\..*" "" macos_major "${macos_release}")
get_filename_component(zig_home "${ZIG}" DIRECTORY)
set(CMAKE_C_STANDARD_LIBRARIES_INIT "${zig_home}/lib/libc/darwin/libSystem.${macos_major}.tbd")
set(CMAKE_USER_MAKE_RULES_OVERRIDE "${CMAKE_CURRENT_LIST_DIR}/zig-macos-link.cmake")

# Zig carries Apple's libc headers but no frameworks: the IOKit and
# CoreFoundation declarations the live source uses, and the frameworks'
# symbols as text stubs, come from packaging/macos/sdk; PCP's libraries as
# text stubs from packaging/macos (cmake/FindPCP.cmake).
set(CMAKE_C_STANDARD_INCLUDE_DIRECTORIES "${pmda_darwin_root}/packaging/macos/sdk/include")
set(PMDA_DARWIN_FRAMEWORKS "${pmda_darwin_root}/packaging/macos/sdk/IOKit.tbd"
  "${pmda_darwin_root}/packaging/macos/sdk/CoreFoundation.tbd" CACHE STRING "" FORCE)
set(PMDA_DARWIN_PCP_STUBS "${pmda_darwin_root}/packaging/macos/libpcp_pmda.tbd"
  "${pmda_darwin_root}/packaging/macos/libpcp.tbd")
