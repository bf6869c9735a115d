#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs every dependency (Debian 12), builds Fleetscope and opens it on the built-in
# simulated 100,000-node cluster. Extra arguments go to fleetscope (e.g. files to open).
# Without a display it runs under xvfb-run (the window then exists only on that virtual screen).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${BUILD:-build}"

./installer/install-deps.sh
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$BUILD" -j2 --target fleetscope
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec "$BUILD/app/fleetscope" "$@"
else
  echo "run-gui: no display; running under xvfb-run" >&2
  exec xvfb-run -a -s "-screen 0 1600x1000x24" "$BUILD/app/fleetscope" "$@"
fi
