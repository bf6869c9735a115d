#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the libFuzzer harnesses (tests/fuzz, clang 14 with ASan and UBSan) and runs each one
# for SECONDS on a copy of its seed corpus. Exits non-zero, naming the harness, on any crash,
# leak or sanitizer report; the reproducer is left in the build folder (crash-*, leak-*, ...).
# Usage: installer/run-fuzzers.sh [SECONDS per harness, default 20] [build folder, default build-fuzz]
# (Run it for an hour each by hand: installer/run-fuzzers.sh 3600.)
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH="${1:-20}"
BUILD="${2:-build-fuzz}"

cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLEET_FUZZ=ON -DFLEET_BUILD_TESTS=OFF -DFLEET_BUILD_BENCH=OFF \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 >/dev/null
cmake --build "$BUILD" -j2 --target fuzz_kubeconfig fuzz_watchstream fuzz_prometheus fuzz_kubejson fuzz_alibabacsv fuzz_usageconfig fuzz_planfile fuzz_prices fuzz_podtemplate fuzz_nodegroups fuzz_document

status=0
for h in kubeconfig watchstream prometheus kubejson alibabacsv usageconfig planfile prices podtemplate nodegroups document; do
  dict=()
  case $h in
    kubeconfig|usageconfig|podtemplate|nodegroups) dict=(-dict="$PWD/tests/fuzz/dict/yaml.dict") ;;
    planfile) dict=(-dict="$PWD/tests/fuzz/dict/planfile.dict") ;;
    document) dict=(-dict="$PWD/tests/fuzz/dict/document.dict") ;;
  esac
  work="$BUILD/fuzz-run/$h"
  rm -rf "$work" && mkdir -p "$work/corpus"
  cp tests/fuzz/corpus/$h/* "$work/corpus/"
  echo "fuzz_$h: ${SECONDS_EACH} s"
  if ! (cd "$work" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        "../../tests/fuzz/fuzz_$h" "${dict[@]}" -max_total_time="$SECONDS_EACH" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 corpus >"log.txt" 2>&1); then
    echo "fuzz_$h FAILED: see $work/log.txt"; tail -40 "$work/log.txt"; status=1
  else
    grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$work/log.txt" | sed "s/^/  /"
  fi
done
exit $status
