#!/usr/bin/env python3
"""Turns the man pages' markdown into roff for man(1).

Why our own converter: pandoc would add ~170 MB to the build dependencies and ronn a Ruby
stack, for the few constructs these pages use. This one handles exactly those, and
tests/cli/check_man_render.py renders every page (and a sample of each construct) with man -l
to check it does.

Title, either dialect:
  % NAME(1) source | manual            (pandoc: then a '# NAME' section 'name - what')
  name(1) -- what it does              (ronn: a setext title; becomes the NAME section)
  =======
Blocks: ATX headings (the shallowest level used is .SH, deeper ones .SS); paragraphs (a line
ending in '<br>' or two spaces breaks the line); fenced (```) and indented (4 spaces) code
blocks, verbatim; bullet (* - +) and numbered (1.) lists, nested by indentation, whose items
may hold paragraphs, code blocks and lists; a bullet item that starts with `code`, whose first
line ends in ':' and that has more lines is an option entry (.TP, as ronn renders it);
definition lists (a term line, then ':   ' lines); pipe tables. Inline: `code` (bold,
verbatim), **bold**, *italic*, _italic_, <VAR> placeholders (italic, brackets kept),
[text](url), <url>, backslash escapes. tests/cli/md2man_sample.1.md has one of each.
"""
import re
import sys

BULLET = re.compile(r"^( *)([*+-]|\d+[.)]) +(.*)$")
FENCE = re.compile(r"^ *(```|~~~)")
HEADING = re.compile(r"^(#{1,6}) +(.*?)(?: +#+)? *$")
BREAK = "\x01"  # inline()'s mark for a line break, made a .br request by text_lines()
# No hyphenation: the pages are full of options, paths and HBase identifiers (MAX_SEQ_ID_KEY,
# hfile-compact) that a reader copies or searches for, and a hyphen inserted at a line end
# would break them.
NO_HYPHENATION = ".nh"
TABLE_RULE = re.compile(r"^ *\|? *:?-+:? *(\| *:?-+:? *)*\|? *$")


def roff_escape(text):
    """Makes literal text safe for roff: backslashes, hyphens (so they stay ASCII '-')."""
    return text.replace("\\", "\\e").replace("-", "\\-")


def line_start(text):
    """A roff line must not start with '.' or "'" (it would be read as a request)."""
    return "\\&" + text if text.startswith((".", "'")) else text


def inline(text):
    """Markdown inline markup -> roff font changes; code spans are taken first, verbatim."""
    out, i = [], 0
    # Tokens: code span, backslash escape, autolink, placeholder, link, bold, italic.
    token = re.compile(
        r"(?P<code>`+)(?P<codebody>[^`].*?)(?P=code)(?!`)"
        r"|\\(?P<esc>[!-/:-@\[-`{-~])"
        r"|<(?P<url>[a-z]+://[^>\s]+)>"
        r"|(?P<br><br\s*/?>)"
        r"|<(?P<var>[A-Za-z\[][^<>]*)>"
        r"|\[(?P<ltext>[^\]]+)\]\((?P<lurl>[^)\s]+)\)"
        r"|\*\*(?P<bold>\S(?:.*?\S)?)\*\*"
        r"|(?<![\w*])\*(?P<it>[^\s*](?:[^*]*[^\s*])?)\*(?![\w*])"
        r"|(?<![\w\\])_(?P<uit>[^\s_](?:[^_]*[^\s_])?)_(?!\w)")
    for m in token.finditer(text):
        out.append(roff_escape(text[i:m.start()]))
        i = m.end()
        if m.group("code"):
            body = m.group("codebody")
            if body.startswith(" ") and body.endswith(" ") and body.strip():
                body = body[1:-1]
            out.append("\\fB" + roff_escape(body) + "\\fR")
        elif m.group("esc"):
            out.append(roff_escape(m.group("esc")))
        elif m.group("url"):
            out.append("\\fI" + roff_escape(m.group("url")) + "\\fR")
        elif m.group("br"):
            out.append("\n" + BREAK + "\n")
        elif m.group("var"):
            out.append("\\fI<" + inline(m.group("var")) + ">\\fR")
        elif m.group("ltext"):
            out.append(inline(m.group("ltext")) + " (\\fI" + roff_escape(m.group("lurl")) + "\\fR)")
        elif m.group("bold"):
            out.append("\\fB" + inline(m.group("bold")) + "\\fR")
        elif m.group("it"):
            out.append("\\fI" + inline(m.group("it")) + "\\fR")
        else:
            out.append("\\fI" + inline(m.group("uit")) + "\\fR")
    out.append(roff_escape(text[i:]))
    return "".join(out)


def text_lines(lines):
    """Paragraph lines -> roff lines (filled): joined first, so that inline markup may span
    lines; '<br>' and a line ending in two spaces break the line."""
    text = " ".join(l.strip() + (" <br>" if l.endswith("  ") else "") for l in lines)
    out = [".br" if part.strip() == BREAK else line_start(part.strip())
           for part in inline(text).split("\n") if part.strip()]
    # A break at the very end of a paragraph breaks nothing.
    while out and out[-1] == ".br":
        out.pop()
    return out


def verbatim(lines):
    out = [".PP", ".RS 4", ".nf"]
    out += [line_start(roff_escape(l)) if l else "" for l in lines]
    out += [".fi", ".RE"]
    return out


def indent_of(l):
    return len(l) - len(l.lstrip(" "))


def table(rows):
    """A pipe table, laid out in columns (no tbl preprocessor needed)."""
    cells = [[c.strip() for c in r.strip().strip("|").split("|")] for r in rows]
    header, body = cells[0], cells[2:]
    plain = lambda c: re.sub(r"[`*]", "", c)
    n = max(len(r) for r in [header] + body)
    widths = [max(len(plain(r[k])) if k < len(r) else 0 for r in [header] + body) for k in range(n)]
    out = [".PP", ".RS 4", ".nf"]
    for j, r in enumerate([header] + body):
        parts = []
        for k in range(n):
            c = r[k] if k < len(r) else ""
            s = inline(c)
            if j == 0:
                s = "\\fB" + s + "\\fR"
            parts.append(s + " " * (widths[k] - len(plain(c)) + 2))
        out.append(line_start("".join(parts).rstrip()))
    out += [".fi", ".RE"]
    return out


class Converter:
    def __init__(self, src, source=None):
        self.source = source  # the footer's source, e.g. "hfilekit 0.1.0" (default: the page's)
        self.lines = src.expandtabs(4).splitlines()
        levels = [len(m.group(1)) for m in map(HEADING.match, self.lines) if m]
        self.top = min(levels) if levels else 1
        self.out = []

    def title(self):
        """Consumes the title line(s); returns the index of the first body line."""
        first = self.lines[0] if self.lines else ""
        m = re.match(r"% (\S+)\((\d)\)\s*(.*?)\s*\|\s*(.*)", first)
        if m:
            name, sec, source, manual = m.groups()
            self.out.append(f'.TH "{name}" "{sec}" "" "{self.source or source}" "{manual}"')
            self.out.append(NO_HYPHENATION)
            return 1
        m = re.match(r"(\S+)\((\d)\) +-- +(.*)$", first)
        if m and len(self.lines) > 1 and re.fullmatch(r"=+ *", self.lines[1]):
            name, sec, what = m.groups()
            self.out.append(f'.TH "{name.upper()}" "{sec}" "" "{self.source or "hfilekit"}" '
                            '"hfilekit manual"')
            self.out.append(NO_HYPHENATION)
            self.out += [".SH NAME", line_start(roff_escape(name) + " \\- " + inline(what))]
            return 2
        sys.exit("md2man: no title line ('% NAME(1) src | manual' or 'name(1) -- what' + '===')")

    def run(self):
        body = self.lines[self.title():]
        self.blocks(body, 0)
        return "\n".join(self.out) + "\n"

    def blocks(self, lines, base):
        """Converts `lines`, whose content starts at column `base` (list item content)."""
        i = 0
        while i < len(lines):
            l = lines[i]
            if not l.strip():
                i += 1
                continue
            ind = indent_of(l)
            if FENCE.match(l):
                fence = FENCE.match(l).group(1)
                j = i + 1
                while j < len(lines) and not lines[j].lstrip().startswith(fence):
                    j += 1
                self.out += verbatim([x[min(ind, indent_of(x)):] for x in lines[i + 1:j]])
                i = j + 1
            elif ind >= base + 4:
                j = i
                while j < len(lines) and (not lines[j].strip() or indent_of(lines[j]) >= base + 4):
                    j += 1
                code = [x[base + 4:] for x in lines[i:j]]
                while code and not code[-1].strip():
                    code.pop()
                self.out += verbatim(code)
                i = j
            elif HEADING.match(l) and ind == 0:
                level, text = HEADING.match(l).groups()
                self.out.append((".SH " if len(level) == self.top else ".SS ") +
                                inline(text.upper() if len(level) == self.top else text))
                i += 1
            elif BULLET.match(l):
                i = self.list(lines, i)
            elif l.startswith("|") and i + 1 < len(lines) and TABLE_RULE.match(lines[i + 1]):
                j = i
                while j < len(lines) and lines[j].lstrip().startswith("|"):
                    j += 1
                self.out += table(lines[i:j])
                i = j
            elif i + 1 < len(lines) and lines[i + 1].lstrip().startswith(":   "):
                i = self.definition(lines, i)
            else:
                j = i + 1
                while j < len(lines) and lines[j].strip() and not self.starts_block(lines, j):
                    j += 1
                self.out.append(".PP")
                self.out += text_lines(lines[i:j])
                i = j

    def starts_block(self, lines, j):
        l = lines[j]
        return bool(FENCE.match(l) or HEADING.match(l) or BULLET.match(l) or
                    (j + 1 < len(lines) and lines[j + 1].lstrip().startswith(":   ")))

    def item_end(self, lines, i, content_col):
        """The end of a list item or definition whose content is indented to content_col."""
        j = i + 1
        while j < len(lines):
            l = lines[j]
            if l.strip():
                if indent_of(l) < content_col:
                    # A lazy continuation line of the item's first paragraph.
                    if lines[j - 1].strip() and not self.starts_block(lines, j) and \
                            not l.lstrip().startswith(":   "):
                        j += 1
                        continue
                    break
            j += 1
        while j > i + 1 and not lines[j - 1].strip():
            j -= 1
        return j

    def list(self, lines, i):
        ind = indent_of(lines[i])
        numbered = BULLET.match(lines[i]).group(2)[0].isdigit()
        n = 0
        while i < len(lines):
            if not lines[i].strip():
                # Blank lines between the items of one list.
                nxt = i + 1
                while nxt < len(lines) and not lines[nxt].strip():
                    nxt += 1
                if nxt < len(lines) and BULLET.match(lines[nxt]) and indent_of(lines[nxt]) == ind:
                    i = nxt
                    continue
                break
            m = BULLET.match(lines[i])
            if not m or indent_of(lines[i]) != ind or m.group(2)[0].isdigit() != numbered:
                break
            n += 1
            col = len(lines[i]) - len(m.group(3))  # where the item's text starts
            end = self.item_end(lines, i, col)
            first, rest = m.group(3), lines[i + 1:end]
            if not numbered and first.startswith("`") and first.rstrip().endswith(":") and \
                    any(x.strip() for x in rest):
                self.out += [".TP", line_start(inline(first.rstrip()[:-1]))]
                self.item_body([], rest, col)
            else:
                self.out.append(".IP " + (f"{n}." if numbered else "\\(bu") + " 4")
                self.item_body([first], rest, col)
            i = end
        return i

    def item_body(self, first, rest, col):
        """An item's content: its first paragraph, then blocks indented to `col`, which go in
        an .RS block so that they (nested lists, code) indent under the item's text."""
        para, k = list(first), 0
        while k < len(rest) and rest[k].strip() and not (
                BULLET.match(rest[k]) or FENCE.match(rest[k]) or indent_of(rest[k]) >= col + 4):
            para.append(rest[k])
            k += 1
        self.out += text_lines(para)
        if any(x.strip() for x in rest[k:]):
            self.out.append(".RS")
            self.blocks(rest[k:], col)
            self.out.append(".RE")

    def definition(self, lines, i):
        self.out += [".TP", line_start(inline(lines[i].strip()))]
        j = i + 1
        while j < len(lines) and lines[j].lstrip().startswith(":   "):
            col = indent_of(lines[j]) + 4
            end = self.item_end(lines, j, col)
            self.item_body([lines[j][col:]], lines[j + 1:end], col)
            j = end
            # Another ':   ' paragraph of the same term, after a blank line.
            while j + 1 < len(lines) and not lines[j].strip() and \
                    lines[j + 1].lstrip().startswith(":   "):
                j += 1
        return j


def convert(src, source=None):
    return Converter(src, source).run()


if __name__ == "__main__":
    # md2man.py IN.md OUT.1 [SOURCE]
    with open(sys.argv[1], encoding="utf-8") as f:
        result = convert(f.read(), sys.argv[3] if len(sys.argv) > 3 else None)
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        f.write(result)
