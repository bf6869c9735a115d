#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Makes the Debian package fleetscope_<version>_amd64.deb in a build folder (configured first when
# it is not): builds
# fleetscope and the package's generated files (icons, man page, changelog.gz), runs CPack, then
# checks the package with lintian (no error allowed), the copyright file's DEP-5 form
# (installer/check-copyright.py), desktop-file-validate and appstreamcli validate --no-net (the
# metainfo, then the whole installed tree). The package lands in the build folder; its path is
# the last line printed. Layout and the kept lintian tags: docs/package.md.
# Usage: installer/build-deb.sh [build folder, default build]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${1:-build}"
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  # A fresh checkout: configure the folder as installer/run-tests.sh does (the build below makes
  # only what the package needs).
  echo "build-deb: $BUILD is not configured yet: configuring it (cmake -S . -B $BUILD -G Ninja)" >&2
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi

for tool in cpack rsvg-convert python3 gzip objcopy dpkg-shlibdeps lintian desktop-file-validate appstreamcli; do
  command -v "$tool" >/dev/null || { echo "build-deb: $tool is missing: run installer/install-deps.sh (as root)" >&2; exit 2; }
done

# The changelog's newest entry names the version the program reports.
version=$(sed -n '1s/^fleetscope (\([^)]*\)).*/\1/p' installer/debian/changelog)
project_version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$BUILD/CMakeCache.txt")
if [ "$version" != "$project_version" ]; then
  echo "build-deb: installer/debian/changelog's newest entry is $version but the project is $project_version:" \
       "add a changelog entry for $project_version" >&2
  exit 1
fi

desktop-file-validate resources/fleetscope.desktop
/usr/bin/python3 installer/check-copyright.py installer/debian/copyright
appstreamcli validate --no-net resources/io.fleetscope.Fleetscope.metainfo.xml

# Reconfigure so that CPack's configuration follows installer/cpack.cmake.
cmake "$BUILD" >/dev/null
cmake --build "$BUILD" -j2 --target fleetscope fleetscope_package_files
rm -f "$BUILD"/fleetscope_*.deb
(cd "$BUILD" && cpack -G DEB >/dev/null)
deb=$(ls "$BUILD"/fleetscope_"$version"_*.deb)
# The installed tree as a whole: the metainfo's launchable desktop file and icon are there.
appstreamcli validate-tree --no-net "$BUILD/_CPack_Packages/Linux/DEB/fleetscope-$version-Linux"

echo "build-deb: lintian $deb"
# --fail-on error: warnings are listed (docs/package.md says why each one is kept), errors fail.
lintian --fail-on error --display-info "$deb"
dpkg-deb -f "$deb" Package Version Installed-Size Maintainer Depends
echo "$deb"
