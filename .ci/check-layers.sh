#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check-layers.sh: fails when an #include (or a CMake link) breaks the layer order
# model <- importers <- views <- app (DESIGN.md, "Layout and dependency direction").
#
#   model/      the C++ standard library only: no Qt (<Q...>, <qt...>, <q*.h>), no VTK
#               (<vtk...>), no Boost (<boost/...>), no project header outside model/.
#   importers/  "Qt Core at most": no Qt module but Qt Core (so no Qt Gui, Widgets, OpenGL),
#               no VTK, no header from views/ or app/.
#   views/      no header from app/, and no link to app/'s fleet_app library or the fleetscope executable.
#   app/        one folder per kind of file (app_kinds below); its root holds main.cpp only.
#
# Inside a layer, subfolders have an order too (STYLE.md, "Layout"): a file may include headers
# of its own subfolder, of the subfolders before it in the layer's order, and of the layer's own
# root folder; never of a later one. The layer's root files include no subfolder. Each layer's
# order and the includes against it that are known today (to be removed as files move) are set
# below, in "Subfolder orders"; a subfolder missing from its layer's order is a violation.
#
# Usage: .ci/check-layers.sh [SOURCE_ROOT]    (default: the checkout holding this script)
# Output: one line per violation on stderr, "FILE:LINE: what; rule", then a count.
# Exit:   0 when clean, 1 on any violation, 2 when the check itself cannot run.
# Env:    QT_HEADERS  Qt 6's include dir, to tell a Qt Core class header (<QString>) from
#                     one of another module (<QImage>); found by itself on Debian.
# Needs only bash, find, grep, sed and coreutils (runs before anything is installed).
set -euo pipefail

root=${1:-"$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"}
root=$(cd "$root" && pwd)
cd "$root"

violations=0
checked=0

report() { # file line message
    printf '%s:%s: %s\n' "$1" "$2" "$3" >&2
    violations=$((violations + 1))
}

# Qt's include directory (holds QtCore/, QtGui/, QtWidgets/, ...), or empty.
find_qt_headers() {
    if [[ -n "${QT_HEADERS:-}" ]]; then
        if [[ ! -d "$QT_HEADERS/QtCore" ]]; then
            echo "check-layers: QT_HEADERS=$QT_HEADERS has no QtCore/ folder" >&2
            exit 2
        fi
        printf '%s\n' "$QT_HEADERS"
        return
    fi
    local tool dir
    for tool in qtpaths6 qtpaths qmake6; do
        if command -v "$tool" >/dev/null 2>&1; then
            dir=$("$tool" --query QT_INSTALL_HEADERS 2>/dev/null || "$tool" -query QT_INSTALL_HEADERS 2>/dev/null || true)
            if [[ -d "$dir/QtCore" ]]; then
                printf '%s\n' "$dir"
                return
            fi
        fi
    done
    for dir in /usr/include/*/qt6 /usr/include/qt6 /usr/lib/qt6/include; do
        if [[ -d "$dir/QtCore" ]]; then
            printf '%s\n' "$dir"
            return
        fi
    done
}
qt_headers=$(find_qt_headers)

# The Qt module of a Qt header ("QtCore", "QtGui", ...), or "?" when it cannot be told.
qt_module_of() {
    local header=$1 module
    if [[ $header =~ ^(Qt[A-Za-z0-9]+)(/|$) ]]; then
        printf '%s\n' "${BASH_REMATCH[1]}"
        return
    fi
    if [[ -n "$qt_headers" ]]; then
        if [[ -e "$qt_headers/QtCore/$header" ]]; then
            printf 'QtCore\n'
            return
        fi
        for module in "$qt_headers"/Qt*/; do
            module=${module%/}
            if [[ -e "$module/$header" ]]; then
                printf '%s\n' "${module##*/}"
                return
            fi
        done
    fi
    printf '?\n'
}

# The top-level folders of the project (model, importers, views, app, tests, ...).
declare -A top_level=()
for dir in */; do
    top_level[${dir%/}]=1
done

# Where a project include points, as a path relative to the root ("model/ids.h"), or empty
# when it is not a project header. $1 = including file, $2 = header, $3 = '"' or '<'.
resolve_project_header() {
    local file=$1 header=$2 delimiter=$3 resolved="" first
    local dir
    dir=$(dirname "$file")
    if [[ $delimiter == '"' && -e "$dir/$header" ]]; then
        resolved=$(realpath -m --relative-to="$root" "$dir/$header")
    elif [[ -e "$root/$header" ]]; then
        resolved=$(realpath -m --relative-to="$root" "$root/$header")
    elif [[ $delimiter == '"' && ($header == ../* || $header == ./*) ]]; then
        resolved=$(realpath -m --relative-to="$root" "$dir/$header")
    else
        resolved=$(realpath -m --relative-to="$root" "$root/$header")
    fi
    first=${resolved%%/*}
    if [[ $resolved == */* && -n "${top_level[$first]:-}" ]]; then
        printf '%s\n' "$resolved"
    fi
}

# Prints "LINE<TAB>DELIMITER<TAB>HEADER" for each #include of a file (not commented out by //).
includes_of() {
    grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"][^>"]+[>"]' "$1" |
        sed -E 's/^([0-9]+):[[:space:]]*#[[:space:]]*include[[:space:]]*([<"])([^>"]+)[>"].*$/\1\t\2\t\3/' || true
}

sources_under() {
    find "$1" -type f \( -name '*.h' -o -name '*.hh' -o -name '*.hpp' -o -name '*.hxx' -o -name '*.c' \
        -o -name '*.cc' -o -name '*.cpp' -o -name '*.cxx' -o -name '*.inl' -o -name '*.ipp' -o -name '*.tpp' \) | LC_ALL=C sort
}

# What a header is: "project <path>", "qt <module>", "vtk", "boost" or "other".
# $1 = including file, $2 = header, $3 = '"' or '<'. A quoted include that names a project
# file is a project header whatever its name ("quantity.h" is not Qt's).
classify() {
    local file=$1 header=$2 delimiter=$3 project=""
    if [[ $delimiter == '"' ]]; then
        project=$(resolve_project_header "$file" "$header" "$delimiter")
        if [[ -n "$project" ]]; then
            printf 'project %s\n' "$project"
            return
        fi
    fi
    if [[ $header =~ ^Q[A-Za-z] ]]; then
        printf 'qt %s\n' "$(qt_module_of "$header")"
    elif [[ $header =~ ^qt[a-z0-9_]*(\.h)?$ || $header =~ ^q[a-z0-9_]*\.h$ ]] &&
        [[ $delimiter == '<' || $(qt_module_of "$header") != '?' ]]; then
        printf 'qt %s\n' "$(qt_module_of "$header")"
    elif [[ $header =~ ^vtk ]]; then
        printf 'vtk\n'
    elif [[ $header =~ ^boost/ ]]; then
        printf 'boost\n'
    else
        project=$(resolve_project_header "$file" "$header" "$delimiter")
        if [[ -n "$project" ]]; then
            printf 'project %s\n' "$project"
        else
            printf 'other\n'
        fi
    fi
}

# Subfolder orders. A layer's order lists its subfolders from the bottom up; the known
# exceptions are "FILE -> HEADER" pairs (paths from the root) that break the order today.
#
# model/: the planner's order is scheduling (filters, the ledger) <- placement (policies that
# rank nodes and pick devices) <- metrics (per-node figures, some of which rank typical pods) <-
# plan (actions, engine, undo) <- search (the searches that drive the engine: consolidation, its
# bound, the Karpenter-style baseline, nodes-needed, the trace replay) <- report (the figures a
# report gives, from all of them); prices have a home of their own below all of them.
# views/: the VTK adapter, the plan's view of a node, the map (and the pod drag format it
# accepts), item models, the plan panel, heatmaps, panels, inspectors and the report's pages and
# maps, from the bottom up.
declare -A layer_order=(
    [model]="pricing scheduling placement metrics plan search report"
    [views]="vtk nodeview map itemmodels plan heatmaps panels inspectors report"
)
# app/: one folder for each kind of file (docs/architecture.md, "The layers"): the window, its
# dialogs, the controllers behind it, undo commands, what the window and the command line share,
# what main() sets up first, the CLI verbs, the private X server. The root holds main.cpp only.
app_kinds="window dialogs controllers commands shared startup cli xvfb"
declare -A known_exceptions=()
declare -A exceptions_seen=()

# The subfolder of a path inside its layer ("model/plan/plan.h" -> "plan"), empty for a file
# in the layer's root folder. $1 = layer, $2 = path.
subfolder_of() {
    local rest=${2#"$1"/}
    if [[ $rest == */* ]]; then
        printf '%s\n' "${rest%%/*}"
    fi
}

# The rank of a subfolder in its layer's order (1 = the bottom), 0 for the root folder, empty
# when the order does not name it. $1 = layer, $2 = subfolder.
rank_in_layer() {
    local layer=$1 sub=$2 rank=1 entry
    if [[ -z "$sub" ]]; then
        printf '0\n'
        return
    fi
    for entry in ${layer_order[$layer]}; do
        if [[ $entry == "$sub" ]]; then
            printf '%s\n' "$rank"
            return
        fi
        rank=$((rank + 1))
    done
}

# Checks one project include of a file against its layer's subfolder order.
# $1 = layer, $2 = including file, $3 = line, $4 = include as written, $5 = resolved header path.
check_subfolder_order() {
    local layer=$1 file=$2 line=$3 shown=$4 header=$5 from to from_rank to_rank
    [[ $header == "$layer"/* ]] || return 0
    from=$(subfolder_of "$layer" "$file")
    to=$(subfolder_of "$layer" "$header")
    [[ $from != "$to" ]] || return 0
    from_rank=$(rank_in_layer "$layer" "$from")
    to_rank=$(rank_in_layer "$layer" "$to")
    if [[ -z "$from_rank" || -z "$to_rank" ]]; then
        return 0 # the folder itself is reported once, by check_subfolders_named
    fi
    if ((to_rank > from_rank)); then
        if [[ -n "${known_exceptions["$file -> $header"]:-}" ]]; then
            exceptions_seen["$file -> $header"]=1
            return 0
        fi
        report "$file" "$line" "includes $shown from $layer/$to/, which comes after $layer/${from:-(root)}${from:+/} in $layer/'s order (${layer_order[$layer]// / <- }); a subfolder may include only its own and earlier ones"
    fi
}

# Every subfolder of a layer must have its place in the layer's order. $1 = layer.
check_subfolders_named() {
    local layer=$1 dir sub
    for dir in "$layer"/*/; do
        [[ -d $dir ]] || continue
        sub=${dir%/}
        sub=${sub##*/}
        if [[ -z "$(rank_in_layer "$layer" "$sub")" ]]; then
            report "$layer/$sub" 0 "is not in $layer/'s subfolder order (${layer_order[$layer]}); add it to layer_order in .ci/check-layers.sh"
        fi
    done
}

check_model_file() {
    local file=$1 line delimiter header kind detail shown
    local -r rule="model/ may use the C++ standard library only"
    while IFS=$'\t' read -r line delimiter header; do
        [[ -n "$line" ]] || continue
        shown="$delimiter$header$([[ $delimiter == '<' ]] && printf '>' || printf '"')"
        read -r kind detail < <(classify "$file" "$header" "$delimiter")
        case $kind in
        qt) report "$file" "$line" "includes $shown (Qt); $rule" ;;
        vtk) report "$file" "$line" "includes $shown (VTK); $rule" ;;
        boost) report "$file" "$line" "includes $shown (Boost); $rule" ;;
        project)
            if [[ $detail != model/* ]]; then
                report "$file" "$line" "includes $shown, which is $detail outside model/; model/ may not depend on other layers"
            else
                check_subfolder_order model "$file" "$line" "$shown" "$detail"
            fi
            ;;
        esac
    done < <(includes_of "$file")
}

check_importers_file() {
    local file=$1 line delimiter header kind detail shown
    while IFS=$'\t' read -r line delimiter header; do
        [[ -n "$line" ]] || continue
        shown="$delimiter$header$([[ $delimiter == '<' ]] && printf '>' || printf '"')"
        read -r kind detail < <(classify "$file" "$header" "$delimiter")
        case $kind in
        qt)
            if [[ $detail == '?' ]]; then
                if [[ -z "$qt_headers" ]]; then
                    echo "check-layers: cannot find Qt 6's headers to tell the module of $shown ($file:$line); set QT_HEADERS" >&2
                    exit 2
                fi
                report "$file" "$line" "includes $shown, not a Qt Core header; importers/ may use Qt Core at most"
            elif [[ $detail != QtCore ]]; then
                report "$file" "$line" "includes $shown (Qt ${detail#Qt}); importers/ may use Qt Core at most"
            fi
            ;;
        vtk) report "$file" "$line" "includes $shown (VTK); importers/ may not render" ;;
        project)
            if [[ $detail == views/* || $detail == app/* ]]; then
                report "$file" "$line" "includes $shown, which is $detail; importers/ may not depend on views/ or app/"
            fi
            ;;
        esac
    done < <(includes_of "$file")
}

check_views_file() {
    local file=$1 line delimiter header project shown
    while IFS=$'\t' read -r line delimiter header; do
        [[ -n "$line" ]] || continue
        # Only project headers matter here (Qt, VTK and the rest are allowed in views/).
        [[ $delimiter == '"' || $header == */* ]] || continue
        [[ $header =~ ^(Q|vtk|boost/) ]] && continue
        shown="$delimiter$header$([[ $delimiter == '<' ]] && printf '>' || printf '"')"
        project=$(resolve_project_header "$file" "$header" "$delimiter")
        [[ -n "$project" ]] || continue
        if [[ $project == app/* ]]; then
            report "$file" "$line" "includes $shown, which is $project; views/ may not depend on app/"
        else
            check_subfolder_order views "$file" "$line" "$shown" "$project"
        fi
    done < <(includes_of "$file")
}

# CMake files of a layer: the libraries it links. $1 = file, $2 = extended regex of
# forbidden link items, $3 = rule to print.
check_cmake_links() {
    local file=$1 forbidden=$2 rule=$3 line text item
    while IFS= read -r entry; do
        line=${entry%%:*}
        text=${entry#*:}
        text=${text%%#*} # drop comments
        while read -r item; do
            [[ -n "$item" ]] && report "$file" "$line" "links $item; $rule"
        done < <(grep -oE "$forbidden" <<<"$text" || true)
    done < <(grep -n '' "$file")
}

# app/ keeps each kind of file in its folder: a subfolder not in app_kinds, or a source file in
# app/'s root other than main.cpp, is a violation.
check_app_layout() {
    local dir sub file
    for dir in app/*/; do
        [[ -d $dir ]] || continue
        sub=${dir%/}
        sub=${sub##*/}
        if [[ " $app_kinds " != *" $sub "* ]]; then
            report "app/$sub" 0 "is not one of app/'s folders ($app_kinds); put the file in the folder of its kind, or add the kind to app_kinds in .ci/check-layers.sh and to docs/architecture.md"
        fi
    done
    while IFS= read -r file; do
        [[ $file == app/main.cpp ]] && continue
        report "$file" 0 "is in app/'s root, which holds main.cpp only; put it in the folder of its kind ($app_kinds)"
    done < <(find app -maxdepth 1 -type f \( -name '*.h' -o -name '*.cpp' \) | LC_ALL=C sort)
}

if [[ ! -d model || ! -d importers ]]; then
    echo "check-layers: $root has no model/ and importers/ folders" >&2
    exit 2
fi

while IFS= read -r file; do
    check_model_file "$file"
    checked=$((checked + 1))
done < <(sources_under model)

while IFS= read -r file; do
    check_importers_file "$file"
    checked=$((checked + 1))
done < <(sources_under importers)

if [[ -d views ]]; then
    while IFS= read -r file; do
        check_views_file "$file"
        checked=$((checked + 1))
    done < <(sources_under views)
    check_subfolders_named views
fi
check_subfolders_named model
if [[ -d app ]]; then
    check_app_layout
fi

while IFS= read -r file; do
    check_cmake_links "$file" '\bQt[0-9]*::[A-Za-z0-9]+|\bVTK::[A-Za-z0-9]+|\$\{VTK_LIBRARIES\}|\bBoost::[A-Za-z0-9_]+|\bfleet_(importers|views|app)\b|\bfleetscope\b' \
        "model/ may link the C++ standard library only"
done < <(find model -type f \( -name CMakeLists.txt -o -name '*.cmake' \) | LC_ALL=C sort)

while IFS= read -r file; do
    check_cmake_links "$file" '\bQt[0-9]*::(Gui|Widgets|OpenGL|OpenGLWidgets|Svg|Quick|Qml)\b|\bVTK::[A-Za-z0-9]+|\$\{VTK_LIBRARIES\}|\bfleet_(views|app)\b|\bfleetscope\b' \
        "importers/ may use Qt Core at most and no VTK, views/ or app/"
done < <(find importers -type f \( -name CMakeLists.txt -o -name '*.cmake' \) | LC_ALL=C sort)

if [[ -d views ]]; then
    while IFS= read -r file; do
        check_cmake_links "$file" '\bfleet_app\b|\bfleetscope\b' "views/ may not depend on app/"
    done < <(find views -type f \( -name CMakeLists.txt -o -name '*.cmake' \) | LC_ALL=C sort)
fi

# A known exception that no longer occurs should leave the list (not an error: the file that
# held it may have moved on another branch).
for exception in "${!known_exceptions[@]}"; do
    if [[ -z "${exceptions_seen[$exception]:-}" ]]; then
        echo "check-layers: note: the known exception \"$exception\" no longer occurs; remove it from .ci/check-layers.sh" >&2
    fi
done

if ((violations > 0)); then
    echo "check-layers: $violations violation(s) of the layer order model <- importers <- views <- app or of a layer's subfolder order (DESIGN.md, STYLE.md)" >&2
    exit 1
fi
echo "check-layers: OK, $checked source files under model/, importers/ and views/ keep the layer order and the subfolder orders, app/ keeps its folders (${#exceptions_seen[@]} known exception(s) left)"
