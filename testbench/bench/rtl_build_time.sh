#!/usr/bin/env bash
# Verilator build time of one exported module: verilate (Verilog -> C++) and the C++ compile,
# timed apart, with the test bench's own flags (testbench/build/verilate.rs). Used for the
# rtl-out before/after figures in docs/benchmarks.md.
#
#   testbench/bench/rtl_build_time.sh <rtl-dir> <module> [make jobs]
#
# Prints: module, lines of Verilog read, verilate seconds, compile seconds.
set -euo pipefail
rtl=$(cd "$1" && pwd)
top=$2
jobs=${3:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Every file of the filelist up to and including the module's own (compile order).
. "$(dirname "$0")/filelist.sh"
files_up_to "$rtl" "$top"
lines=$(cat "${files[@]}" | wc -l)
t0=$(date +%s.%N)
verilator --cc "${files[@]}" --top-module "$top" --prefix "V$top" -Mdir "$work/obj" \
  --trace -O3 --x-assign fast --x-initial fast -Wno-fatal --no-timing \
  --timescale 1ns/1ps --timescale-override /1ps >/dev/null 2>&1
t1=$(date +%s.%N)
make -s -C "$work/obj" -f "V$top.mk" -j "$jobs" OPT_FAST=-O2 OPT_SLOW=-O1 "V${top}__ALL.a" >/dev/null 2>&1
t2=$(date +%s.%N)
printf '%s lines=%s verilate_s=%.1f compile_s=%.1f\n' "$top" "$lines" \
  "$(awk "BEGIN{print $t1 - $t0}")" "$(awk "BEGIN{print $t2 - $t1}")"
