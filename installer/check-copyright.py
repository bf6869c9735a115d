#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks that a copyright file is machine-readable (DEP-5, copyright-format 1.0) as Debian's
python3-debian parses it, strictly: the Format header, a Files paragraph for "*", and for every
licence a Files paragraph names, a stand-alone License paragraph with its text. Exits non-zero
with the reason. Usage: check-copyright.py installer/debian/copyright
"""

import sys

import debian.copyright


def main():
    path = sys.argv[1]
    with open(path, encoding="utf-8") as f:
        try:
            parsed = debian.copyright.Copyright(f, strict=True)
        except Exception as e:  # python3-debian raises several types for malformed files
            sys.exit(f"check-copyright: {path} is not machine-readable (DEP-5): {e}")
    if not parsed.header.format or "copyright-format/1.0" not in parsed.header.format:
        sys.exit(f"check-copyright: {path} has no copyright-format 1.0 Format header")
    files = list(parsed.all_files_paragraphs())
    if not any("*" in p.files for p in files):
        sys.exit(f"check-copyright: {path} has no Files: * paragraph")
    texts = {p.license.synopsis: p.license.text for p in parsed.all_license_paragraphs()}
    for p in files:
        name = p.license.synopsis
        if not p.license.text and not texts.get(name):
            sys.exit(f"check-copyright: {path}: the licence {name} of Files: {' '.join(p.files)} has no text")
    print(f"check-copyright: {path}: {len(files)} Files paragraphs, licences {', '.join(sorted(texts))}")


if __name__ == "__main__":
    main()
