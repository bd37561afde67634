/* For the macOS build from Linux only (cmake/FindPCP.cmake): the PCP
 * headers come from the Linux build host, whose platform_defs.h picks its
 * 32/64-bit config by this glibc header. Both macOS targets (arm64, x86_64) are LP64. */
#define __WORDSIZE 64
