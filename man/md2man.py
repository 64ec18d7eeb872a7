#!/usr/bin/env python3
"""Turns our man-page markdown (a small pandoc-like subset) into roff.

Subset: '% NAME(SECTION) source | manual' title line; '# HEADING'; paragraphs; definition
lists (a term line followed by lines starting with ':   '); indented code blocks (4 spaces);
inline `code` (bold) and *word* (italic).
"""
import re
import sys


def inline(text):
    text = text.replace("\\", "\\e")
    text = re.sub(r"`([^`]+)`", r"\\fB\1\\fR", text)
    text = re.sub(r"\*([^*]+)\*", r"\\fI\1\\fR", text)
    return text


def line(text):
    text = inline(text)
    return "\\&" + text if text.startswith((".", "'")) else text


def convert(src):
    out = []
    lines = src.splitlines()
    i = 0
    while i < len(lines):
        l = lines[i]
        if l.startswith("% "):
            m = re.match(r"% (\S+)\((\d)\)\s*(.*?)\s*\|\s*(.*)", l)
            name, sec, source, manual = m.groups()
            out.append(f'.TH "{name}" "{sec}" "" "{source}" "{manual}"')
        elif l.startswith("# "):
            out.append(".SH " + l[2:].strip().upper())
        elif l.startswith("    "):
            out.append(".IP\n.nf")
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                out.append(line(lines[i][4:]))
                i += 1
            out.append(".fi")
            continue
        elif not l.strip():
            pass
        elif i + 1 < len(lines) and lines[i + 1].startswith(":   "):
            out.append(".TP\n" + line(l))
            i += 1
            while i < len(lines) and (lines[i].startswith(":   ") or lines[i].startswith("    ") and False):
                out.append(line(lines[i][4:]))
                i += 1
            continue
        else:
            para = [l]
            while i + 1 < len(lines) and lines[i + 1].strip() and not lines[i + 1].startswith(("#", "    ")) \
                    and not (i + 2 < len(lines) and lines[i + 2].startswith(":   ")):
                i += 1
                para.append(lines[i])
            out.append(".PP")
            out.extend(line(p) for p in para)
        i += 1
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        result = convert(f.read())
    with open(sys.argv[2], "w") as f:
        f.write(result)
