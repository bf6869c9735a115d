#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks a man page made by installer/manpage.py against the help it was made from: a section
# (.SS) for every verb and action of the "Subcommands" block of `fleetscope --help`, and no
# warning from man/groff (lintian's groff-message check).
# Usage: installer/check-manpage.sh HELP.txt fleetscope.1[.gz]
#    or: installer/check-manpage.sh --generate PROGRAM WORKDIR   (makes both from PROGRAM first)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = --generate ]; then
  program=$2 dir=$3
  mkdir -p "$dir"
  env -u DISPLAY -u WAYLAND_DISPLAY "$program" --help >"$dir/help.txt"
  /usr/bin/python3 "$here/manpage.py" --program "$program" --summary "man page test" \
    --changelog "$here/debian/changelog" -o "$dir/fleetscope.1"
  set -- "$dir/help.txt" "$dir/fleetscope.1"
fi
help=$1 page=$2
if [[ $page == *.gz ]]; then text=$(zcat "$page"); else text=$(cat "$page"); fi
keys=$(sed -n '/^Subcommands/,/^Run a subcommand/s/^  fleetscope \(\([a-z][a-z0-9-]* \?\)*\).*/\1/p' "$help" | sed 's/ *$//' | sort -u)
[ -n "$keys" ] || { echo "check-manpage: no subcommand in $help" >&2; exit 1; }
count=0
while read -r key; do
  if ! grep -qxF ".SS $(printf '%s' "$key" | sed 's/-/\\-/g')" <<<"$text"; then
    echo "check-manpage: $page has no section for 'fleetscope $key'" >&2
    exit 1
  fi
  count=$((count + 1))
done <<<"$keys"
warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null)
if [ -n "$warnings" ]; then
  echo "check-manpage: man reports for $page: $warnings" >&2
  exit 1
fi
echo "check-manpage: $page has all $count subcommands of --help, no groff warning"
