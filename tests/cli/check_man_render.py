#!/usr/bin/env python3
"""Renders every built man page with `man -l` and checks what a reader gets.

Usage: check_man_render.py BIN_DIR MAN_SRC_DIR MAN_BUILD_DIR [MD2MAN SAMPLE.md]

Per page (man/<page>.1.md -> MAN_BUILD_DIR/<page>.1, and the section 7 pages, which need no SYNOPSIS):
  - NAME and SYNOPSIS sections, and a NAME line lexgrog reads (so whatis/apropos find it);
  - every line of every code block of the source appears verbatim in the rendering;
  - every list item starts a line of its own (the items are not run together);
  - no markdown left: ```, **, <br>, '#' headings, setext underlines, backticks;
  - no word hyphenated at a line end (options and identifiers must stay whole).
With MD2MAN and SAMPLE (tests/cli/md2man_sample.1.md, one of each construct md2man knows),
the sample is converted and checked the same way, and its rendering line by line.
Per tool binary (every hfile and hfile-* in BIN_DIR, so a new tool is covered without
listing it here): a page exists, hfile(1) names it, and every long option its --help prints
appears in its page.
"""
import os
import re
import subprocess
import sys
import tempfile

bin_dir, src_dir, build_dir = sys.argv[1:4]
md2man, sample = (sys.argv[4:6] + [None, None])[:2]
failures = []
BULLET = re.compile(r"^( *)([*+-]|\d+[.)]) +(.*)$")


def render(page):
    env = dict(os.environ, MANWIDTH="100", MANPAGER="cat", PAGER="cat", LC_ALL="C.UTF-8")
    env.pop("MAN_KEEP_FORMATTING", None)
    r = subprocess.run(["man", "-l", page], capture_output=True, text=True, env=env)
    if r.returncode != 0 or r.stderr.strip():
        failures.append(f"{page}: man -l exited {r.returncode}: {r.stderr.strip()}")
    return r.stdout


def squash(text):
    return " ".join(text.split())


def code_blocks(src):
    """Code lines of the source: fenced blocks, and lines indented 4 beyond the text of the
    list item they are in (or 4 at top level) that follow a blank line or more code."""
    code, item_cols, fenced, prev_blank, in_code = [], [], False, True, False
    for l in src.splitlines():
        if l.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            code.append(l.strip())
            continue
        if not l.strip() or re.match(r"#+ ", l):
            # A heading ends a list, and code may follow it directly.
            prev_blank = True
            if l.strip():
                item_cols, in_code = [], False
            continue
        ind = len(l) - len(l.lstrip())
        while item_cols and ind < item_cols[-1] and not BULLET.match(l) and prev_blank:
            item_cols.pop()
        base = item_cols[-1] if item_cols else 0
        if ind >= base + 4 and (prev_blank or in_code) and not l.lstrip().startswith(":   "):
            code.append(l.strip())
            in_code = True
        else:
            in_code = False
            m = BULLET.match(l)
            if m:
                while item_cols and item_cols[-1] > len(m.group(1)):
                    item_cols.pop()
                item_cols.append(len(l) - len(m.group(3)))
            elif ind == 0:
                item_cols = []
        prev_blank = False
    return [c for c in code if c]


def list_items(src):
    """The first words of each list item outside code (markup stripped as it renders)."""
    items, fenced = [], False
    for l in src.splitlines():
        if l.lstrip().startswith("```"):
            fenced = not fenced
        m = BULLET.match(l)
        if fenced or not m:
            continue
        words = re.sub(r"[`*]|\*\*", "", m.group(3)).split()[:2]
        if words:
            items.append(" ".join(words).rstrip(":"))
    return items


def check_page(page, src, roff):
    """The checks every page gets; returns the rendering."""
    text = render(roff)
    lines = [l.strip() for l in text.splitlines()]
    # Section 7 pages (conventions, formats) have no command line, so no SYNOPSIS.
    for section in ("NAME", "SYNOPSIS") if page.endswith(".1") else ("NAME",):
        if section not in lines:
            failures.append(f"{page}: no {section} section in the rendering")
    tool = page[:-2]
    whatis = subprocess.run(["lexgrog", roff], capture_output=True, text=True).stdout
    if f'"{tool} - ' not in whatis:
        failures.append(f"{page}: lexgrog (whatis) finds no '{tool} - ...' NAME line: {whatis!r}")
    code = code_blocks(src)
    for c in code:
        if c not in lines:
            failures.append(f"{page}: code line not rendered verbatim: {c!r}")
    squashed = [squash(l) for l in lines]
    for item in list_items(src):
        if not any(re.match(r"(?:• |\d+\. )?" + re.escape(item), l) for l in squashed):
            failures.append(f"{page}: list item '{item} ...' does not start a line")
    for n, l in enumerate(lines):
        if l in code:
            continue
        for marker in ("```", "**", "<br>", "`"):
            if marker in l:
                failures.append(f"{page}: raw markdown {marker!r} in line {n + 1}: {l!r}")
        if re.match(r"#{1,6} |={3,}$", l):
            failures.append(f"{page}: raw markdown heading in line {n + 1}: {l!r}")
        if l.endswith("\u2010"):
            failures.append(f"{page}: a word hyphenated at the end of line {n + 1}: {l!r}")
    return text


pages = sorted(f[:-3] for f in os.listdir(src_dir) if f.endswith((".1.md", ".7.md")))
rendered = {}
for page in pages:
    src = open(os.path.join(src_dir, page + ".md"), encoding="utf-8").read()
    roff = os.path.join(build_dir, page)
    if not os.path.exists(roff):
        failures.append(f"{page}: not built ({roff})")
        continue
    rendered[page[:-2]] = check_page(page, src, roff)

if sample:
    with tempfile.TemporaryDirectory() as d:
        roff = os.path.join(d, "sample.1")
        subprocess.run([sys.executable, md2man, sample, roff], check=True)
        text = check_page("sample.1", open(sample, encoding="utf-8").read(), roff)
    got = [squash(l) for l in text.splitlines() if l.strip()]
    # What each construct must become, in this order (groff's justification squashed).
    want = [
        "sample - exercise every construct md2man converts",
        "sample [--opt <ARG>] <FILE>...", "sample --help",
        "A paragraph with bold, italic, also italic, code with * and \\ and -dash, a link",
        "(https://hbase.apache.org/book.html) and https://example.org/x, and a literal *star*.",
        "MAX_SEQ_ID_KEY stays as it is.",
        "• first bullet, wrapped onto a second line;",
        "• nested bullet one", "• nested bullet two", "with a second paragraph",
        "• second bullet with code:", "ls t1/*/cf/* | grep '\\x00'",
        "1. step one", "2. step two",
        "fenced *code* `kept` \\n as is", ".starts with a dot",
        "Codec Level Note", "ZSTD 1..22 --level", "GZ 1..9 default 1",
        "--term A definition, with --more.", "Its second paragraph.",
        "A subsection", "Text under it.",
    ]
    pos = 0
    for w in want:
        try:
            pos = got.index(w, pos) + 1
        except ValueError:
            failures.append(f"sample.1: no line {w!r} (after line {pos}) in: {got}")
            break
    # Nesting shows as indentation: the nested bullets sit deeper than the outer ones.
    indent = {l.strip(): len(l) - len(l.lstrip()) for l in text.splitlines() if l.strip()}
    outer = indent.get("•   first bullet, wrapped onto a second line;", 99)
    if not indent.get("•   nested bullet one", 0) > outer:
        failures.append("sample.1: the nested list is not indented under its item")

tools = sorted(t for t in os.listdir(bin_dir)
               if (t == "hfile" or t.startswith("hfile-")) and os.access(os.path.join(bin_dir, t),
                                                                          os.X_OK))
for tool in tools:
    if tool not in rendered:
        failures.append(f"{tool}: no man page man/{tool}.1.md")
        continue
    if tool != "hfile" and f"{tool}(1)" not in rendered.get("hfile", ""):
        failures.append(f"{tool}: hfile(1) does not name {tool}(1)")
    help_text = subprocess.run([os.path.join(bin_dir, tool), "--help"], capture_output=True,
                               text=True).stdout
    options = sorted(set(re.findall(r"(?<![\w-])(--[A-Za-z][\w-]*)", help_text)))
    if not options:
        failures.append(f"{tool}: --help printed no long option")
    for opt in options:
        if not re.search(r"(?<![\w-])" + re.escape(opt) + r"(?![\w-])", rendered[tool]):
            failures.append(f"{tool}: {opt} (from --help) is not in the rendered {tool}(1)")

print(f"rendered {len(rendered)} pages, checked the options of {len(tools)} tools")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
