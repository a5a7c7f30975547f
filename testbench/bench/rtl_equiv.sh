#!/usr/bin/env bash
# Formal equivalence of one module between two exports of rtl-out/ (yosys equiv_*), for
# changes to the export passes that must not change the logic (docs/export.md). RAM cells are
# black boxes (their text is the same in both); everything else is flattened and proven
# equal by equiv_simple and equiv_induct; a DFF cell of an older export is read as logic.
#
#   testbench/bench/rtl_equiv.sh <gold rtl-dir> <gate rtl-dir> <module>
#
# Exit 0 and "Equivalence successfully proven!" when every equiv cell is proven. Covers blocks
# whose memories are all shared RAM cells (tx_ctx, rx_ctx); a block with a memory module of its
# own (flow_sched, rx_pipe) stops with yosys's "contains memories" error: not handled yet.
set -euo pipefail
gold=$(cd "$1" && pwd)
gate=$(cd "$2" && pwd)
top=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Every file of the filelist up to and including the module's own, without the cells file.
files() {
  while read -r f; do
    case "$f" in ''|//*|\#*|hpcc_nic_cells.v) continue ;; esac
    printf '%s ' "$1/$f"
    [ "$f" = "$top.v" ] && break
  done < "$1/hpcc_nic.f"
}
# The cells file split: RAMs as black boxes, any DFF as logic.
cells() {
  awk -v out="$2" '/^module hpcc_ram/ {f = out "/rams.v"} /^module hpcc_dff/ {f = out "/dffs.v"}
    f {print >> f} /^endmodule/ {f = ""}' "$1/hpcc_nic_cells.v"
  touch "$2/rams.v" "$2/dffs.v"
}
mkdir "$work/gold" "$work/gate"
cells "$gold" "$work/gold"
cells "$gate" "$work/gate"
# One side (gold or gate) read, flattened and stashed under its name.
side() {
  cat <<YS
read_verilog -lib $work/$1/rams.v
read_verilog $work/$1/dffs.v
read_verilog -sv $(files "$2")
hierarchy -top $top
proc; flatten; opt_clean
rename $top $1
design -stash $1
YS
}
{
  side gold "$gold"
  side gate "$gate"
  cat <<YS
design -copy-from gold -as gold gold
design -copy-from gate -as gate gate
equiv_make gold gate equiv
hierarchy -top equiv
equiv_simple -seq 2
equiv_induct -seq 2
equiv_status -assert
YS
} > "$work/eq.ys"
yosys -q -l "$work/eq.log" "$work/eq.ys" >/dev/null 2>&1 || { tail -20 "$work/eq.log"; exit 1; }
grep -A3 'Found .* \$equiv cells in equiv' "$work/eq.log"
