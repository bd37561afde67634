# The link rules of the macOS build from Linux (cmake/zig-macos.cmake names
# this file CMAKE_USER_MAKE_RULES_OVERRIDE, which CMake reads after its own
# Darwin rules): ld64.lld itself, not a compiler driver. A module is a
# dylib, which pmcd's dlopen takes, whose id is its file name: CMake links
# in the module's build directory and names the output relative to it.
# -headerpad_max_install_names leaves room for install_name_tool to
# lengthen a load command, as Homebrew does when it rewrites the module's id
# to its keg path.
set(lld_macos "\"${lld}\" -arch ${MACOS_ARCH} -platform_version macos ${macos_release} ${macos_release} -headerpad_max_install_names")
set(CMAKE_C_LINK_EXECUTABLE "${lld_macos} <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
# CMake's Darwin rules add compiler-driver flags (-Wl,-headerpad_max_install_names,
# -bundle; CMake 4 also -Wl,-search_paths_first) that ld64.lld refuses: the
# line above says all the linker needs.
set(CMAKE_C_LINK_FLAGS "")
foreach(kind EXECUTABLE SHARED_LIBRARY SHARED_MODULE)
  set(CMAKE_${kind}_CREATE_C_FLAGS "")
endforeach()
set(CMAKE_C_CREATE_SHARED_MODULE
  "${lld_macos} -dylib -install_name <TARGET> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
