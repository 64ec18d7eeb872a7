#!/usr/bin/env bash
# Builds the Debian package from an already built tree (cpack -G DEB; nothing is recompiled),
# installs it with dpkg -i and checks the installed kit as a user gets it: hfile --version,
# hfile verify on a sample, man -w hfile-dump, whatis for every page, the bash completion, and
# a program built against the installed CMake package (find_package(hfilekit),
# hfilekit::hfile) that reads a sample HFile.
# Usage: scripts/check-deb.sh [BUILD_DIR]     (default: build; needs root or sudo for dpkg)
# The package is removed again at the end, unless it was installed before the run.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
build=$(realpath "${1:-build}")
SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO=sudo
work=$(mktemp -d)
was_installed=0
dpkg-query -W -f='${Status}' hfilekit 2>/dev/null | grep -q "install ok installed" &&
  was_installed=1
installed=0
cleanup() {
  if ((installed && !was_installed)); then
    $SUDO dpkg -P hfilekit >/dev/null || true
    # The trigger's incremental mandb keeps the removed pages' whatis entries; -q rebuilds.
    [[ -e /var/lib/man-db/auto-update ]] && { $SUDO mandb -q || true; }
  fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "check-deb: FAIL: $*" >&2; exit 1; }

(cd "$build" && cpack -G DEB -B "$work/pkg" >"$work/cpack.log" 2>&1) ||
  { cat "$work/cpack.log"; fail "cpack"; }
deb=$(ls "$work"/pkg/hfilekit_*.deb)
echo "check-deb: built $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"
contents=$(dpkg-deb -c "$deb")
for f in usr/bin/hfile usr/bin/hfile-dump usr/lib/libhfile.so.0 usr/include/hfile/reader.h \
         usr/share/man/man1/hfile-dump.1.gz usr/share/bash-completion/completions/hfile \
         usr/lib/cmake/hfilekit/hfilekitConfig.cmake; do
  grep -q " \./$f\( \|$\)" <<<"$contents" || fail "the package lacks /$f"
done
dpkg-deb -f "$deb" Depends | grep -q libzstd ||
  fail "no shared-library dependencies (dpkg-shlibdeps)"
dpkg-deb -f "$deb" Depends | grep -q libcurl4 || fail "no libcurl4 dependency (WebHDFS)"

$SUDO dpkg -i "$deb" >/dev/null
installed=1
version=$(/usr/bin/hfile --version)
[[ $version =~ ^hfile\ \(hfilekit\)\ [0-9.]+$ ]] || fail "hfile --version printed '$version'"
sample=testdata/hbase/gz-fast_diff-row-crc32c-tags
# The front end runs the installed tool, which loads the installed libraries and codecs.
/usr/bin/hfile verify -q "$sample.hfile" >/dev/null || fail "hfile verify $sample.hfile (installed)"
[[ $(man -w hfile-dump) == /usr/share/man/man1/hfile-dump.1* ]] ||
  fail "man -w hfile-dump: $(man -w hfile-dump 2>&1)"
# whatis reads man-db's index, which dpkg's man-db trigger updates (unless auto-update is off).
if [[ -e /var/lib/man-db/auto-update ]]; then
  for page in $(grep -o 'usr/share/man/man1/[^ ]*\.1\.gz' <<<"$contents"); do
    name=$(basename "$page" .1.gz)
    whatis "$name" | grep -q "^$name (1) *- " || fail "whatis $name: $(whatis "$name" 2>&1)"
  done
fi
reply=$(bash --norc -c 'source /usr/share/bash-completion/completions/hfile-dump &&
  COMP_WORDS=(hfile du) COMP_CWORD=1 && _hfile && echo "${COMPREPLY[*]}"')
[[ $reply == dump ]] || fail "the installed completion offered '$reply' for 'hfile du'"

# A user's program: find_package(hfilekit), link hfilekit::hfile, read every cell of a file.
mkdir -p "$work/consumer"
cat >"$work/consumer/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(consumer CXX)
find_package(hfilekit 0.1 REQUIRED)
add_executable(count_cells count_cells.cc)
target_link_libraries(count_cells PRIVATE hfilekit::hfile)
CMAKE
cat >"$work/consumer/count_cells.cc" <<'CC'
#include <iostream>

#include "hfile/reader.h"

int main(int argc, char** argv) {
  auto reader = hfile::Reader::Open(argv[1]);
  if (!reader.ok()) {
    std::cerr << reader.status().ToString() << "\n";
    return 1;
  }
  auto it = reader.value()->NewIterator();
  uint64_t cells = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++cells;
  if (!it->status().ok()) {
    std::cerr << it->status().ToString() << "\n";
    return 1;
  }
  std::cout << cells << " " << reader.value()->trailer().entry_count << "\n";
  return 0;
}
CC
cmake -S "$work/consumer" -B "$work/consumer/build" -G Ninja >"$work/consumer.log" 2>&1 &&
  ninja -C "$work/consumer/build" >>"$work/consumer.log" 2>&1 ||
  { cat "$work/consumer.log"; fail "building against the installed package"; }
# HBase's own reading of the file (the harness's record) gives the expected count.
want=$(grep -o '"entry_count":[0-9]*' "$sample.hbase.jsonl" | head -1 | cut -d: -f2)
got=$("$work/consumer/build/count_cells" "$sample.hfile")
[[ $got == "$want $want" ]] || fail "count_cells read '$got' cells/entries, HBase has $want"
echo "check-deb: ok: $version, verify, man -w, whatis, completion;" \
  "find_package(hfilekit) program read $want cells"
