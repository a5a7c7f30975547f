#!/usr/bin/env bash
# Formal equivalence of one module between two exports of rtl-out/ (yosys equiv_*), for
# changes to the export passes that must not change the logic (docs/export.md). RAM cells are
# black boxes (their text is the same in both); everything else is flattened and proven
# equal by equiv_simple and equiv_induct; a DFF cell of an older export is read as logic.
#
#   testbench/bench/rtl_equiv.sh <gold rtl-dir> <gate rtl-dir> <module>
#
# SEQ=n (default 2) sets the depth of equiv_simple. A difference that is equal only because of
# state further back than that (rx_pipe's record after its 10-stage delay line) stays
# unproven, which is not the same as different.
#
# INDUCT=1 adds equiv_induct, which proves more, but is NOT sound here: it "proved" a
# deliberately broken flow_sched (m_axis_pktsend_tdata bit 0 forced to 0; 2026-11-27). A
# proof that needs INDUCT=1 is no proof; use it only to list candidates.
#
# RENAME=<file> renames wires of the gold design before matching, one "gold-name gate-name" pair
# per line (names after flattening: a register r of submodule instance u is `u.r`). A refactor
# that moves registers into a submodule or renames them leaves them unmatched, and everything
# they feed unproven; the pairs match them again. A wrong pair cannot make a proof: a matched
# pair is itself an $equiv cell to prove.
#
# KEEP=1 keeps the work directory (eq.ys, eq.log) and prints its path.
#
# Exit 0 and "Equivalence successfully proven!" when every equiv cell is proven. A module of the
# block's own that holds a memory (rx_pipe's FIFO RAM) is a black box too, if its text is the
# same in both exports; if it changed, the script says so and stops (yosys's equiv_* cannot
# prove memories).
set -euo pipefail
gold=$(cd "$1" && pwd)
gate=$(cd "$2" && pwd)
top=$3
work=$(mktemp -d)
if [ -n "${KEEP:-}" ]; then echo "work directory: $work" >&2; else trap 'rm -rf "$work"' EXIT; fi
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
# Modules (outside the cells file) that declare a memory: `reg [..] name [..];`.
memory_modules() {
  # shellcheck disable=SC2046
  awk '/^module /{m = $2; sub(/\(.*/, "", m)} /^ *reg .*\] *[A-Za-z_0-9]+ *\[/ {print m}' \
    $(files "$1") | sort -u
}
# A module's text without comments (the export's comments cite Rust lines, which move).
module_text() {
  # shellcheck disable=SC2046
  awk -v m="$2" '$0 ~ "^module " m "\\(" {p = 1} p {sub(/ *\/\/.*/, ""); if ($0 != "") print} /^endmodule/ {p = 0}' $(files "$1")
}
mems=$(memory_modules "$gate" | tr "\n" " ")
for m in $mems; do
  if [ "$(module_text "$gold" "$m")" != "$(module_text "$gate" "$m")" ]; then
    echo "$m holds a memory and changed between the exports: not provable here" >&2
    exit 1
  fi
done
mkdir "$work/gold" "$work/gate"
cells "$gold" "$work/gold"
cells "$gate" "$work/gate"
# One side (gold or gate) read, flattened and stashed under its name.
side() {
  cat <<YS
read_verilog -lib $work/$1/rams.v
read_verilog $work/$1/dffs.v
read_verilog -sv $(files "$2")
${mems:+blackbox $mems}
hierarchy -top $top
proc; flatten; opt_clean
$(if [ "$1" = gold ] && [ -n "${RENAME:-}" ]; then
    echo "cd $top"
    grep -v '^ *\(#\|$\)' "$RENAME" | while read -r a b; do echo "rename $a $b"; done
    echo "cd .."
  fi)
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
equiv_simple -seq ${SEQ:-2}
${INDUCT:+equiv_induct -seq ${SEQ:-2}}
equiv_status -assert
YS
} > "$work/eq.ys"
yosys -q -l "$work/eq.log" "$work/eq.ys" >/dev/null 2>&1 || { tail -20 "$work/eq.log"; exit 1; }
grep -A3 'Found .* \$equiv cells in equiv' "$work/eq.log"
