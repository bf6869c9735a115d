#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check-layers-test.sh: shows that .ci/check-layers.sh fails on each kind of include it forbids
# and passes on a tree that keeps every order. Builds small trees under a temporary folder with
# the layers' real folder names, runs the check on each and compares the exit code and the
# message.
#
# Usage: .ci/check-layers-test.sh     Exit: 0 when every case behaves, 1 otherwise.
set -euo pipefail

check=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/check-layers.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# A clean tree: every model/ and views/ subfolder the orders name, each with one header that
# includes only what it may.
make_tree() {
    local root=$1 sub
    rm -rf "$root"
    mkdir -p "$root/importers" "$root/app/window"
    mkdir -p "$root/model"
    printf '#pragma once\n' >"$root/model/ids.h"
    for sub in scheduling placement metrics plan; do
        mkdir -p "$root/model/$sub"
        printf '#pragma once\n#include "model/ids.h"\n' >"$root/model/$sub/$sub.h"
    done
    printf '#include "model/scheduling/scheduling.h"\n' >>"$root/model/plan/plan.h"
    for sub in vtk itemmodels plan map heatmaps panels inspectors; do
        mkdir -p "$root/views/$sub"
        printf '#pragma once\n#include "model/ids.h"\n' >"$root/views/$sub/$sub.h"
    done
    printf '#include "views/vtk/vtk.h"\n' >>"$root/views/map/map.h"
    printf '#pragma once\n' >"$root/importers/importreport.h"
    printf '#pragma once\n' >"$root/app/window/mainwindow.h"
    printf 'int main() { return 0; }\n' >"$root/app/main.cpp"
}

# $1 = case name, $2 = expected exit code, $3 = text the output must hold (or empty).
expect() {
    local name=$1 code=$2 text=$3 got=0 output
    output=$(bash "$check" "$work/tree" 2>&1) || got=$?
    if [[ $got != "$code" ]] || [[ -n "$text" && $output != *"$text"* ]]; then
        echo "FAIL $name: exit $got (expected $code), output:" >&2
        printf '%s\n' "$output" >&2
        failures=$((failures + 1))
    else
        echo "ok   $name"
    fi
}

make_tree "$work/tree"
expect "clean tree passes" 0 "check-layers: OK"

make_tree "$work/tree"
printf '#include "app/window/mainwindow.h"\n' >>"$work/tree/views/map/map.h"
expect "views/ including app/ fails" 1 'views/map/map.h:4: includes "app/window/mainwindow.h", which is app/window/mainwindow.h; views/ may not depend on app/'

make_tree "$work/tree"
printf '#include "../../app/window/mainwindow.h"\n' >>"$work/tree/views/panels/panels.h"
expect "views/ including app/ by a relative path fails" 1 "views/ may not depend on app/"

make_tree "$work/tree"
printf 'target_link_libraries(fleet_views PRIVATE fleetscope)\n' >"$work/tree/views/CMakeLists.txt"
expect "views/ linking the executable fails" 1 "links fleetscope; views/ may not depend on app/"

make_tree "$work/tree"
printf 'target_link_libraries(fleet_views PRIVATE fleet_app)\n' >"$work/tree/views/CMakeLists.txt"
expect "views/ linking app's library fails" 1 "links fleet_app; views/ may not depend on app/"

make_tree "$work/tree"
printf 'target_link_libraries(fleet_importers PRIVATE VTK::CommonCore)\n' >"$work/tree/importers/CMakeLists.txt"
expect "importers/ linking VTK fails" 1 "importers/ may use Qt Core at most and no VTK, views/ or app/"

make_tree "$work/tree"
printf 'target_link_libraries(fleet_importers PRIVATE fleet_app)\n' >"$work/tree/importers/CMakeLists.txt"
expect "importers/ linking app's library fails" 1 "links fleet_app; importers/ may use"

make_tree "$work/tree"
printf 'target_link_libraries(fleet_model PRIVATE Qt6::Core)\n' >"$work/tree/model/CMakeLists.txt"
expect "model/ linking Qt fails" 1 "model/ may link the C++ standard library only"

make_tree "$work/tree"
printf '#include <QWidget>\n' >>"$work/tree/importers/importreport.h"
expect "importers/ including Qt Widgets fails" 1 "importers/importreport.h:2"

make_tree "$work/tree"
printf '#include "views/map/map.h"\n' >>"$work/tree/importers/importreport.h"
expect "importers/ including views/ fails" 1 "importers/importreport.h:2"

make_tree "$work/tree"
printf '#include "importers/importreport.h"\n' >>"$work/tree/model/ids.h"
expect "model/ including importers/ fails" 1 "model/ids.h:2"

make_tree "$work/tree"
printf '#include "model/plan/plan.h"\n' >>"$work/tree/model/scheduling/scheduling.h"
expect "model/scheduling including model/plan fails" 1 'model/scheduling/scheduling.h:3: includes "model/plan/plan.h" from model/plan/'

make_tree "$work/tree"
printf '#include "model/placement/placement.h"\n' >>"$work/tree/model/ids.h"
expect "model/ root including a subfolder fails" 1 "model/ids.h:2: includes"

make_tree "$work/tree"
printf '#include "views/inspectors/inspectors.h"\n' >>"$work/tree/views/map/map.h"
expect "views/map including views/inspectors fails" 1 "comes after views/map/"

make_tree "$work/tree"
mkdir -p "$work/tree/model/extras"
printf '#pragma once\n' >"$work/tree/model/extras/extras.h"
expect "a model/ subfolder outside the order fails" 1 "model/extras:0: is not in model/'s subfolder order"

make_tree "$work/tree"
printf '#include "model/metrics/metrics.h"\n' >>"$work/tree/model/placement/placement.h"
expect "an include against the order that is not a known exception fails" 1 "model/placement/placement.h:3"

make_tree "$work/tree"
mkdir -p "$work/tree/model/placement"
printf '#include "model/plan/plan.h"\n' >"$work/tree/model/placement/consolidation.h"
expect "a search's header in placement/ including the plan fails" 1 "model/placement/consolidation.h:1"

make_tree "$work/tree"
printf '#include <QString>\n' >>"$work/tree/model/plan/plan.h"
expect "model/ including Qt still fails" 1 "model/ may use the C++ standard library only"

make_tree "$work/tree"
printf '#pragma once\n' >"$work/tree/app/plancommand.h"
expect "a file in app/'s root other than main.cpp fails" 1 "app/plancommand.h:0: is in app/'s root, which holds main.cpp only"

make_tree "$work/tree"
mkdir -p "$work/tree/app/misc"
printf '#pragma once\n' >"$work/tree/app/misc/misc.h"
expect "an app/ folder that is not a kind fails" 1 "app/misc:0: is not one of app/'s folders"

if ((failures > 0)); then
    echo "check-layers-test: $failures case(s) failed" >&2
    exit 1
fi
echo "check-layers-test: OK"
