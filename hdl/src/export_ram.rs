//! rust-hdl's `RAM` as one-clock cells (issue 14, item 4), and two-clock ones where a clock
//! crossing means it (issue 16: `cdc_frame_fifo`).
//!
//! rust-hdl's `RAM` has a read clock and a write clock as separate ports, each with its own
//! `always` block. Almost every block of this design drives both from `clock`, but a vendor
//! tool that sees two clock ports may build a two-clock RAM (and time it as a clock crossing).
//! `export_once` writes each RAM shape once into `hpcc_nic_cells.v`; this pass gives that cell
//! one `clock` port and one `always` block, and rewrites every instance whose two clocks are
//! the same net to bind it. An instance clocked by two nets gets the shape's two-clock cell
//! (`name2`, `cell2`) instead, and the pass reports the shapes that need one.
//!
//! The one-clock cell behaves as rust-hdl's: the read is registered and a read of the word
//! being written in the same cycle returns the old word (read-first; both assignments are
//! nonblocking). The two-clock cell is rust-hdl's own: a read and a write of one word at the
//! same time give an undefined word, so its user must never do that (a FIFO's pointers).

use crate::export::ExportError;

/// Name prefix of the RAM cells.
pub const PREFIX: &str = "hpcc_ram_";

/// The cell's name for a RAM of `width` bits by `2^abits` words.
pub fn name(width: usize, abits: usize) -> String {
    format!("{PREFIX}w{width}_d{}", 1usize << abits)
}

/// The two-clock cell's name for a RAM of `width` bits by `2^abits` words.
pub fn name2(width: usize, abits: usize) -> String {
    format!("{PREFIX}2clk_w{width}_d{}", 1usize << abits)
}

/// The (width, address bits) of a one-clock cell's name.
fn shape_of(name: &str) -> Option<(usize, usize)> {
    let rest = name.strip_prefix(PREFIX)?.strip_prefix('w')?;
    let (w, d) = rest.split_once("_d")?;
    let (w, d): (usize, usize) = (w.parse().ok()?, d.parse().ok()?);
    if !d.is_power_of_two() {
        return None;
    }
    Some((w, d.trailing_zeros() as usize))
}

/// The text of the two-clock cell `name2(width, abits)`.
pub fn cell2(width: usize, abits: usize) -> String {
    let range = |w: usize| if w == 1 { String::new() } else { format!("[{}:0] ", w - 1) };
    let (d, a) = (range(width), range(abits));
    format!(
        "// {width} bits x {depth} words, simple dual port, a clock per port (a clock crossing).\n\
         // The read is registered (block RAM). A read and a write of one word at the same time\n\
         // give an undefined word: the user never does that.\n\
         module {name}(read_address,read_clock,read_data,write_address,write_clock,write_data,write_enable);\n\
         \n    input wire  {a}read_address;\n    input wire  read_clock;\n    output reg  {d}read_data;\n\
         \x20   input wire  {a}write_address;\n    input wire  write_clock;\n    input wire  {d}write_data;\n\
         \x20   input wire  write_enable;\n\
         \n    reg {d}mem [0:{last}];\n\
         \n    always @(posedge read_clock) begin\n        read_data <= mem[read_address];\n    end\n\
         \n    always @(posedge write_clock) begin\n        if (write_enable) begin\n            mem[write_address] <= write_data;\n        end\n    end\n\
         endmodule // {name}\n",
        depth = 1usize << abits,
        name = name2(width, abits),
        last = (1usize << abits) - 1,
    )
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
/// `.read_clock(c)` and `.write_clock(c)` become `.clock(c)` as the first binding. An
/// instance with two clock nets becomes an instance of the two-clock cell, its bindings kept.
/// Back with the text: every cell the instances use, as (width, address bits, two clocks).
pub fn one_clock(text: &str, file: &str) -> Result<(String, Vec<(usize, usize, bool)>), ExportError> {
    let mut used = Vec::new();
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
        let cell = t.split_whitespace().next().unwrap_or("");
        let Some((width, abits)) = shape_of(cell) else {
            return Err(ExportError::Check(format!("{file}.v: RAM {inst}: cell name {cell} has no shape")));
        };
        let mut note = |two: bool| {
            if !used.contains(&(width, abits, two)) {
                used.push((width, abits, two));
            }
        };
        let all: Vec<String> = match (rd, wr) {
            (Some(r), Some(w)) if r == w => {
                note(false);
                out.push_str(line);
                out.push('\n');
                std::iter::once(format!(".clock({r})")).chain(binds).collect()
            }
            (Some(r), Some(w)) => {
                note(true);
                out.push_str(&format!("{indent}{} {inst}(\n", name2(width, abits)));
                let mut all = binds;
                all.push(format!(".read_clock({r})"));
                all.push(format!(".write_clock({w})"));
                all.sort();
                all
            }
            (r, w) => {
                return Err(ExportError::Check(format!(
                    "{file}.v: RAM {inst} is clocked by {r:?} for reads and {w:?} for writes"
                )))
            }
        };
        for (i, b) in all.iter().enumerate() {
            let comma = if i + 1 < all.len() { "," } else { "" };
            out.push_str(&format!("{indent}    {b}{comma}\n"));
        }
        out.push_str(&format!("{indent});\n"));
    }
    Ok((out, used))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instance_gets_one_clock() {
        let text = "    hpcc_ram_w8_d16 r(\n        .read_address(a),\n        .read_clock(clock),\n        \
                    .read_data(q),\n        .write_address(b),\n        .write_clock(clock),\n        \
                    .write_data(d),\n        .write_enable(e)\n    );\n";
        let (got, used) = one_clock(text, "t").unwrap();
        assert_eq!(used, vec![(8, 4, false)]);
        assert_eq!(
            got,
            "    hpcc_ram_w8_d16 r(\n        .clock(clock),\n        .read_address(a),\n        .read_data(q),\n        \
             .write_address(b),\n        .write_data(d),\n        .write_enable(e)\n    );\n"
        );
    }

    #[test]
    fn two_clocks_get_the_two_clock_cell() {
        let text = "    hpcc_ram_w8_d16 r(\n        .read_address(a),\n        .read_clock(clk_a),\n        \
                    .write_clock(clk_b)\n    );\n";
        let (got, used) = one_clock(text, "t").unwrap();
        assert_eq!(used, vec![(8, 4, true)]);
        assert_eq!(
            got,
            "    hpcc_ram_2clk_w8_d16 r(\n        .read_address(a),\n        .read_clock(clk_a),\n        \
             .write_clock(clk_b)\n    );\n"
        );
        assert!(cell2(8, 4).contains("module hpcc_ram_2clk_w8_d16(read_address,read_clock,"), "{}", cell2(8, 4));
    }

    #[test]
    fn a_ram_without_a_clock_net_is_refused() {
        let text = "    hpcc_ram_w8_d16 r(\n        .read_clock(clk_a)\n    );\n";
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
