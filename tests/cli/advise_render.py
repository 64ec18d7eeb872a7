#!/usr/bin/env python3
"""Renders hfile-advise's --html page in headless Chromium (Debian's `chromium`) and checks what
the browser shows: the DOM it built holds the findings table and the three SVG figures with their
bars, and the screenshot is a real picture (not blank). Skips loudly (exit 77) when chromium or
the shared corpus is absent.

usage: advise_render.py BIN_DIR SHARED_DIR
"""
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

SKIP = 77


def skip(why):
    print(f"SKIPPED LOUDLY: {why}; the HTML page was NOT rendered in a browser")
    sys.exit(SKIP)


def png_pixels(path):
    """(width, height, distinct colours) of an 8-bit RGB/RGBA PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, height, ctype = 8, b"", 0, 0, 0
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "big")
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height = int.from_bytes(body[:4], "big"), int.from_bytes(body[4:8], "big")
            assert body[8] == 8, "bit depth"
            ctype = body[9]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = {2: 3, 6: 4}[ctype]
    raw = zlib.decompress(idat)
    stride = width * bpp
    colours, prev = set(), bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, bpp):
            colours.add(bytes(line[x:x + 3]))
        prev = line
    return width, height, colours


def main():
    bin_dir, shared = sys.argv[1], sys.argv[2]
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        skip("chromium is not installed (apt-get install chromium)")
    root_src = os.path.join(shared, "testdata/real/hbase-2.2.3-rootdir")
    if not os.path.isdir(root_src):
        skip("../shared/testdata/real is absent")
    tmp = tempfile.mkdtemp(prefix="advise-render-")
    try:
        root = os.path.join(tmp, "root")
        shutil.copytree(root_src, root, ignore=shutil.ignore_patterns("WALs"))
        page = os.path.join(tmp, "page.html")
        subprocess.run([os.path.join(bin_dir, "hfile-advise"), "-q", "--html", page, root,
                        "hbase:meta"], check=True, stdout=subprocess.DEVNULL)
        flags = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 f"--user-data-dir={tmp}/profile"]
        dom = subprocess.run(flags + ["--dump-dom", "file://" + page], capture_output=True,
                             text=True, timeout=120)
        assert dom.returncode == 0, dom.stderr
        text = dom.stdout
        for needle in ('id="findings"', 'id="bytes-per-region"', 'id="files-per-region"',
                       'id="cell-sizes"', 'data-code="versions-without-ttl"'):
            assert needle in text, f"the rendered DOM lacks {needle}"
        # The browser's DOM of the figures: one bar per family per region (4 families, 1 region).
        bars = text.count('class="bar"')
        page_bars = sum(1 for e in ET.parse(page).getroot().iter("{http://www.w3.org/2000/svg}rect")
                        if e.get("class") == "bar")
        assert bars == page_bars and bars > 0, (bars, page_bars)
        shot = os.path.join(tmp, "shot.png")
        r = subprocess.run(flags + ["--window-size=1200,1800", f"--screenshot={shot}",
                                    "file://" + page], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0 and os.path.exists(shot), r.stderr
        w, h, colours = png_pixels(shot)
        assert (w, h) == (1200, 1800), (w, h)
        # Text, table borders and the bars' colours: a blank or failed render has one or two.
        assert len(colours) > 8, f"only {len(colours)} colours: nothing was drawn"
        # The first family's bar colour (#4e79a7): the SVG figures were painted, not just parsed.
        assert bytes([0x4E, 0x79, 0xA7]) in colours, "no bar of the first family on screen"
        print(f"rendered: {bars} bars in the DOM, {len(colours)} colours in a {w}x{h} screenshot")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
