#!/usr/bin/env python3
"""Checks that every hfile-* tool has man/<tool>.1.md and that every flag in its --help is there,
that each page's EXIT STATUS gives the one exit-code table of man/hfile.1.md, and that --version
prints "<tool> (hfilekit) <version>"."""
import os
import re
import subprocess
import sys

bin_dir, man_dir = sys.argv[1], sys.argv[2]
failures = []


def squash(text):
    return " ".join(text.split()).lower()


def exit_section(text):
    m = re.search(r"^#+ EXIT STATUS\n(.*?)(?=^#+ |\Z)", text, re.S | re.M)
    return m.group(1) if m else ""


# The table, documented once in hfile(1): "`N`" then ":   what N means".
table = re.findall(r"^`([0-3])`\n:   (.+?)\n\n",
                   exit_section(open(os.path.join(man_dir, "hfile.1.md")).read()), re.S | re.M)
if [code for code, _ in table] != ["0", "1", "2", "3"]:
    failures.append("man/hfile.1.md: EXIT STATUS does not list the codes 0, 1, 2, 3")
tools = sorted(t for t in os.listdir(bin_dir) if t.startswith("hfile-"))
for tool in tools:
    page = os.path.join(man_dir, tool + ".1.md")
    if not os.path.exists(page):
        failures.append(f"{tool}: no man page {page}")
        continue
    text = open(page).read()
    help_text = subprocess.run([os.path.join(bin_dir, tool), "--help"], capture_output=True,
                               text=True).stdout
    flags = set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", help_text))
    for flag in sorted(flags):
        if f"`{flag}`" not in text:
            failures.append(f"{tool}: flag {flag} is not documented in {page}")
    if "# EXIT STATUS" not in text:
        failures.append(f"{tool}: {page} has no EXIT STATUS section")
    section = squash(exit_section(text))
    for code, meaning in table:
        if squash(meaning) not in section:
            failures.append(f"{tool}: {page} EXIT STATUS lacks hfile(1)'s row for {code}: {meaning}")
    version = subprocess.run([os.path.join(bin_dir, tool), "--version"], capture_output=True,
                             text=True)
    if version.returncode != 0 or not re.fullmatch(re.escape(tool) + r" \(hfilekit\) \S+\n",
                                                   version.stdout):
        failures.append(f"{tool}: --version printed {version.stdout!r}, rc {version.returncode}")
print(f"checked {len(tools)} tools")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
