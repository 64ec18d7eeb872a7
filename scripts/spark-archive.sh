#!/usr/bin/env bash
# Packs what a Spark task needs to run hfilekit units into one archive for
#   spark-submit --archives hfilekit.tgz#hfilekit spark/hfile_spark.py -- ...
# bin/hfile-task (it runs every tool in process) and bin/hfile, and under lib/ the shared
# libraries they load that are not the C library's own (libhfile, libregion, the codecs,
# protobuf, curl, libstdc++ ...), so that executors need no hfilekit install; the driver sets
# LD_LIBRARY_PATH to lib/. The executors' glibc must be at least the build machine's.
# Usage: scripts/spark-archive.sh BUILD_DIR OUT.tgz
set -euo pipefail
build=${1:?usage: spark-archive.sh BUILD_DIR OUT.tgz}
out=${2:?usage: spark-archive.sh BUILD_DIR OUT.tgz}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib"
for b in hfile hfile-task; do
  [[ -x $build/bin/$b ]] || { echo "spark-archive: $build/bin/$b is missing: build first" >&2; exit 3; }
  cp "$build/bin/$b" "$stage/bin/"
done
# Every resolved library but glibc's (libc, libm, libpthread, libdl, librt, the loader): those
# must come from the executor's system, as the kernel interface does.
ldd "$build/bin/hfile-task" "$build/bin/hfile" | awk '/=> \//{print $3}' | sort -u |
  while read -r lib; do
    case "$(basename "$lib")" in
      libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*|libresolv.so*) continue ;;
    esac
    cp -L "$lib" "$stage/lib/"
  done
tar -C "$stage" -czf "$out" bin lib
echo "spark-archive: $out ($(du -h "$out" | cut -f1), $(ls "$stage/lib" | wc -l) libraries)"
