#!/usr/bin/env bash
# Installs what hfilekit needs from Debian's packages (only what is missing).
# Usage: scripts/install-deps.sh [--java] [--bench]
#   --java   adds the JDK and Maven for the HBase suite
#   --bench  adds the peers of scripts/bench.sh: RocksDB (library + sst_dump), the JDK and Maven;
#            the chart needs matplotlib (pip install matplotlib)
set -euo pipefail
pkgs=(cmake ninja-build g++ pkg-config python3
      libcli11-dev libfmt-dev libzstd-dev libsnappy-dev liblz4-dev zlib1g-dev libbz2-dev
      liblzo2-dev liblzma-dev libbrotli-dev libboost-iostreams-dev
      libprotobuf-dev protobuf-compiler libisal-dev libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev
      clang libclang-rt-14-dev man-db)
for arg in "$@"; do
  case "$arg" in
    --java) pkgs+=(default-jdk-headless maven) ;;
    --bench) pkgs+=(default-jdk-headless maven librocksdb-dev rocksdb-tools) ;;
    *) echo "install-deps: unknown option $arg" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# A JDK that is already on PATH (e.g. a preinstalled Temurin) is as good as Debian's.
if command -v java >/dev/null && command -v mvn >/dev/null; then
  missing=("${missing[@]/default-jdk-headless}"); missing=("${missing[@]/maven}")
fi
missing=($(printf '%s\n' "${missing[@]}" | grep -v '^$' || true))
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}" >&2
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
