#!/usr/bin/env python3
"""Compares `hfile dump --hpp MODE FILE` with HBase's HFilePrettyPrinter output (harness `hpp`).

usage: check_hpp.py HBASE_OUT_DIR OURS_OUT_DIR MODE... -- NAME...

For every NAME and MODE, HBASE_OUT_DIR/NAME.MODE.{out,err,rc} (from the harness) and
OURS_OUT_DIR/NAME.MODE.{out,err,rc} must agree: stdout byte for byte (stderr too for mode `a`,
whose warnings go there), and both succeed or both fail. Two things are masked, on both sides,
because HBase itself does not reproduce them from one run to the next:
  - the identity hash code in `-h`'s `cellComparator=...InnerStoreCellComparator@1a2b3c`;
  - in `-s`/`-d`, the mean, stddev, median and percentiles of a histogram over more than 1028
    values: HBase's UniformReservoir then keeps a random sample of 1028 (min, max, count, the
    range counts and the biggest row stay exact and are compared).
"""
import re
import sys

RESERVOIR = 1028
HASH = re.compile(rb"(InnerStoreCellComparator)@[0-9a-f]+\]")
SAMPLED = re.compile(rb"^ +(mean|stddev|median|75%|95%|98%|99%|99\.9%) ")


def mask(data, masked):
    data = HASH.sub(rb"\1@<hash>]", data)
    lines = data.split(b"\n")
    # A histogram block runs from "   Name:" to its "count = N" line.
    start = None
    for i, line in enumerate(lines):
        if re.match(rb"^   \S.*:$", line):
            start = i
        m = re.match(rb"^ +count = (\d+)$", line)
        if m and start is not None:
            if int(m.group(1)) > RESERVOIR:
                for j in range(start, i):
                    if SAMPLED.match(lines[j]):
                        lines[j] = re.sub(rb"(=|<=) .*$", rb"\1 <sampled>", lines[j])
                        masked[0] += 1
            start = None
    return b"\n".join(lines)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def main(argv):
    sep = argv.index("--")
    hbase_dir, ours_dir = argv[1], argv[2]
    modes, names = argv[3:sep], argv[sep + 1:]
    failures, compared, bad, masked = [], 0, 0, [0]
    for name in names:
        for mode in modes:
            base = f"{name}.{mode}"
            h_rc = int(read(f"{hbase_dir}/{base}.rc"))
            o_rc = int(read(f"{ours_dir}/{base}.rc"))
            before = len(failures)
            streams = ["out", "err"] if mode == "a" else ["out"]
            for stream in streams:
                h = mask(read(f"{hbase_dir}/{base}.{stream}"), masked)
                o = mask(read(f"{ours_dir}/{base}.{stream}"), masked)
                if h != o:
                    hl, ol = h.split(b"\n"), o.split(b"\n")
                    n = next((i for i in range(max(len(hl), len(ol)))
                              if i >= len(hl) or i >= len(ol) or hl[i] != ol[i]), 0)
                    failures.append(
                        f"{base}.{stream}: differs at line {n + 1}\n"
                        f"  HBase: {hl[n] if n < len(hl) else '<end>'!r}\n"
                        f"  ours:  {ol[n] if n < len(ol) else '<end>'!r}")
            if (h_rc == 0) != (o_rc == 0):
                failures.append(f"{base}: HBase exit {h_rc}, ours {o_rc}")
            compared += 1
            bad += len(failures) > before
    for f in failures:
        print("FAIL " + f)
    print(f"check_hpp: {compared - bad}/{compared} (file, mode) pairs identical; "
          f"{masked[0]} sampled histogram lines masked (histograms over > {RESERVOIR} values)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
