#!/usr/bin/env bash
# Installs what hfilekit needs from Debian's packages (only what is missing).
# Usage: scripts/install-deps.sh [--java] [--bench] [--browser] [--spark]
#   --java   adds the JDK and Maven for the HBase suite
#   --browser  tries to add Debian's chromium (renders hfile-advise --html in a test; the test
#            skips loudly without it, so a failed install only warns)
#   --spark  adds the JDK and Maven, python3-venv, and PySpark 4.0.1 from PyPI in a venv at
#            ~/.cache/hfilekit/spark-venv (tests/spark and spark/hfile_spark.py; ~520 MB)
#   --bench  adds the peers of scripts/bench.sh: RocksDB (library + sst_dump), the JDK and Maven;
#            the chart needs matplotlib (pip install matplotlib)
set -euo pipefail
browser=0
spark=0
pkgs=(cmake ninja-build g++ pkg-config python3
      libcli11-dev libfmt-dev libzstd-dev libsnappy-dev liblz4-dev zlib1g-dev libbz2-dev
      liblzo2-dev liblzma-dev libbrotli-dev libboost-iostreams-dev
      libprotobuf-dev protobuf-compiler libisal-dev libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev
      libcurl4-openssl-dev
      clang libclang-rt-14-dev man-db jq)
for arg in "$@"; do
  case "$arg" in
    --java) pkgs+=(default-jdk-headless maven) ;;
    --bench) pkgs+=(default-jdk-headless maven librocksdb-dev rocksdb-tools) ;;
    --browser) browser=1 ;;
    --spark) spark=1; pkgs+=(default-jdk-headless maven python3-venv) ;;
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
SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO=sudo
updated=0  # one apt-get update per run (a clean CI machine needs both installs below)
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}" >&2
  $SUDO apt-get update -qq
  updated=1
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ((browser)) && ! command -v chromium >/dev/null; then
  echo "install-deps: installing chromium (for the hfile-advise --html render test)" >&2
  { { ((updated)) || $SUDO apt-get update -qq; } &&
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
      chromium fonts-liberation >/dev/null; } || echo "install-deps: chromium not installed; advise_html_render will skip" >&2
fi
if ((spark)); then
  venv="$HOME/.cache/hfilekit/spark-venv"
  if ! "$venv/bin/python" -c 'import pyspark' 2>/dev/null; then
    echo "install-deps: installing pyspark 4.0.1 into $venv" >&2
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check pyspark==4.0.1
  fi
fi
