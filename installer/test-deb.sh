#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Tests the Debian package as an operator gets it: builds it from a finished build folder
# (installer/build-deb.sh, which also runs lintian and the desktop and AppStream validators),
# installs it with apt-get, then runs the installed copy with the checkout out of reach (a
# private mount namespace hides it under an empty tmpfs; a clean environment; a temporary working
# folder): --version, the man page against --help, the MIME type of .fleet documents, a headless
# screenshot and report of a simulated 2,000-node fleet, checked; then removes the package and
# checks that none of its files is left. Runs as root (CI does), on Debian 12.
# Usage: installer/test-deb.sh [build folder, default build]
set -euo pipefail
# (No `grep -q` after a pipe: it stops reading at the first match, and the writer's SIGPIPE then
# fails the pipeline under pipefail.)
cd "$(dirname "$0")/.."
SRC=$PWD
BUILD=$(realpath "${1:-build}")
NODES=2000

fail() { echo "test-deb: FAIL: $*" >&2; exit 1; }
step() { echo "test-deb: $*"; }
passed=0
ok() { passed=$((passed + 1)); echo "test-deb: ok: $*"; }
[ "$(id -u)" -eq 0 ] || fail "run as root (it installs and removes the package)"

work=$(mktemp -d /tmp/fleetscope-test-deb.XXXXXX)
installed_here=0
cleanup() {
  # A failed run takes the package it installed away again.
  if [ "$installed_here" = 1 ] && dpkg-query -W -f '${Status}' fleetscope 2>/dev/null | grep installed >/dev/null; then
    apt-get remove -y -q fleetscope >/dev/null 2>&1 || echo "test-deb: apt-get remove fleetscope failed" >&2
  fi
  rm -rf "$work"
}
trap cleanup EXIT

installer/build-deb.sh "$BUILD" >"$work/build-deb.log" 2>&1 || { cat "$work/build-deb.log"; fail "build-deb.sh"; }
grep -v '^running with root privileges' "$work/build-deb.log"
deb=$(tail -n 1 "$work/build-deb.log")
[ -f "$deb" ] || fail "build-deb.sh made no package"
version=$(dpkg-deb -f "$deb" Version)
cp "$deb" "$work/"
mkdir -p "$work/home" "$work/out"

export DEBIAN_FRONTEND=noninteractive
if dpkg-query -W -f '${Status}' fleetscope 2>/dev/null | grep installed >/dev/null; then
  step "removing a fleetscope installed before"
  apt-get purge -y -q fleetscope >/dev/null
fi
step "apt-get install ./$(basename "$deb")"
(cd "$work" && apt-get install -y -q --no-install-recommends ./"$(basename "$deb")") >"$work/apt-install.log" 2>&1 \
  || { cat "$work/apt-install.log"; fail "apt-get install"; }
installed_here=1
dpkg -L fleetscope | sort >"$work/installed-paths.txt"
for path in /usr/bin/fleetscope /usr/share/applications/fleetscope.desktop \
    /usr/share/icons/hicolor/scalable/apps/fleetscope.svg /usr/share/icons/hicolor/48x48/apps/fleetscope.png \
    /usr/share/mime/packages/fleetscope.xml /usr/share/metainfo/io.fleetscope.Fleetscope.metainfo.xml \
    /usr/share/man/man1/fleetscope.1.gz /usr/share/fleetscope/prices/aws-ec2-prices.csv \
    /usr/share/fleetscope/kubernetes/fleetscope-readonly-clusterrole.yaml \
    /usr/share/doc/fleetscope/copyright /usr/share/doc/fleetscope/changelog.gz; do
  grep -qxF "$path" "$work/installed-paths.txt" && [ -s "$path" ] || fail "the package did not install $path"
done
ok "installed $(grep -c . "$work/installed-paths.txt") paths, the program, desktop, icon, MIME, metainfo, man page, data and doc files among them"

# The installed copy, run with the checkout and the build folder hidden (an empty tmpfs over
# each, in a private mount namespace), from an empty folder, with a clean environment: what it
# needs must come from the package and its dependencies.
hidden=("$SRC")
case "$BUILD/" in "$SRC"/*) ;; *) hidden+=("$BUILD") ;; esac
installed() {
  local mounts=""
  for d in "${hidden[@]}"; do mounts+="mount -t tmpfs -o ro,size=1m none '$d' && "; done
  unshare --mount --propagation private sh -c "${mounts} cd '$work/out' && exec \"\$@\"" installed \
    env -i HOME="$work/home" PATH=/usr/bin:/bin LANG=C.UTF-8 "$@"
}
[ "$(installed sh -c 'ls -A "$0" | wc -l' "$SRC")" = 0 ] || fail "the checkout is still visible to the installed copy"
[ "$(installed sh -c 'command -v fleetscope')" = /usr/bin/fleetscope ] || fail "fleetscope is not /usr/bin/fleetscope on a clean PATH"
if readelf -d /usr/bin/fleetscope | grep -E 'RPATH|RUNPATH'; then fail "/usr/bin/fleetscope has an RPATH"; fi
installed ldd /usr/bin/fleetscope >"$work/ldd.txt"
if grep -q "not found" "$work/ldd.txt"; then grep "not found" "$work/ldd.txt"; fail "libraries not found"; fi
if grep -qF -e "$SRC" -e "$BUILD" "$work/ldd.txt"; then fail "a library resolves into the checkout or build folder"; fi
dpkg --verify fleetscope || fail "dpkg --verify: installed files differ from the package"
ok "ldd: $(grep -c '=>' "$work/ldd.txt") libraries, none missing, none in the checkout; dpkg --verify clean"

[ "$(installed fleetscope --version)" = "fleetscope $version" ] || fail "fleetscope --version is not 'fleetscope $version'"
ok "fleetscope --version: fleetscope $version"

# The man page lists every verb (and action) of the installed --help's subcommand table.
installed fleetscope --help >"$work/help.txt"
man_check=$(installer/check-manpage.sh "$work/help.txt" /usr/share/man/man1/fleetscope.1.gz) || fail "the installed man page"
ok "$man_check"

# The MIME type: a .fleet document by its name, and by its content (SQLite header and the
# application_id 0x46534350) under any name; another SQLite database stays application/vnd.sqlite3.
/usr/bin/python3 - "$work/out" <<'EOF'
import sqlite3, sys
for name, app_id in (("doc.fleet", 0x46534350), ("doc-renamed.db", 0x46534350), ("other.db", 0)):
    db = sqlite3.connect(f"{sys.argv[1]}/{name}")
    db.execute(f"PRAGMA application_id = {app_id}")
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
EOF
mimetype() { installed gio info -a standard::content-type "$work/out/$1" | sed -n 's/^ *standard::content-type: //p'; }
[ "$(mimetype doc.fleet)" = application/x-fleetscope ] || fail "doc.fleet is $(mimetype doc.fleet)"
[ "$(mimetype doc-renamed.db)" = application/x-fleetscope ] || fail "a document named .db is $(mimetype doc-renamed.db)"
[ "$(mimetype other.db)" = application/vnd.sqlite3 ] || fail "another SQLite database is $(mimetype other.db)"
installed gio mime application/x-fleetscope | grep "fleetscope.desktop" >/dev/null || fail "no application registered for application/x-fleetscope"
desktop-file-validate /usr/share/applications/fleetscope.desktop
appstreamcli validate --no-net /usr/share/metainfo/io.fleetscope.Fleetscope.metainfo.xml >/dev/null
ok "MIME: .fleet by name and by content, opened by fleetscope.desktop; desktop file and metainfo valid"

# A headless screenshot (a private Xvfb: no DISPLAY in the clean environment), with the dynamic
# loader logging what it loads (LD_DEBUG=files, one log per process).
mkdir -p "$work/ld"
installed env LD_DEBUG=files LD_DEBUG_OUTPUT="$work/ld/log" \
  fleetscope screenshot --simulate "$NODES" -o "$work/out/fleet.png" --size 800x600 >"$work/screenshot.log" 2>&1 \
  || { cat "$work/screenshot.log"; fail "fleetscope screenshot"; }
read -r w h colours mean < <(identify -format '%w %h %k %[fx:mean]\n' "$work/out/fleet.png")
[ "$w" = 800 ] && [ "$h" = 600 ] || fail "fleet.png is ${w}x${h}, not 800x600"
[ "$colours" -ge 16 ] || fail "fleet.png has $colours colours: blank"
ok "screenshot --simulate $NODES: ${w}x${h} PNG, $colours colours, mean level $mean"

# Every library the program needed comes from a package in its Depends closure: shlibdeps sees
# only what it links, not what is loaded at run time (Qt's xcb platform plugin, Mesa's driver).
apt-cache depends --recurse --installed --no-recommends --no-suggests --no-conflicts --no-breaks \
    --no-replaces --no-enhances fleetscope \
  | sed -n 's/^ *\(|\?[A-Za-z]*: \)\?<\?\([a-z0-9][a-z0-9.+-]*\)\(:[a-z0-9]*\)\?>\?$/\2/p' | sort -u >"$work/closure.txt"
grep -qxF libqt6gui6 "$work/closure.txt" || fail "the dependency closure read from apt-cache has no libqt6gui6"
log=$(grep -lE "initialize program: (/usr/bin/)?fleetscope$" "$work"/ld/log.* | head -n 1) || true
[ -n "$log" ] || fail "no loader log of /usr/bin/fleetscope"
/usr/bin/python3 installer/loaded-libraries.py "$log" >"$work/loaded.txt"
if ! /usr/bin/python3 installer/loaded-libraries.py "$log" --packages "$work/closure.txt" >"$work/outside.txt"; then
  sed 's/^/test-deb: loaded but in none of its dependencies: /' "$work/outside.txt" >&2
  fail "$(grep -c . "$work/outside.txt") loaded libraries are outside the package's dependency closure"
fi
ok "the $(grep -c . "$work/loaded.txt") libraries it loaded come from its $(grep -c . "$work/closure.txt") dependency packages"

# A headless report, where this build has the report subcommand.
if grep -qE '^  fleetscope report( |$)' "$work/help.txt"; then
  installed fleetscope report --simulate "$NODES" -o "$work/out/report.pdf" >"$work/report.log" 2>&1 \
    || { cat "$work/report.log"; fail "fleetscope report (listed by --help) failed"; }
  pages=$(pdfinfo "$work/out/report.pdf" | sed -n 's/^Pages: *//p')
  [ "${pages:-0}" -ge 1 ] || fail "report.pdf has no page"
  pdftotext -layout "$work/out/report.pdf" "$work/report.txt"
  grep -qF "$version" "$work/report.txt" || fail "report.pdf's text does not name Fleetscope $version"
  tr -d ',' <"$work/report.txt" | grep -w "$NODES" >/dev/null || fail "report.pdf's text does not give the $NODES nodes"
  ok "report --simulate $NODES: $pages pages, text names the version and the $NODES nodes"
else
  echo "test-deb: ################################################################"
  echo "test-deb: NOTE: the report step did NOT run: this build has no 'report' subcommand"
  echo "test-deb: ################################################################"
fi

step "apt-get remove fleetscope"
apt-get remove -y -q fleetscope >"$work/apt-remove.log" 2>&1 || { cat "$work/apt-remove.log"; fail "apt-get remove"; }
status=$(dpkg-query -W -f '${db:Status-Abbrev}' fleetscope 2>/dev/null || true)
case "$status" in ""|un*|"pn "*) ;; *) fail "after remove, dpkg says fleetscope is '$status'" ;; esac
left=0
while read -r path; do
  [ -e "$path" ] || [ -L "$path" ] || continue
  # A folder that another package also ships stays; anything else of the package must be gone.
  if [ -d "$path" ] && [ ! -L "$path" ] && dpkg -S "$path" >/dev/null 2>&1; then continue; fi
  echo "test-deb: left after remove: $path" >&2
  left=$((left + 1))
done <"$work/installed-paths.txt"
[ "$left" -eq 0 ] || fail "$left paths of the package left after apt-get remove"
[ "$(mimetype doc.fleet)" != application/x-fleetscope ] || fail "the MIME database still knows application/x-fleetscope"
ok "removed: none of its $(grep -c . "$work/installed-paths.txt") paths left, MIME type gone"

echo "test-deb: $passed passed, 0 failed"
