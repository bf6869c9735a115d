# SPDX-License-Identifier: Apache-2.0
# CPack pre-build script (CPACK_PRE_BUILD_SCRIPTS): after CPack installed and stripped the files
# into its staging folder, removes the .comment section (the compilers' version strings) from the
# program as Debian's dh_strip does, so that the package carries no unneeded section.
file(GLOB_RECURSE _fleet_programs "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/*/bin/fleetscope")
if(NOT _fleet_programs)
  message(FATAL_ERROR "strip-package.cmake: no bin/fleetscope under ${CPACK_TEMPORARY_INSTALL_DIRECTORY}")
endif()
foreach(program IN LISTS _fleet_programs)
  execute_process(COMMAND objcopy --remove-section=.comment "${program}" RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "strip-package.cmake: objcopy ${program} failed (${result})")
  endif()
endforeach()
