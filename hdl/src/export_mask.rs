//! Readable Verilog (issue 14, item 4): the masks rust-hdl writes for a width change, where
//! they change nothing, become zero extensions.
//!
//! rust-hdl writes `bit_cast::<M, N>(x)` as `((x) & M'h<M ones>)`: a 1024-bit cast prints 256
//! hex digits. When `x` is a net or a constant select of one, N bits wide with N <= M, the
//! mask changes neither value nor width in any context: the `&` is M bits wide (the wider of
//! its operands), `x` is zero-extended into it, and the ones keep every bit. That is exactly
//! what `{(M-N)'d0, x}` is (M bits, `x` zero-extended), and `x` itself when N == M; so this
//! pass writes those. Everything unsigned: rust-hdl declares nothing `signed`.
//!
//! Masks it keeps, because there they do something:
//! - around an expression (`(a + b) & 16'hffff`): Verilog sizes `a + b` by its context, and
//!   the mask cuts the result back to M bits;
//! - around a net wider than M (a truncation): the `&` is as wide as the net, so the mask's
//!   width sets the context of everything around it;
//! - masks that are not all ones, and operands whose width the module does not declare.

use std::collections::BTreeMap;

/// Widths of the nets, ports and localparams one module declares, by name.
pub(crate) fn widths(module: &str) -> BTreeMap<&str, usize> {
    let mut w = BTreeMap::new();
    for line in module.lines() {
        let mut t = line.trim_start();
        let mut kw = false;
        for k in ["input ", "output ", "wire ", "reg ", "localparam "] {
            while let Some(r) = t.strip_prefix(k) {
                t = r.trim_start();
                kw = true;
            }
        }
        if !kw || t.starts_with("signed") {
            continue;
        }
        let mut bits = 1;
        if let Some(r) = t.strip_prefix('[') {
            let Some((range, rest)) = r.split_once(']') else { continue };
            let Some((hi, lo)) = range.split_once(':') else { continue };
            let (Ok(hi), Ok(lo)) = (hi.parse::<usize>(), lo.parse::<usize>()) else { continue };
            if lo > hi {
                continue;
            }
            bits = hi - lo + 1;
            t = rest.trim_start();
        }
        let end = t.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(t.len());
        if end > 0 {
            w.insert(&t[..end], bits);
        }
    }
    w
}

/// Width of an operand that is a declared net or a constant select of one: `x`, `x[7]`,
/// `x[40+:8]`, `x[15:8]`.
fn operand_bits(op: &str, widths: &BTreeMap<&str, usize>) -> Option<usize> {
    let ident_end = op.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(op.len());
    if ident_end == 0 || op.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let net = widths.get(&op[..ident_end]).copied()?;
    let sel = &op[ident_end..];
    if sel.is_empty() {
        return Some(net);
    }
    let sel = sel.strip_prefix('[')?.strip_suffix(']')?;
    if let Some((_, w)) = sel.split_once("+:") {
        return w.parse().ok();
    }
    if let Some((hi, lo)) = sel.split_once(':') {
        let (hi, lo) = (hi.parse::<usize>().ok()?, lo.parse::<usize>().ok()?);
        return (hi >= lo).then(|| hi - lo + 1);
    }
    sel.parse::<usize>().ok().map(|_| 1)
}

/// Width M of `M'h<hex>` if it is M ones.
fn all_ones(lit: &str) -> Option<usize> {
    let (m, hex) = lit.split_once("'h")?;
    let m: usize = m.parse().ok()?;
    let top = match m % 4 {
        0 => 'f',
        1 => '1',
        2 => '3',
        _ => '7',
    };
    let digits = m.div_ceil(4);
    let mut cs = hex.chars();
    (m > 0 && hex.len() == digits && cs.next() == Some(top) && cs.all(|c| c == 'f')).then_some(m)
}

/// One module's text with every no-op mask `((x) & M'h<ones>)` written as `x` or
/// `{K'd0, x}`.
pub fn zero_extend(module: &str) -> String {
    let widths = widths(module);
    let mut out = String::with_capacity(module.len());
    let mut rest = module;
    while let Some(at) = rest.find("((") {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        match rewrite(tail, &widths) {
            Some((text, used)) => {
                out.push_str(&text);
                rest = &tail[used..];
            }
            None => {
                out.push('(');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The replacement of the mask at the start of `tail` (`((x) & M'h..)`) and the bytes it
/// replaces, if it is a no-op.
fn rewrite(tail: &str, widths: &BTreeMap<&str, usize>) -> Option<(String, usize)> {
    let body = tail.strip_prefix("((")?;
    let close = body.find(')')?;
    let op = &body[..close];
    let after = body[close..].strip_prefix(") & ")?;
    let lit_end = after.find(')')?;
    let m = all_ones(&after[..lit_end])?;
    let n = operand_bits(op, widths)?;
    if n > m {
        return None;
    }
    let used = tail.len() - after.len() + lit_end + 1;
    let text = if n == m { op.to_string() } else { format!("{{{}'d0, {op}}}", m - n) };
    Some((text, used))
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: &str = "module t(a,b);\n    input wire  [511:0] a;\n    output reg  [1023:0] b;\n    \
                     reg  [7:0] c;\n    localparam [3:0] K = 4'h3;\n    reg  d;\n\n    always @(*) begin\n";

    fn body(line: &str) -> String {
        zero_extend(&format!("{M}        {line}\n    end\nendmodule\n"))
            .lines()
            .nth(8)
            .unwrap()
            .trim()
            .to_string()
    }

    #[test]
    fn widening_masks_become_zero_extensions() {
        assert_eq!(body("b = ((a) & 1024'hffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff) << 512;"), "b = {512'd0, a} << 512;");
        assert_eq!(body("c = ((a[40+:8]) & 16'hffff) << 8;"), "c = {8'd0, a[40+:8]} << 8;");
        assert_eq!(body("c = ((a[9]) & 5'h1f);"), "c = {4'd0, a[9]};");
        assert_eq!(body("c = ((a[15:8]) & 10'h3ff);"), "c = {2'd0, a[15:8]};");
        assert_eq!(body("c = ((K) & 4'hf) | ((d) & 1'h1);"), "c = K | d;");
    }

    #[test]
    fn masks_that_do_something_stay() {
        for keep in [
            "c = ((a + c) & 16'hffff);", // an expression: the mask cuts its carry
            "c = ((a) & 8'hff);",        // a truncation: the & is 512 bits wide
            "c = ((c) & 16'hfffe);",     // not all ones
            "c = ((c) & 16'h0fff);",     // not sixteen ones
            "c = ((z) & 16'hffff);",     // not declared here
            "c = ((32'h1) & 3'h7);",     // a literal: 32 bits wide
        ] {
            assert_eq!(body(keep), keep);
        }
    }

    #[test]
    fn widths_of_declarations() {
        let w = widths(M);
        assert_eq!((w["a"], w["b"], w["c"], w["K"], w["d"]), (512, 1024, 8, 4, 1));
    }
}
