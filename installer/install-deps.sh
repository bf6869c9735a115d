#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs every Debian 12 package that Fleetscope's build, tests and program need.
# Idempotent: packages already present are left as they are. Run as root (or with sudo).
set -euo pipefail

PACKAGES=(
  # toolchain
  build-essential cmake ninja-build git pkg-config ccache
  # Qt 6 (with --no-install-recommends, libqt6opengl6-dev must be named)
  qt6-base-dev libqt6opengl6-dev libqt6sql6-sqlite qt6-svg-dev
  # rendering: VTK 9.1 (only its non-Qt modules are linked), Mesa software OpenGL
  libvtk9-dev libgl1-mesa-dri
  # formats, network, storage
  libboost-dev libsqlite3-dev libsimdjson-dev libyaml-cpp-dev libssl-dev zlib1g-dev
  # COIN-OR Clp and Cbc (EPL-2.0): the LP lower bound of a consolidation
  coinor-libclp-dev coinor-libcbc-dev
  # the openssl command: the live-cluster tests make their own CA and server certificate
  openssl
  # a real Prometheus server and promtool for the usage tests (started on loopback by the test)
  prometheus
  # clang 14 and its libFuzzer / sanitizer runtimes, for the fuzz harnesses (installer/run-fuzzers.sh)
  clang-14 libclang-rt-14-dev
  # Python's csv module: the CSV export tests read the files back with a real CSV reader
  python3
  # an X server for GUI tests and for headless screenshots
  xvfb xauth libxcb1-dev
  # the end-to-end tests (tests/e2e): a window manager, real X input, screenshots of the screen
  openbox xdotool x11-utils imagemagick
  # the Debian package (installer/build-deb.sh, test-deb.sh): icons from the SVG, the checks of
  # the package and of its desktop, AppStream and MIME files; the report tests read the PDF back:
  # its text (pdftotext) and its pages as images (pdftoppm)
  librsvg2-bin lintian desktop-file-utils appstream shared-mime-info libglib2.0-bin poppler-utils python3-debian
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
# The live-cluster tests ask a real kubectl 1.33 (Google Cloud SDK's kubectl package puts it at
# /usr/lib/google-cloud-sdk/bin/kubectl.1.33) whether it reads the same kubeconfig and server as
# Fleetscope does. Debian 12's own kubernetes-client is 1.20, too old to be that oracle, so it is
# installed only where an APT source offers the kubectl package; elsewhere the tests run without
# the oracle half and say so.
KUBECTL_ORACLE=/usr/lib/google-cloud-sdk/bin/kubectl.1.33
if [ ! -x "$KUBECTL_ORACLE" ]; then
  if apt-cache policy kubectl 2>/dev/null | grep -q 'Candidate: [0-9]'; then
    echo "install-deps: installing kubectl (the oracle of the live-cluster tests)"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends kubectl || true
  fi
  if [ ! -x "$KUBECTL_ORACLE" ]; then
    echo "install-deps: NOTE: no APT source here offers kubectl 1.33 ($KUBECTL_ORACLE): the live-cluster tests" >&2
    echo "install-deps: NOTE: will skip their kubectl oracle half and say so (tst_kubeconfig, tst_kubelive, ...)" >&2
  fi
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages are installed"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
