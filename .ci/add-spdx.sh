#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# add-spdx.sh: puts the project's license identifier at the top of every source file that lacks
# it: "// SPDX-License-Identifier: Apache-2.0" in C++ sources (.h, .cpp, .in templates of them)
# and "# SPDX-License-Identifier: Apache-2.0" in CMake files and shell scripts. The line is
# inserted above the file's first line (below the "#!" line of a script), and nothing else
# changes, so that it merges with any edit that does not touch the file's first line.
#
# Usage: .ci/add-spdx.sh [--check] [SOURCE_ROOT]   (default: the checkout holding this script)
#   --check  changes nothing; lists the files that lack the line and exits 1 when there are some.
# Files: those git tracks (git ls-files), so build folders and untracked files are left alone.
set -euo pipefail

check=0
if [[ ${1:-} == --check ]]; then
    check=1
    shift
fi
root=${1:-"$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"}
cd "$root"

readonly id='SPDX-License-Identifier: Apache-2.0'
missing=0
added=0

# $1 = file, $2 = comment prefix ("//" or "#").
add_line() {
    local file=$1 prefix=$2 first
    if head -n 2 -- "$file" | grep -q 'SPDX-License-Identifier:'; then
        return
    fi
    missing=$((missing + 1))
    if ((check)); then
        echo "$file: no \"$prefix $id\" line" >&2
        return
    fi
    IFS= read -r first <"$file" || true
    local tmp
    tmp=$(mktemp "$file.spdx.XXXXXX")
    if [[ $first == '#!'* ]]; then
        { printf '%s\n' "$first"; printf '%s %s\n' "$prefix" "$id"; tail -n +2 -- "$file"; } >"$tmp"
    else
        { printf '%s %s\n' "$prefix" "$id"; cat -- "$file"; } >"$tmp"
    fi
    chmod --reference="$file" "$tmp"
    mv -- "$tmp" "$file"
    added=$((added + 1))
}

while IFS= read -r -d '' file; do
    case $file in
    *.h | *.cpp | *.in) add_line "$file" '//' ;;
    CMakeLists.txt | */CMakeLists.txt | *.cmake | *.sh) add_line "$file" '#' ;;
    *)
        # Extensionless scripts (.ci/run): a shell "#!" line.
        if [[ ${file##*/} != *.* && -f $file ]] && head -c 2 -- "$file" | grep -q '^#!' &&
            head -n 1 -- "$file" | grep -qE '(ba|da)?sh'; then
            add_line "$file" '#'
        fi
        ;;
    esac
done < <(git ls-files -z)

if ((check)); then
    if ((missing > 0)); then
        echo "add-spdx: $missing file(s) lack the SPDX line; run .ci/add-spdx.sh" >&2
        exit 1
    fi
    echo "add-spdx: every source file has the SPDX line"
else
    echo "add-spdx: added the SPDX line to $added file(s)"
fi
