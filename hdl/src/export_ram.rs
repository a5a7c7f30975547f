//! rust-hdl's `RAM` as one-clock cells (issue 14, item 4).
//!
//! rust-hdl's `RAM` has a read clock and a write clock as separate ports, each with its own
//! `always` block. Every block of this design drives both from `clock`, but a vendor tool
//! that sees two clock ports may build a two-clock RAM (and time it as a clock crossing).
//! `export_once` writes each RAM shape once into `hpcc_nic_cells.v`; this pass gives that cell
//! one `clock` port and one `always` block, and rewrites every instance to bind it, refusing
//! an instance whose two clocks are not the same net.
//!
//! The cell behaves as rust-hdl's: the read is registered and a read of the word being written
//! in the same cycle returns the old word (read-first; both assignments are nonblocking).

use crate::export::ExportError;

/// Name prefix of the RAM cells.
pub const PREFIX: &str = "hpcc_ram_";

/// The cell's name for a RAM of `width` bits by `2^abits` words.
pub fn name(width: usize, abits: usize) -> String {
    format!("{PREFIX}w{width}_d{}", 1usize << abits)
}

/// The text of the cell `name(width, abits)`.
pub fn cell(width: usize, abits: usize) -> String {
    let range = |w: usize| if w == 1 { String::new() } else { format!("[{}:0] ", w - 1) };
    let (d, a) = (range(width), range(abits));
    format!(
        "// {width} bits x {depth} words, simple dual port, one clock. The read is registered\n\
         // (block RAM); a read of the word written in the same cycle returns the old word.\n\
         module {name}(clock,read_address,read_data,write_address,write_data,write_enable);\n\
         \n    input wire  clock;\n    input wire  {a}read_address;\n    output reg  {d}read_data;\n\
         \x20   input wire  {a}write_address;\n    input wire  {d}write_data;\n    input wire  write_enable;\n\
         \n    reg {d}mem [0:{last}];\n\
         \n    always @(posedge clock) begin\n        read_data <= mem[read_address];\n\
         \x20       if (write_enable) begin\n            mem[write_address] <= write_data;\n        end\n    end\n\
         endmodule // {name}\n",
        depth = 1usize << abits,
        name = name(width, abits),
        last = (1usize << abits) - 1,
    )
}

/// Rewrites every instance of a RAM cell in `text` (a file's modules) to bind one `clock`:
/// `.read_clock(c)` and `.write_clock(c)` become `.clock(c)` as the first binding.
pub fn one_clock(text: &str, file: &str) -> Result<String, ExportError> {
    let mut out = String::with_capacity(text.len());
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        let is_cell = t.starts_with(PREFIX) && t.trim_end().ends_with('(') && !t.starts_with("module ");
        if !is_cell {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let indent = &line[..line.len() - t.len()];
        let inst = t.split_whitespace().nth(1).unwrap_or("").trim_end_matches('(').to_string();
        let mut binds = Vec::new();
        let (mut rd, mut wr) = (None, None);
        for b in lines.by_ref() {
            let bt = b.trim();
            if bt == ");" {
                break;
            }
            let port = bt.trim_start_matches('.').split('(').next().unwrap_or("");
            let net = bt.split('(').nth(1).and_then(|s| s.split(')').next()).unwrap_or("").to_string();
            match port {
                "read_clock" => rd = Some(net),
                "write_clock" => wr = Some(net),
                _ => binds.push(bt.trim_end_matches(',').to_string()),
            }
        }
        let clock = match (rd, wr) {
            (Some(r), Some(w)) if r == w => r,
            (r, w) => {
                return Err(ExportError::Check(format!(
                    "{file}.v: RAM {inst} is clocked by {r:?} for reads and {w:?} for writes; \
                     the cells have one clock"
                )))
            }
        };
        out.push_str(line);
        out.push('\n');
        let all: Vec<String> = std::iter::once(format!(".clock({clock})")).chain(binds).collect();
        for (i, b) in all.iter().enumerate() {
            let comma = if i + 1 < all.len() { "," } else { "" };
            out.push_str(&format!("{indent}    {b}{comma}\n"));
        }
        out.push_str(&format!("{indent});\n"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instance_gets_one_clock() {
        let text = "    hpcc_ram_w8_d16 r(\n        .read_address(a),\n        .read_clock(clock),\n        \
                    .read_data(q),\n        .write_address(b),\n        .write_clock(clock),\n        \
                    .write_data(d),\n        .write_enable(e)\n    );\n";
        let got = one_clock(text, "t").unwrap();
        assert_eq!(
            got,
            "    hpcc_ram_w8_d16 r(\n        .clock(clock),\n        .read_address(a),\n        .read_data(q),\n        \
             .write_address(b),\n        .write_data(d),\n        .write_enable(e)\n    );\n"
        );
    }

    #[test]
    fn two_clocks_are_refused() {
        let text = "    hpcc_ram_w8_d16 r(\n        .read_clock(clk_a),\n        .write_clock(clk_b)\n    );\n";
        let err = one_clock(text, "t").unwrap_err();
        assert!(format!("{err:?}").contains("clk_a"), "{err:?}");
    }

    #[test]
    fn one_bit_cell_has_no_range() {
        let c = cell(1, 4);
        assert!(c.contains("output reg  read_data;"), "{c}");
        assert!(c.contains("input wire  [3:0] read_address;"), "{c}");
        assert!(c.contains("reg mem [0:15];"), "{c}");
    }
}
