#!/usr/bin/env bash
# Which outputs of an exported module are X in a 4-state simulator (Icarus Verilog) while
# idle: reset for 4 cycles, every input 0 (every tready 1), then 40 idle cycles. Memories
# start as X there, registers at their initial values. Used for the "defined while invalid"
# figures in docs/export.md.
#
#   testbench/bench/x_outputs.sh <rtl-dir> <module>...
#
# Prints, per module, the outputs that held an X bit on some idle cycle, or "none".
set -euo pipefail
rtl=$(cd "$1" && pwd)
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/filelist.sh"
for top in "$@"; do
  files_up_to "$rtl" "$top"
  # The top's port declarations, from its own file: "input wire [w:0] name;".
  python3 - "$rtl/$top.v" "$top" > "$work/tb.v" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
top = sys.argv[2]
body = text[text.index(f"module {top}("):]
body = body[: body.index("endmodule")]
ports = re.findall(r"^\s*(input|output) (?:wire|reg)\s+(\[\d+:0\])?\s*(\w+);", body, re.M)
print("`timescale 1ns / 1ps\nmodule tb;")
for d, w, n in ports:
    print(f"  {'reg' if d == 'input' else 'wire'} {w or ''} {n};")
print(f"  {top} dut({', '.join(f'.{n}({n})' for _, _, n in ports)});")
print("  integer c;")
print("  initial begin")
for d, w, n in ports:
    if d == "input" and n != "clock":
        print(f"    {n} = {'1' if n.endswith('tready') else '0'};")
print("    clock = 0; reset = 1;")
print("    for (c = 0; c < 44; c = c + 1) begin")
print("      if (c == 4) reset = 0;")
print("      #2 clock = 1; #2 clock = 0;")
for d, w, n in ports:
    if d == "output":
        print(f"      if (c >= 4 && ^{n} === 1'bx) $display(\"X %0d {n}\", c);")
print("    end")
print("    $finish;")
print("  end")
print("endmodule")
EOF
  iverilog -g2012 -o "$work/sim" "$work/tb.v" "${files[@]}" 2>"$work/err" || { cat "$work/err"; exit 1; }
  xs=$(vvp -n "$work/sim" | awk '$1 == "X" { print $3 }' | sort -u | tr '\n' ' ')
  printf '%s: %s\n' "$top" "${xs:-none}"
done
