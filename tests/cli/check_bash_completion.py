#!/usr/bin/env python3
"""Checks the generated bash completion as bash runs it: sources it, sets COMP_WORDS and
COMP_CWORD as readline would, calls the completion function and reads COMPREPLY.

Usage: check_bash_completion.py BIN_DIR COMPLETION_FILE
"""
import os
import re
import subprocess
import sys
import tempfile

bin_dir, script = sys.argv[1], sys.argv[2]
failures = []


def complete(words, env_path=None):
    """COMPREPLY for the command line `words` (the last one being completed)."""
    func = "_hfile" if words[0] == "hfile" else "_hfile_tool"
    quoted = " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
    prog = (f"source '{script}' && COMP_WORDS=({quoted}) && COMP_CWORD={len(words) - 1} && "
            f"{func} && printf '%s\\n' \"${{COMPREPLY[@]}}\"")
    env = dict(os.environ, PATH=(env_path + ":" if env_path else "") + bin_dir + ":/usr/bin:/bin")
    r = subprocess.run(["bash", "--norc", "--noprofile", "-c", prog], capture_output=True,
                       text=True, env=env)
    if r.returncode != 0 or r.stderr:
        failures.append(f"{words}: bash exited {r.returncode}: {r.stderr.strip()}")
    return sorted(w for w in r.stdout.split("\n") if w)


def expect(words, want, exact=True, env_path=None):
    got = complete(words, env_path)
    ok = got == sorted(want) if exact else set(want) <= set(got)
    if not ok:
        failures.append(f"{words}: COMPREPLY {got}, want {'' if exact else 'at least '}"
                        f"{sorted(want)}")


tools = sorted(t[len("hfile-"):] for t in os.listdir(bin_dir) if t.startswith("hfile-"))
expect(["hfile", ""], ["help", "--help", "--version"] + tools)
expect(["hfile", "re"], ["rewrite"])
expect(["hfile", "help", "ve"], ["verify"])
expect(["hfile", "rewrite", "--comp"], ["--compare", "--compression"])
expect(["hfile", "rewrite", "--compression", "Z"], ["ZSTD"])
expect(["hfile", "rewrite", "--checksum", ""], ["NULL", "CRC32", "CRC32C"])
# A value that is not a choice (a path): nothing, so that bash falls back to file names.
expect(["hfile", "rewrite", "--out-dir", ""], [])
expect(["hfile-verify", "--no-"], ["--no-blooms", "--no-key-ranges", "--no-progress"])
expect(["hfile-verify", "-j", "4", "--qu"], ["--quiet"])
expect(["hfile-dump", "some/file", "--printk"], ["--printkey", "--printkv"])
expect(["hfile", "bulkload", "--format", ""], ["tsv", "csv", "json"])
expect(["hfile-bulkload", "--value-encoding", "h"], ["hex"])
expect(["hfile-bulkload", "--separator", "--"], [])  # a value, not an option

# Every tool: each long option its --help prints is offered after '--'.
for tool in tools:
    help_text = subprocess.run([os.path.join(bin_dir, "hfile-" + tool), "--help"],
                               capture_output=True, text=True).stdout
    longs = set(re.findall(r"(?<![\w-])(--[A-Za-z][\w-]*)", help_text))
    expect(["hfile-" + tool, "--"], longs, exact=False)
    expect(["hfile", tool, "--"], longs, exact=False)

# A tool installed after the completion was generated: found on PATH, its --help read.
with tempfile.TemporaryDirectory() as d:
    late = os.path.join(d, "hfile-zzlate")
    with open(late, "w") as f:
        f.write("#!/bin/sh\necho 'Options:'\necho '  --help      Print this help'\n"
                "echo '  --zap TEXT  Zap'\n")
    os.chmod(late, 0o755)
    expect(["hfile", "zzl"], ["zzlate"], env_path=d)
    expect(["hfile", "zzlate", "--z"], ["--zap"], env_path=d)

print(f"checked the completion of {len(tools)} tools")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
