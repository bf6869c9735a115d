# SPDX-License-Identifier: Apache-2.0
# Debian package of Fleetscope: installer/build-deb.sh builds the target fleetscope_package_files,
# then runs `cpack -G DEB` in the build folder, and checks the result (docs/package.md).
#
# Layout (under /usr): bin/fleetscope; share/applications, share/icons/hicolor (SVG and PNGs),
# share/mime/packages, share/metainfo for desktops and software centres; share/man/man1; the
# shipped price table and the read-only ClusterRole under share/fleetscope; copyright and
# changelog under share/doc/fleetscope. The desktop, MIME and icon caches are refreshed by the
# file triggers of desktop-file-utils, shared-mime-info and the icon theme, so the package has no
# maintainer scripts.

set(FLEET_PACKAGE_DIR ${PROJECT_BINARY_DIR}/package)
set(FLEET_DEBIAN_DIR ${PROJECT_SOURCE_DIR}/installer/debian)
set(FLEET_PACKAGE_SUMMARY "cluster visualizer and planner for Kubernetes GPU fleets")

# --- Files generated at build time (not part of `all`: they need rsvg-convert and a built
# fleetscope; installer/build-deb.sh builds this target before cpack).
find_program(FLEET_RSVG_CONVERT rsvg-convert)
find_program(FLEET_GZIP gzip)
# Debian's python3 (installer/install-deps.sh), before any other on PATH.
find_program(FLEET_PYTHON3 python3 HINTS /usr/bin)
# Sizes of the hicolor PNGs: 48x48 is the theme's required fallback, the others are what menus,
# docks and software centres ask for.
set(FLEET_ICON_SIZES 16 24 32 48 64 128 256)
set(_fleet_package_outputs)
foreach(size IN LISTS FLEET_ICON_SIZES)
  set(_png ${FLEET_PACKAGE_DIR}/icons/${size}x${size}/fleetscope.png)
  add_custom_command(OUTPUT ${_png}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${FLEET_PACKAGE_DIR}/icons/${size}x${size}
    COMMAND ${FLEET_RSVG_CONVERT} --width=${size} --height=${size} --keep-aspect-ratio
            --output=${_png} ${PROJECT_SOURCE_DIR}/resources/icons/fleetscope.svg
    DEPENDS ${PROJECT_SOURCE_DIR}/resources/icons/fleetscope.svg
    COMMENT "Icon ${size}x${size} for the package" VERBATIM)
  list(APPEND _fleet_package_outputs ${_png})
endforeach()

# The man page is made from the program's own --help (the subcommand table and each
# subcommand's options), so a subcommand added to the table is in the man page too.
add_custom_command(OUTPUT ${FLEET_PACKAGE_DIR}/fleetscope.1.gz
  COMMAND ${FLEET_PYTHON3} ${PROJECT_SOURCE_DIR}/installer/manpage.py
          --program $<TARGET_FILE:fleetscope> --summary ${FLEET_PACKAGE_SUMMARY} --changelog ${FLEET_DEBIAN_DIR}/changelog
          -o ${FLEET_PACKAGE_DIR}/fleetscope.1
  COMMAND ${FLEET_GZIP} -9nf ${FLEET_PACKAGE_DIR}/fleetscope.1
  DEPENDS fleetscope ${PROJECT_SOURCE_DIR}/installer/manpage.py ${FLEET_DEBIAN_DIR}/changelog
  COMMENT "Man page fleetscope.1 from fleetscope --help" VERBATIM)
# Debian policy 12.7: a native package's changelog is changelog.gz, compressed with gzip -9n.
add_custom_command(OUTPUT ${FLEET_PACKAGE_DIR}/changelog.gz
  COMMAND ${FLEET_GZIP} -9nc ${FLEET_DEBIAN_DIR}/changelog > ${FLEET_PACKAGE_DIR}/changelog.gz
  DEPENDS ${FLEET_DEBIAN_DIR}/changelog
  COMMENT "changelog.gz for the package")
add_custom_target(fleetscope_package_files
  DEPENDS ${_fleet_package_outputs} ${FLEET_PACKAGE_DIR}/fleetscope.1.gz ${FLEET_PACKAGE_DIR}/changelog.gz)

# The same check as the package test's, for whoever adds a subcommand: the page made from the
# built program's --help has a section for each subcommand and no groff warning.
if(FLEET_BUILD_TESTS)
  add_test(NAME manpage COMMAND bash ${PROJECT_SOURCE_DIR}/installer/check-manpage.sh
           --generate $<TARGET_FILE:fleetscope> ${FLEET_PACKAGE_DIR}/manpage-test)
  set_tests_properties(manpage PROPERTIES LABELS installer)
endif()

# --- What the package installs (besides bin/fleetscope, installed by app/).
# No RUNPATH in the installed program (Debian policy 10.2): qt_standard_project_setup() gives it
# $ORIGIN:$ORIGIN/../lib for relocatable installs, but every library it links is in the
# system's search path.
set_target_properties(fleetscope PROPERTIES INSTALL_RPATH "")
install(FILES ${PROJECT_SOURCE_DIR}/resources/fleetscope.desktop DESTINATION share/applications)
install(FILES ${PROJECT_SOURCE_DIR}/resources/io.fleetscope.Fleetscope.metainfo.xml DESTINATION share/metainfo)
install(FILES ${PROJECT_SOURCE_DIR}/resources/mime/fleetscope.xml DESTINATION share/mime/packages)
install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/fleetscope.svg DESTINATION share/icons/hicolor/scalable/apps)
foreach(size IN LISTS FLEET_ICON_SIZES)
  install(FILES ${FLEET_PACKAGE_DIR}/icons/${size}x${size}/fleetscope.png
          DESTINATION share/icons/hicolor/${size}x${size}/apps)
endforeach()
install(FILES ${FLEET_PACKAGE_DIR}/fleetscope.1.gz DESTINATION share/man/man1)
install(FILES ${PROJECT_SOURCE_DIR}/resources/prices/aws-ec2-prices.csv DESTINATION share/fleetscope/prices)
install(FILES ${PROJECT_SOURCE_DIR}/resources/kubernetes/fleetscope-readonly-clusterrole.yaml
        DESTINATION share/fleetscope/kubernetes)
install(FILES ${FLEET_DEBIAN_DIR}/copyright ${FLEET_PACKAGE_DIR}/changelog.gz DESTINATION share/doc/fleetscope)

# --- The package.
set(CPACK_PACKAGE_NAME "fleetscope")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "Fleetscope developers")
set(CPACK_PACKAGE_CONTACT "Fleetscope developers <maintainers@fleetscope.io>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY ${FLEET_PACKAGE_SUMMARY})
# The extended description (CPack puts the summary above it as the synopsis line).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "Fleetscope loads the state of a Kubernetes or GPU cluster of up to 100,000
nodes (kubectl JSON, the Alibaba GPU trace, a live cluster read-only, or a
built-in simulation) and draws every node as one cell of a map grouped by
the physical topology. It tries plans on it (move pods, drain, fail or add
nodes, consolidate, place a gang) as the kube-scheduler would judge them and
exports them for review. It never writes to a cluster.
.
Its headless subcommands (summary, screenshot, plan, ...) need no display:
they start a private Xvfb where none can be opened.")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://fleetscope.io/")
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # fleetscope_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION "admin")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
# The libraries it links, from dpkg-shlibdeps; and what it runs but does not link: Xvfb and xauth
# (the private X server of the headless subcommands). Mesa's software OpenGL driver, which libGL
# loads at run time, comes with them (libglx0 -> libglx-mesa0 -> libgl1-mesa-dri).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "xvfb, xauth")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
# Stripped: the build folder keeps the debug information (RelWithDebInfo).
set(CPACK_STRIP_FILES ON)
set(CPACK_PRE_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/installer/strip-package.cmake)
include(CPack)
