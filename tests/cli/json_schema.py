"""The machine-readable schema of hfile-json(7): every record kind of every tool, with its fields
and their types. check_json_schema.py validates every tool's JSON output against it.

Types: "str", "bool", "int" (an integer: a JSON number when its magnitude is at most 2^53 - 1,
else a JSON string of its decimal digits), "num" (any JSON number), "list", "obj", a nested
schema (a dict: an object with exactly those fields), ["list", T] (a list of T), or "T|null".
A field name ending in "?" may be absent (for instance `table` and `region` when a file was not
read through a table).
"""

VERSION = 1
MAX_SAFE = (1 << 53) - 1

# Every record starts with these two (the schema version is on every record, nested ones too).
_HEAD = {"kind": "str", "v": "int"}
# Where a dump record comes from: the file, and the table and region when read through one.
_WHERE = {"path": "str", "table?": "str", "region?": "str"}

VERIFY_PROBLEM = {"severity": "str", "offset": "int", "block": "str", "code": "str", "what": "str"}
LAYOUT_PROBLEM = {"severity": "str", "region": "str", "family": "str", "file": "str",
                  "code": "str", "what": "str", "finding?": "str"}
VERIFY_FILE = dict(_HEAD, path="str", clean="bool", opened="bool", error="str", error_code="str",
                   blocks="int", data_blocks="int", cells="int", error_count="int",
                   warning_count="int", problems=["list", VERIFY_PROBLEM])
VERIFY_SET = dict(_HEAD, **{"path": "str", "table": "str|null", "clean": "bool", "errors": "int",
                  "warnings": "int", "regions": "int", "store_files": "int",
                  "files": ["list", VERIFY_FILE], "problems": ["list", LAYOUT_PROBLEM],
                  "meta?": {"path": "str", "regions": "int", "wal_files": ["list", "str"]}})
LAYOUT = dict(_HEAD, **{"path": "str", "table": "str|null", "descriptor?": "obj",
              "snapshot?": "obj", "store_files": "int", "bytes": "int", "cells": "int",
              "regions": "list", "problems": ["list", LAYOUT_PROBLEM]})
# A per-file tool's input it could not process; `code`: the verify code of a refused damaged
# input, else null.
INPUT_ERROR = dict(_HEAD, path="str", input="str", error="str", code="str|null")
# A job planned with --emit-units (compact, alter, copy-family, split), and the files a task
# added or removed (hfile-task).
# The fields but path, tool, error and code are absent when the planning failed.
UNITS = dict(_HEAD, **{"path": "str", "tool": "str", "table?": "str", "job?": "str",
                       "job_dir?": "str", "units_file?": "str", "units?": "int", "bytes?": "int",
                       "reused?": "bool", "already_committed?": "bool",
                       "skipped?": ["list", "str"], "error": "str|null", "code": "str|null"})
TASK_CHANGE = {"path": "str", "from": "str", "dir": "bool", "size": "int", "archived": "bool"}
IO_STATS = {f: "int" for f in (
    "files", "files_opened", "files_skipped_range", "files_skipped_bloom", "files_read",
    "data_blocks", "data_bytes", "index_blocks", "index_bytes", "bloom_blocks", "bloom_bytes",
    "meta_blocks", "meta_bytes", "other_blocks", "other_bytes", "open_blocks", "open_bytes",
    "read_calls", "bytes_read", "seeks", "cache_hits")}

SCHEMA = {
    ("hfile-dump", "cell"): dict(_HEAD, **_WHERE, **{
        # Keyed files: row, family, qualifier, timestamp, type; raw-byte comparators: key.
        "key?": "str", "row?": "str", "family?": "str", "qualifier?": "str", "timestamp?": "int",
        "type?": "str",
        # -p: value and tags; -e (keys only): vlen.
        "value?": "str", "tags?": ["list", {"type": "int", "value": "str"}], "vlen?": "int",
        "seqid": "int"}),
    ("hfile-dump", "trailer"): dict(_HEAD, **_WHERE, **{
        f: "int" for f in ("major", "minor", "entry_count", "data_index_count",
                           "meta_index_count", "num_data_index_levels",
                           "first_data_block_offset", "last_data_block_offset",
                           "file_info_offset", "load_on_open_data_offset",
                           "uncompressed_data_index_size", "total_uncompressed_bytes")},
        compression="str", comparator="str"),
    ("hfile-dump", "fileinfo"): dict(_HEAD, **_WHERE, key="str", value="str", decoded="str"),
    ("hfile-dump", "midkey"): dict(_HEAD, **_WHERE, key="str"),
    ("hfile-dump", "bloom_meta"): dict(_HEAD, **_WHERE, filter="str", total_byte_size="int",
                                       key_count="int", max_keys="int", chunks="int",
                                       hash_count="int", hash_type="int", comparator="str"),
    ("hfile-dump", "index_entry"): dict(_HEAD, **_WHERE, index="str", level="int", entry="int",
                                        offset="int", on_disk_size="int", key="str",
                                        row="str|null", family="str|null",
                                        qualifier="str|null", timestamp="int|null",
                                        type="str|null"),
    ("hfile-dump", "block"): dict(_HEAD, **_WHERE, offset="int", type="str",
                                  on_disk_size_with_header="int",
                                  uncompressed_size_without_header="int",
                                  prev_block_offset="int", checksum_type="str",
                                  bytes_per_checksum="int", on_disk_data_size_with_header="int"),
    ("hfile-dump", "stats"): dict(_HEAD, **_WHERE, metric="str", count="int", min="int",
                                  max="int", mean="num", p50="int", p95="int", p99="int",
                                  buckets=["list", {"low": "int", "high": "int",
                                                    "count": "int"}]),
    ("hfile-dump", "largest_row"): dict(_HEAD, **_WHERE, bytes="int", row="str"),
    ("hfile-dump", "table"): LAYOUT,
    ("hfile-dump", "region"): dict(_HEAD, **_WHERE, encoded_name="str"),
    ("hfile-dump", "io_stats"): dict(_HEAD, table="str", region="str", family="str", **IO_STATS),
    ("hfile-dump", "io_stats_total"): dict(_HEAD, stores="int", **IO_STATS),
    ("hfile-dump", "locate_region"): dict(_HEAD, **_WHERE, row="str", region_name="str",
                                          start_key="str", end_key="str"),
    ("hfile-dump", "locate_file"): dict(_HEAD, **_WHERE, family="str", file="str",
                                        reference="bool", first_row="str", last_row="str",
                                        in_key_range="bool", bloom_type="str", bloom="str",
                                        read="bool",
                                        blocks=["list", {"offset": "int", "on_disk_size": "int"}],
                                        cells="int"),
    ("hfile-verify", "file"): VERIFY_FILE,
    ("hfile-verify", "table"): VERIFY_SET,
    ("hfile-rewrite", "rewrite"): dict(_HEAD, path="str", input="str", output="str", cells="int",
                                       meta_blocks="int", input_bytes="int", output_bytes="int",
                                       data_blocks="int", compression="str", encoding="str",
                                       bloom="str", block_size="int", checksum="str",
                                       write_seconds="num", verify_seconds="num",
                                       verified="bool"),
    ("hfile-rewrite", "compare"): dict(_HEAD, path="str", input="str", compression="str",
                                       level="int|null", encoding="str", block_size="int",
                                       size="int", ratio="num", write_mb_s="num",
                                       read_mb_s="num"),
    ("hfile-rewrite", "error"): INPUT_ERROR,
    ("hfile-split", "file"): dict(_HEAD, path="str", input="str", cells="int", outputs="list"),
    ("hfile-split", "error"): INPUT_ERROR,
    ("hfile-split", "region"): dict(_HEAD, **{
        "path": "str", "dry_run": "bool", "region": "str", "compact_first": "bool",
        "compact_stores": "list", "split_row": "str|null", "split_rows": "list",
        "explicit_row": "bool", "quantile_family": "str|null", "daughters": "list",
        "daughter_a": "str|null", "daughter_b": "str|null", "region_id": "int",
        "families": "list", "refused": "list", "compacted": "list", "committed": "bool",
        "error": "str|null", "code": "str|null", "files": "list", "recovered": "list",
        "seconds": "num"}),
    ("hfile-describe", "describe"): dict(_HEAD, table="str", table_dir="str|null",
                                         descriptor_path="str|null", state="str|null",
                                         table_line="str", table_values="obj", families="list",
                                         shell="str", layout="obj"),
    ("hfile-describe", "table"): LAYOUT,
    ("hfile-advise", "advise"): dict(_HEAD, table="str", table_dir="str", now_ms="int",
                                     regions="list", sampling="list", families="list",
                                     findings="list"),
    ("hfile-compact", "compact"): dict(_HEAD, path="str", table="str|null", dry_run="bool",
                                       files="int", cells_in="int", cells_out="int",
                                       bytes_in="int", bytes_out="int", seconds="num",
                                       refused="list", recovered="list", stores="list"),
    ("hfile-compact", "store"): dict(_HEAD, **{
        "path": "str", "table": "str|null", "region": "str", "family": "str",
        "skipped": "str|null", "all_files": "bool", "major": "bool", "inputs": "list",
        "expired": "list", "output": "str|null", "cells_in": "int", "cells_out": "int",
        "dropped": "obj", "zeroed_sequence_ids": "int", "bytes_in": "int", "bytes_out": "int",
        "archived": "int", "deleted": "int", "out_of_range": "int", "committed": "bool",
        "error": "str|null", "code": "str|null", "seconds": "num"}),
    ("hfile-alter", "alter"): dict(_HEAD, **{
        "path": "str", "table": "str", "table_dir": "str", "dry_run": "bool", "ok": "bool",
        "error": "str|null", "code": "str|null", "descriptor": "str", "families": "list",
        "rewritten_stores": "int", "committed_stores": "int", "bytes_in": "int",
        "bytes_out": "int", "cells_in": "int", "cells_out": "int", "refused": "int",
        "seconds": "num"}),
    ("hfile-copy-family", "copy-family"): dict(_HEAD, **{
        "path": "str", "table": "str", "table_dir": "str", "from": "str", "to": "str",
        "dry_run": "bool", "ok": "bool", "error": "str|null", "code": "str|null",
        "descriptor": "str", "files": "list", "files_in": "int", "files_out": "int",
        "cells": "int", "bytes_in": "int", "bytes_out": "int", "verified": "bool", "family_bytes_saved": "int",
        "dropped": "bool", "refused": "int", "seconds": "num", "estimated_seconds": "num|null"}),
    ("hfile-task", "task-result"): dict(_HEAD, **{
        "path": "str", "attempt": "str", "status": "str", "error": "str|null",
        "code": "str|null", "job?": "str", "unit?": "str", "added?": ["list", TASK_CHANGE],
        "removed?": ["list", TASK_CHANGE], "tool_exit?": "int", "tool_output?": "str",
        "seconds?": "num", "bytes_in?": "int", "bytes_out?": "int",
        "parts?": ["list", TASK_CHANGE]}),
    ("hfile-task", "task-commit"): dict(_HEAD, **{
        "path": "str", "job": "str", "table": "str", "dry_run": "bool", "units": "int",
        "attempts": "int", "missing": ["list", "str"], "problems": ["list", "str"],
        "puts": "int", "archives": "int", "deletes": "int", "bytes_added": "int",
        "bytes_removed": "int", "recovered": ["list", "str"], "already_committed": "bool",
        "committed": "bool", "error": "str|null", "code": "str|null"}),
    ("hfile-compact", "units"): UNITS,
    ("hfile-alter", "units"): UNITS,
    ("hfile-copy-family", "units"): UNITS,
    ("hfile-split", "units"): UNITS,
    ("hfile-create", "create"): dict(_HEAD, **{
        "table": "str", "table_dir": "str|null", "dry_run": "bool", "ok": "bool",
        "error": "str|null", "root_initialised": "bool", "namespace_created": "bool",
        "finished_interrupted": "bool", "descriptor?": "str", "table_values?": "obj",
        "families?": "list", "regions?": "list"}),
    ("hfile-bulkload", "units"): UNITS,
    ("hfile-bulkload", "bulkload-partition"): dict(_HEAD, **{
        "path": "str", "table": "str", "ok": "bool", "error": "str|null", "code": "str|null",
        "lines": "int", "records": "int", "bad_lines": "int", "bad_by_reason": "obj",
        "records_written": "int", "parts": ["list", {"region": "str", "bytes": "int"}],
        "seconds": "num"}),
    ("hfile-bulkload", "bulkload"): dict(_HEAD, **{
        "path": "str", "table": "str", "out": "str|null", "into": "bool", "dry_run": "bool",
        "ok": "bool", "error": "str|null", "code": "str|null", "regions": "list",
        "split_rows": "list",
        "lines": "int", "records": "int", "bad_lines": "int", "bad_by_reason": "obj",
        "cells": "int", "duplicates_dropped": "int", "cells_written": "int", "files": "list",
        "bytes": "int", "completed_by_recovery": "bool", "sort": "obj", "seconds": "num"}),
}


def all_kinds():
    return list(SCHEMA)


def _type_ok(t, v, where, problems):
    if isinstance(t, str) and t.endswith("|null"):
        if v is None:
            return
        t = t[:-5]
    if isinstance(t, dict):
        if not isinstance(v, dict):
            problems.append(f"{where}: {json_type(v)}, expected an object")
        else:
            _fields_ok(t, v, where, problems)
        return
    if isinstance(t, list):
        if not isinstance(v, list):
            problems.append(f"{where}: {json_type(v)}, expected a list")
            return
        for i, item in enumerate(v):
            _type_ok(t[1], item, f"{where}[{i}]", problems)
        return
    if t == "int":
        if isinstance(v, bool) or not (isinstance(v, int) or isinstance(v, str)):
            problems.append(f"{where}: {json_type(v)}, expected an integer")
        elif isinstance(v, int) and abs(v) > MAX_SAFE:
            problems.append(f"{where}: {v} is a number beyond 2^53 - 1 (must be a string)")
        elif isinstance(v, str):
            digits = v[1:] if v.startswith("-") else v
            if not digits.isdigit() or abs(int(v)) <= MAX_SAFE:
                problems.append(f"{where}: string {v!r} where an integer up to 2^53 - 1 is a number")
        return
    ok = {"str": lambda: isinstance(v, str),
          "bool": lambda: isinstance(v, bool),
          "num": lambda: isinstance(v, (int, float)) and not isinstance(v, bool),
          "list": lambda: isinstance(v, list),
          "obj": lambda: isinstance(v, dict)}.get(t)
    if ok is None:
        problems.append(f"{where}: schema type {t!r} unknown")
    elif not ok():
        problems.append(f"{where}: {json_type(v)}, expected {t}")


def _fields_ok(fields, rec, where, problems):
    names = {f.rstrip("?") for f in fields}
    for f, t in fields.items():
        name = f.rstrip("?")
        if name not in rec:
            if not f.endswith("?"):
                problems.append(f"{where}: field {name!r} missing")
            continue
        _type_ok(t, rec[name], f"{where}.{name}", problems)
    for name in rec:
        if name not in names:
            problems.append(f"{where}: field {name!r} is not in the schema")


def json_type(v):
    return {dict: "object", list: "list", str: "string", bool: "bool", int: "integer",
            float: "number", type(None): "null"}[type(v)]


def _record(tool, rec, where, seen, discover, problems):
    kind = rec.get("kind")
    key = (tool, kind)
    if discover:
        fields = seen.setdefault(key, {})
        for f, v in rec.items():
            fields.setdefault(f, set()).add(json_type(v))
        for v in rec.values():
            for item in v if isinstance(v, list) else [v]:
                if isinstance(item, dict) and "kind" in item and "v" in item:
                    _record(tool, item, where, seen, discover, problems)
        return
    seen.setdefault(key, {})
    # Nested records (verify's files, describe's layout, compact's stores) are records too.
    for name, v in rec.items():
        for i, item in enumerate(v if isinstance(v, list) else [v]):
            if isinstance(item, dict) and "kind" in item and "v" in item:
                _record(tool, item, f"{where}{kind}.{name}[{i}].", seen, discover, problems)
    if key not in SCHEMA:
        problems.append(f"{where}: unknown record kind {kind!r} of {tool}")
        return
    if rec.get("v") != VERSION:
        problems.append(f"{where}: schema version {rec.get('v')!r}, expected {VERSION}")
    _fields_ok(SCHEMA[key], rec, f"{where}{kind}", problems)


def check(tool, rec, seen, discover=False):
    """The problems of one top-level record of `tool` (a list of strings; empty when it fits)."""
    problems = []
    _record(tool, rec, "", seen, discover, problems)
    return problems
