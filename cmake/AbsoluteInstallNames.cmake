# PCP's macOS libraries name themselves by a bare leaf name: their LC_ID_DYLIB
# is "libpcp.4.dylib", as PCP links them without -install_name
# (performancecopilot/pcp src/include/buildrules L51-53). A binary linked
# against them records that name, and dyld looks for a bare name in the
# working directory only, so pmcd could not load the agent
# (performancecopilot/pcp pull request 2300 shows dyld's search).
#
# pmda_darwin_absolute_install_names(TARGET LIBRARY...) makes TARGET, after
# it links, load each library it names by a bare name that is a file beside
# one of LIBRARY by that file's absolute path (install_name_tool -change),
# then signs it again: an edit of a linked Mach-O invalidates the ad-hoc
# signature the linker gave it, and Apple Silicon kills arm64 code whose
# pages do not match it. A file that names nothing bare is left as linked.
# CMake links every Mach-O with -headerpad_max_install_names
# (Modules/Platform/Darwin.cmake), which leaves room for the longer names;
# and adds no rpath for a library whose own name lacks @rpath
# (cmComputeLinkInformation::AddLibraryRuntimeInfo), so "cmake --install"
# has no rpath to edit and installs the file as it is signed.
#
# The tools are cache variables, so a build on Linux can name stand-ins:
# CMAKE_INSTALL_NAME_TOOL (CMake's own), PMDA_DARWIN_OTOOL and
# PMDA_DARWIN_CODESIGN (a command the file's path is appended to).
find_program(PMDA_DARWIN_OTOOL otool DOC "otool, to list the libraries a Mach-O loads")
set(PMDA_DARWIN_CODESIGN codesign --force --sign - CACHE STRING
  "The command that signs a Mach-O again after its load names change (ad hoc)")
set(pmda_darwin_install_names_script "${CMAKE_CURRENT_LIST_DIR}/absolute-install-names.cmake")

function(pmda_darwin_absolute_install_names target)
  set(dirs "")
  foreach(library IN LISTS ARGN)
    get_filename_component(dir "${library}" DIRECTORY)
    list(APPEND dirs "${dir}")
  endforeach()
  list(REMOVE_DUPLICATES dirs)
  # A list inside one argument of a custom command keeps its semicolons this way.
  string(REPLACE ";" "$<SEMICOLON>" dirs "${dirs}")
  string(REPLACE ";" "$<SEMICOLON>" codesign "${PMDA_DARWIN_CODESIGN}")
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND} "-DFILE=$<TARGET_FILE:${target}>" "-DLIBRARY_DIRS=${dirs}"
            "-DOTOOL=${PMDA_DARWIN_OTOOL}" "-DINSTALL_NAME_TOOL=${CMAKE_INSTALL_NAME_TOOL}"
            "-DCODESIGN=${codesign}" -P "${pmda_darwin_install_names_script}"
    VERBATIM)
endfunction()
