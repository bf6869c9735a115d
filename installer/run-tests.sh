#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs every dependency (Debian 12), builds Fleetscope and runs all its tests.
# Usage: installer/run-tests.sh [build-folder]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${1:-build}"

./installer/install-deps.sh
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$BUILD" -j2
# Layering and runtime checks of DESIGN.md: model/ is plain C++, importers/ no GUI, no Qt 5 loaded.
bash .ci/check-layers-test.sh
bash .ci/check-layers.sh
bash .ci/check-no-qt5.sh "$BUILD/app/fleetscope"
ctest --test-dir "$BUILD" --output-on-failure -j2
