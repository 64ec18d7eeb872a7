#!/usr/bin/env python3
"""Checks that every hfile-* tool has man/<tool>.1.md and that every flag in its --help is there,
and that each page documents its exit codes."""
import os
import re
import subprocess
import sys

bin_dir, man_dir = sys.argv[1], sys.argv[2]
failures = []
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
print(f"checked {len(tools)} tools")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
