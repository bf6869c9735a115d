#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check-no-qt5.sh: fails when an executable would load Qt 5.
#
# Debian 12's VTK Qt modules (GUISupportQt, RenderingQt, ViewsQt) link Qt 5; loading them
# into Fleetscope's Qt 6 process breaks it (DESIGN.md, "Build facts"). This checks the whole
# dependency closure that the dynamic loader resolves, as ldd prints it.
#
# Usage: .ci/check-no-qt5.sh EXECUTABLE...
# Output: for each offending executable, the libQt5 lines of its ldd output, then a verdict.
# Exit:   0 when no executable names libQt5; 1 when one does; 2 on a usage error or when
#         ldd cannot read an executable (missing, not a dynamic ELF file).
set -uo pipefail

if (($# == 0)); then
    echo "usage: $0 EXECUTABLE..." >&2
    exit 2
fi

status=0
for exe in "$@"; do
    if [[ ! -f "$exe" ]]; then
        echo "check-no-qt5: $exe: no such file" >&2
        exit 2
    fi
    if ! deps=$(ldd "$exe" 2>&1); then
        echo "check-no-qt5: ldd cannot read $exe: $deps" >&2
        exit 2
    fi
    if [[ $deps == *"not a dynamic executable"* ]]; then
        echo "check-no-qt5: $exe is not a dynamic executable" >&2
        exit 2
    fi
    qt5=$(grep -E 'libQt5' <<<"$deps" || true)
    if [[ -n "$qt5" ]]; then
        echo "check-no-qt5: $exe loads Qt 5 (a VTK Qt module or another Qt 5 library is linked):" >&2
        while IFS= read -r lib; do
            printf '    %s\n' "${lib#"${lib%%[![:space:]]*}"}" >&2
        done <<<"$qt5"
        status=1
    else
        qt6=$(grep -cE 'libQt6' <<<"$deps" || true)
        echo "check-no-qt5: OK, $exe loads no Qt 5 ($qt6 Qt 6 libraries)"
    fi
done
exit $status
