# After a target links (AbsoluteInstallNames.cmake says why): each library
# FILE loads by a bare name that is a file in one of LIBRARY_DIRS is loaded
# by that file's absolute path instead, and FILE is signed again.
#
#   cmake -DFILE=... -DLIBRARY_DIRS=dir;... -DOTOOL=... -DINSTALL_NAME_TOOL=...
#         -DCODESIGN=command;args -P absolute-install-names.cmake
cmake_minimum_required(VERSION 3.16)
foreach(tool OTOOL INSTALL_NAME_TOOL CODESIGN)
  if(NOT ${tool})
    message(FATAL_ERROR "${FILE}: no ${tool} to give PCP's libraries absolute load names")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL 0)
    string(REPLACE ";" " " command "${ARGN}")
    message(FATAL_ERROR "${command} failed (${status}):\n${out}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

# otool -L: a line per library, "<tab>NAME (compatibility version ...)"
run(${OTOOL} -L ${FILE})
string(REGEX MATCHALL "\n\t[^\n]+ \\(compatibility version" lines "${out}")
set(changes "")
foreach(line IN LISTS lines)
  string(REGEX REPLACE "^\n\t(.+) \\(compatibility version$" "\\1" name "${line}")
  if(name MATCHES "/")
    continue()
  endif()
  foreach(dir IN LISTS LIBRARY_DIRS)
    if(EXISTS "${dir}/${name}" AND NOT "${dir}/${name}" IN_LIST changes)
      list(APPEND changes -change "${name}" "${dir}/${name}")
      break()
    endif()
  endforeach()
endforeach()

if(changes)
  run(${INSTALL_NAME_TOOL} ${changes} ${FILE})
  run(${CODESIGN} ${FILE})
  string(REPLACE ";" " " said "${changes}")
  message(STATUS "${FILE}: ${said}, signed again")
endif()
