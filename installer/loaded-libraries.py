#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Prints the real path of every shared library a process needed, from its dynamic loader log.

Input: one process's log of LD_DEBUG=files (glibc's ld.so: "file=NAME [0];  needed by PARENT"
or "dynamically loaded by PARENT" when a library is first mapped, "calling init: PATH" when it
is initialised). Leaves out what is optional (OPTIONAL_*: loaded only where installed) and the
libraries that only those brought in. Prints each library as the loader named it; a path under
/usr/lib may be known to dpkg under /lib (merged /usr).
Used by installer/test-deb.sh to check that the package's dependencies cover what it loads:
with --packages FILE (package names, one a line), prints instead the libraries that no package
of FILE ships (by dpkg's file lists, both sides resolved through symbolic links, so that /lib
and /usr/lib of a merged /usr meet) and exits 1 when there is one.
Usage: loaded-libraries.py LOGFILE [--packages FILE]
"""

import os
import re
import sys

# Loaded only where installed: Qt's image-format and icon-engine plugins, and libXcursor, which
# Qt's xcb platform plugin opens by name (QLibrary) for the cursor theme and does without.
OPTIONAL_PLUGIN_DIRS = ("/qt6/plugins/imageformats/", "/qt6/plugins/iconengines/")
OPTIONAL_BY_NAME = ("libXcursor.so.1",)


def main():
    first_loaded_by = {}  # library name -> (how, parent name), from its first mapping
    path_of = {}  # library name -> path it was initialised from
    with open(sys.argv[1], encoding="utf-8", errors="replace") as log:
        for line in log:
            m = re.search(r"file=(\S+) \[0\];\s+(needed by|dynamically loaded by) (\S+)", line)
            if m:
                first_loaded_by.setdefault(os.path.basename(m.group(1)), (m.group(2), os.path.basename(m.group(3))))
            m = re.search(r"calling init: (\S+)", line)
            if m:
                path_of[os.path.basename(m.group(1))] = m.group(1)
    if not path_of:
        sys.exit(f"loaded-libraries.py: {sys.argv[1]} names no library")

    def required(name, depth=0):
        how, parent = first_loaded_by.get(name, ("", ""))
        if how == "dynamically loaded by" and (
                name in OPTIONAL_BY_NAME or any(d in path_of.get(name, name) for d in OPTIONAL_PLUGIN_DIRS)):
            return False
        # The program itself (or a parent never logged) ends the chain.
        return depth > 64 or parent not in first_loaded_by or required(parent, depth + 1)

    needed = [path for name, path in sorted(path_of.items()) if required(name)]
    if len(sys.argv) < 4 or sys.argv[2] != "--packages":
        print("\n".join(needed))
        return
    shipped = set()
    with open(sys.argv[3], encoding="utf-8") as names:
        for package in filter(None, (n.strip() for n in names)):
            for list_file in (f"/var/lib/dpkg/info/{package}.list", f"/var/lib/dpkg/info/{package}:amd64.list"):
                if os.path.exists(list_file):
                    with open(list_file, encoding="utf-8", errors="replace") as files:
                        shipped.update(os.path.realpath(f.rstrip("\n")) for f in files if ".so" in f)
    outside = [path for path in needed if os.path.realpath(path) not in shipped]
    for path in outside:
        print(path)
    sys.exit(1 if outside else 0)


if __name__ == "__main__":
    main()
