#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the man page fleetscope.1 from the program's own help.

The sources are what `fleetscope --help` prints (its description, the "Subcommands" block that
app/cli/subcommands.cpp generates from the subcommand table, its options) and what
`fleetscope VERB [ACTION] --help` prints for each distinct verb and action named in that
block. A subcommand added to the table therefore appears in the man page with its options,
with no edit here. The program needs no display for --help.

Usage: manpage.py --program PATH/fleetscope --changelog installer/debian/changelog -o fleetscope.1
The page's date is the newest changelog entry's (or SOURCE_DATE_EPOCH), so that two builds of
one version make the same page. Exits non-zero, naming the command, when a --help fails or its
output has not the expected shape (a "Usage: " first line).
"""

import argparse
import datetime
import email.utils
import os
import re
import subprocess
import sys

# QCommandLineParser wraps option descriptions before this column (qcommandlineparser.cpp,
# wrapText()), cutting a word with no space in it there: a continuation line that long and
# without a space continues its word on the next line.
QT_HELP_WIDTH = 79


def run_help(program, words):
    """`program WORDS... --help` with no display and C locale; its standard output."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["LC_ALL"] = "C.UTF-8"
    cmd = [program, *words, "--help"]
    result = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
    if result.returncode != 0 or not result.stdout.startswith("Usage: "):
        sys.exit(f"manpage.py: `{' '.join(cmd)}` failed (exit {result.returncode}): {result.stderr.strip()}")
    return result.stdout


def roff(text):
    """Escapes plain text for a roff line: backslashes, minus signs (options stay copyable as
    ASCII hyphen-minus) and a leading control character."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    if text.startswith((".", "'")):
        text = "\\&" + text
    return text


def parse_help(text):
    """Splits a QCommandLineParser help text into (usage, description paragraphs, sections),
    sections being [(title, [(names, description)])] for "Options:" and "Arguments:"."""
    lines = text.rstrip("\n").split("\n")
    usage = lines[0][len("Usage: "):]
    description, sections = [], []
    i = 1
    paragraph = []
    while i < len(lines) and not re.fullmatch(r"(Options|Arguments):", lines[i]):
        if lines[i].strip():
            paragraph.append(lines[i].rstrip())
        elif paragraph:
            description.append(paragraph)
            paragraph = []
        i += 1
    if paragraph:
        description.append(paragraph)
    while i < len(lines):
        title = lines[i].rstrip(":")
        entries = []
        i += 1
        while i < len(lines) and lines[i].startswith("  "):
            m = re.match(r"  (\S.*?)(\s{2,}|$)", lines[i])
            names = m.group(1)
            column = m.end() if m.group(2) else len(lines[i])
            parts = [lines[i][column:]]
            previous_full = len(lines[i]) >= QT_HELP_WIDTH and " " not in parts[-1].strip()
            i += 1
            while i < len(lines) and lines[i].startswith(" " * column) and lines[i][column:column + 1] != " ":
                part = lines[i][column:]
                if previous_full:  # a word cut at the wrap column: join without a space
                    parts[-1] += part
                else:
                    parts.append(part)
                previous_full = len(lines[i]) >= QT_HELP_WIDTH and " " not in part.strip()
                i += 1
            entries.append((names, " ".join(p.strip() for p in parts if p.strip())))
        sections.append((title, entries))
        while i < len(lines) and not lines[i].strip():
            i += 1
    return usage, description, sections


def breakable(text):
    """Roff text with break points after each "|" and each "," inside a word, so that a long
    list of alternatives (--policy a|b|c, --policies a,b,c) can wrap."""
    return re.sub(r"(\||,(?=[A-Za-z]))(?=\S)", r"\1\\:", text)


def usage_line(usage):
    """A synopsis line in bold."""
    return "\\fB" + breakable(roff(usage)) + "\\fR"


def option_item(names, description):
    """One .TP item: option names in bold, their value placeholders in italics."""
    rendered = []
    for name in names.split(", "):
        m = re.fullmatch(r"(\S+)(?: <(.+)>)?", name)
        if m and m.group(2):
            rendered.append(f"\\fB{roff(m.group(1))}\\fR \\fI{roff(m.group(2))}\\fR")
        else:
            rendered.append(f"\\fB{roff(name)}\\fR")
    return [".TP", ", ".join(rendered), breakable(roff(description))]


def subcommand_keys(main_help):
    """The verbs (and a verb's actions) of the Subcommands block, in its order: from each usage
    line "fleetscope VERB [ACTION] ...", the leading words that are plain lower-case names."""
    block = re.search(r"^Subcommands[^\n]*:\n((?:  fleetscope .*\n)+)", main_help, re.M)
    if not block:
        sys.exit("manpage.py: fleetscope --help has no Subcommands block")
    keys = []
    for line in block.group(1).splitlines():
        words = []
        for word in line.split()[1:]:
            if not re.fullmatch(r"[a-z][a-z0-9-]*", word):
                break
            words.append(word)
        if words and words not in keys:
            keys.append(words)
    return keys


def page_date(changelog):
    if "SOURCE_DATE_EPOCH" in os.environ:
        when = datetime.datetime.fromtimestamp(int(os.environ["SOURCE_DATE_EPOCH"]), datetime.timezone.utc)
        return when.strftime("%Y-%m-%d")
    with open(changelog, encoding="utf-8") as f:
        for line in f:
            if line.startswith(" -- "):
                return email.utils.parsedate_to_datetime(line.split("  ", 1)[1].strip()).strftime("%Y-%m-%d")
    sys.exit(f"manpage.py: {changelog} has no trailer line")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--program", required=True)
    parser.add_argument("--changelog", required=True)
    parser.add_argument("--summary", required=True, help="the NAME section's one line")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()

    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    version = subprocess.run([args.program, "--version"], capture_output=True, text=True, env=env,
                             check=True, timeout=60).stdout.split()[-1]
    main_help = run_help(args.program, [])
    usage, description, sections = parse_help(main_help)
    keys = subcommand_keys(main_help)

    out = [
        f'.TH FLEETSCOPE 1 "{page_date(args.changelog)}" "fleetscope {roff(version)}" "User Commands"',
        ".ad l",  # ragged right: option lists and long names cannot be justified
        ".SH NAME",
        f"fleetscope \\- {roff(args.summary)}",
        ".SH SYNOPSIS",
        f"\\fBfleetscope\\fR {roff(usage.split(' ', 1)[1])}",
    ]
    for words in keys:
        out += [".br", f"\\fBfleetscope {roff(' '.join(words))}\\fR ..."]
    out.append(".SH DESCRIPTION")
    for paragraph in description:
        if paragraph[0].startswith("Subcommands"):
            continue  # listed in SUBCOMMANDS below
        out += [".PP", roff(" ".join(paragraph))]
    for title, entries in sections:
        out.append(f".SH {title.upper()}")
        for names, text in entries:
            out += option_item(names, text)

    out += [".SH SUBCOMMANDS",
            ".PP",
            "They need no display: where none can be opened, those that draw start a private Xvfb.",
            "Each one prints its options with \\fB\\-\\-help\\fR."]
    for words in keys:
        sub_usage, sub_description, sub_sections = parse_help(run_help(args.program, words))
        out += [f".SS {roff(' '.join(words))}", usage_line(sub_usage)]
        for paragraph in sub_description:
            out += [".PP", roff(" ".join(paragraph))]
        for title, entries in sub_sections:
            entries = [e for e in entries if e[0] not in ("-h, --help", "--help-all")]
            if entries:
                out += [".PP", f"{title}:", ".RS"]
                for names, text in entries:
                    out += option_item(names, text)
                out.append(".RE")

    out += [
        ".SH FILES",
        ".TP",
        "\\fI/usr/share/fleetscope/prices/aws\\-ec2\\-prices.csv\\fR",
        "The node prices built into the program, for reference: a file given with",
        "\\fB\\-\\-prices\\fR has the same columns and its rows replace these.",
        ".TP",
        "\\fI/usr/share/fleetscope/kubernetes/fleetscope\\-readonly\\-clusterrole.yaml\\fR",
        "The read\\-only ClusterRole (get, list and watch of what Fleetscope reads) to bind to",
        "the user who runs it on a live cluster.",
        ".SH EXIT STATUS",
        "0 on success, 2 for a command line or an input that cannot be read, 1 for other failures;",
        "a subcommand's \\fB\\-\\-help\\fR tells where it differs.",
        ".SH SEE ALSO",
        "\\fBXvfb\\fR(1), \\fBkubectl\\fR(1)",
    ]
    with open(args.output, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
