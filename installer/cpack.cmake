# SPDX-License-Identifier: Apache-2.0
# Debian package of Fleetscope (cpack -G DEB in the build folder).
set(CPACK_PACKAGE_NAME "fleetscope")
set(CPACK_PACKAGE_CONTACT "Fleetscope developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Cluster visualizer and planner for large Kubernetes and Slurm GPU fleets")
set(CPACK_GENERATOR "DEB")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION "admin")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "xvfb, xauth, libgl1-mesa-dri")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
# Debian policy: the package's license as /usr/share/doc/<package>/copyright.
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION share/doc/fleetscope RENAME copyright)
include(CPack)
