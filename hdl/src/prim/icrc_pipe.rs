//! The RoCEv2 ICRC of every frame on a 512-bit beat stream, one beat per clock.
//!
//! Both pipes need it at line rate: the Rx pipe to check a frame, the Tx pipe to append it.
//! The block does the whole ICRC masking itself from two numbers taken on a frame's first beat
//! (where the ICRC sits and where a telemetry header sits), so neither pipe repeats it.
//!
//! How: CRC-32 without its final XOR is linear over GF(2), so one beat is
//! `S' = A.S ^ B.D` with constant matrices (A = 64 zero bytes, B = 64 data bytes from zero).
//! B.D has no feedback and is pipelined (two XOR stages); only the 32x32 A.S closes the loop.
//! Bytes outside the ICRC's coverage are fed as zeros. Leading zeros are folded into the seed
//! (the state that 14 zero bytes turn into "8 bytes of 0xFF from 0xFFFFFFFF"); trailing
//! zeros are undone at the end by multiplying with x^(-8k), the inverse of k zero bytes, in
//! six conditional stages (k = 1, 2, 4 ... 32). So the variable frame end costs six small
//! matrices instead of 64 byte-count variants of B.
//!
//! `IcrcModel` is the same algorithm beat by beat in plain Rust: the rust-hdl model, and what
//! the test bench compares the RTL with on garbage input (on sane frames it is compared with
//! `sim::packet::icrc` instead).

use crate::div_pipe::{bits_from_u128, clock_pipe};
use rust_hdl::prelude::*;
use std::collections::VecDeque;
use std::sync::LazyLock;

/// Frame offset where the ICRC's coverage starts (after the Ethernet header).
pub const COVER_FROM: usize = 14;
/// Variant bytes replaced by ones in beat 0: IPv4 TOS, TTL, checksum; UDP checksum; BTH byte 4.
pub const VARIANT_LANES: [usize; 7] = [15, 22, 24, 25, 40, 41, 46];
/// Telemetry header offsets the block knows (no RETH/AETH, AETH, RETH).
pub const TELE_OFFSETS: [usize; 3] = [
    crate::roce_op_class::AFTER_BTH as usize,
    crate::roce_op_class::AFTER_AETH as usize,
    crate::roce_op_class::AFTER_RETH as usize,
];

/// See the module doc. No parameters: 512-bit beats, 16-bit offsets.
#[derive(LogicBlock, Default)]
pub struct IcrcPipe {
    /// Clock; everything is sampled on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: clears the valid bits and the frame tracking (data is not reset).
    pub reset: Signal<In, bool>,
    /// A beat of a frame enters (no backpressure; gaps between beats are allowed).
    pub s_valid: Signal<In, bool>,
    /// The beat as on the AXI-Stream: frame byte 64k+i at [8i+7:8i] of beat k. Raw bytes.
    pub s_data: Signal<In, Bits<512>>,
    /// Last beat of the frame (tlast).
    pub s_last: Signal<In, bool>,
    /// Taken on a frame's first beat: the ICRC's frame offset (14 + IPv4 total length - 4).
    /// Covered bytes are [14, icrc_at).
    pub s_icrc_at: Signal<In, Bits<16>>,
    /// Taken on a frame's first beat: the telemetry header's offset (54, 58 or 70), 0 if none.
    /// When its E bit (read from the frame) is 0, nhop and the hop slots are masked.
    pub s_tele_at: Signal<In, Bits<7>>,
    /// One cycle per frame, LATENCY cycles after the frame's last beat entered.
    pub m_valid: Signal<Out, bool>,
    /// The frame's ICRC (the CRC register; the wire carries its little-endian bytes).
    pub m_crc: Signal<Out, Bits<32>>,
    /// Frame bytes [icrc_at, icrc_at + 4) read little-endian: the ICRC found on the wire.
    pub m_found: Signal<Out, Bits<32>>,
    _model: IcrcModel,
    _pipe: VecDeque<(bool, u128, u128)>,
}

impl IcrcPipe {
    /// Cycles from a frame's last beat on `s_*` to its result on `m_*`.
    pub const LATENCY: usize = 11;
}

impl Logic for IcrcPipe {
    fn update(&mut self) {
        let edge = self.clock.pos_edge();
        let mut entry = (false, 0, 0);
        if edge && self.reset.val() {
            self._model = IcrcModel::default();
        } else if edge && self.s_valid.val() {
            let d = self.s_data.val();
            let mut beat = [0u8; 64];
            for (i, b) in beat.iter_mut().enumerate() {
                *b = d.get_bits::<8>(8 * i).to_u64() as u8;
            }
            let r = self._model.beat(
                &beat,
                self.s_last.val(),
                self.s_icrc_at.val().to_u64() as u16,
                self.s_tele_at.val().to_u64() as u8,
            );
            if let Some((crc, found)) = r {
                entry = (true, crc as u128, found as u128);
            }
        }
        // The model answers at the last beat's edge, as the RTL samples it.
        let (valid, crc, found) = clock_pipe(
            &mut self._pipe,
            Self::LATENCY,
            edge,
            entry,
            self.reset.val(),
        );
        self.m_valid.next = valid;
        self.m_crc.next = bits_from_u128(crc);
        self.m_found.next = bits_from_u128(found);
    }

    fn connect(&mut self) {
        self.m_valid.connect();
        self.m_crc.connect();
        self.m_found.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(verilog_body())
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "icrc_pipe".into(),
            clock: "clock".into(),
            inputs: ["reset", "s_valid", "s_data", "s_last", "s_icrc_at", "s_tele_at"]
                .map(String::from)
                .into(),
            outputs: ["m_valid", "m_crc", "m_found"].map(String::from).into(),
        }]
    }
}

/// The CRC-32 register (reflected, polynomial 0x04C11DB7) after one byte, without init or
/// final XOR: linear in (s, b).
pub fn crc_byte(mut s: u32, b: u8) -> u32 {
    s ^= b as u32;
    for _ in 0..8 {
        s = if s & 1 != 0 { (s >> 1) ^ 0xEDB8_8320 } else { s >> 1 };
    }
    s
}

fn zeros(s: u32, n: usize) -> u32 {
    (0..n).fold(s, |s, _| crc_byte(s, 0))
}

/// 32x32 GF(2) matrix as columns: `m[j]` is the image of bit j.
type Mat = [u32; 32];

fn apply(m: &Mat, v: u32) -> u32 {
    (0..32).filter(|j| v >> j & 1 != 0).fold(0, |a, j| a ^ m[j])
}

fn matrix_of(f: impl Fn(u32) -> u32) -> Mat {
    std::array::from_fn(|j| f(1 << j))
}

fn inverse(m: &Mat) -> Mat {
    // Gauss-Jordan on rows of [M | I]; row i of M has bit j = bit i of column j.
    let mut rows: Vec<(u32, u32)> = (0..32)
        .map(|i| ((0..32).fold(0, |r, j| r | ((m[j] >> i & 1) << j)), 1u32 << i))
        .collect();
    for c in 0..32 {
        let p = (c..32).find(|&r| rows[r].0 >> c & 1 != 0).expect("zero-byte map is invertible");
        rows.swap(c, p);
        for r in 0..32 {
            if r != c && rows[r].0 >> c & 1 != 0 {
                rows[r] = (rows[r].0 ^ rows[c].0, rows[r].1 ^ rows[c].1);
            }
        }
    }
    // Rows of the inverse are the right halves; turn them back into columns.
    std::array::from_fn(|j| (0..32).fold(0, |col, i| col | ((rows[i].1 >> j & 1) << i)))
}

/// x^(-8k): undoes k zero bytes.
pub fn unzero_matrix(k: usize) -> Mat {
    inverse(&matrix_of(|s| zeros(s, k)))
}

/// x^(-8k) for k = 0..63, computed once: the model needs one per frame.
static UNZERO: LazyLock<[Mat; 64]> = LazyLock::new(|| std::array::from_fn(unzero_matrix));

/// The state a frame starts from: 14 zero bytes (the Ethernet header, fed as zeros) lead it to
/// the state after the 8 bytes of 0xFF that stand in for the LRH.
pub fn seed() -> u32 {
    let lrh = (0..8).fold(0xFFFF_FFFF, |s, _| crc_byte(s, 0xFF));
    apply(&UNZERO[COVER_FROM], lrh)
}

/// A beat's lanes that a telemetry header at `t` masks in beat `beat` (0 or 1), as a bit set.
pub fn tele_lanes(t: usize, beat: usize) -> u64 {
    if !TELE_OFFSETS.contains(&t) {
        return 0;
    }
    let base = 64 * beat;
    let variant = |o: usize| o == t + 1 || (t + 4..t + 44).contains(&o);
    (0..64).filter(|&i| variant(base + i)).fold(0, |m, i| m | 1 << i)
}

/// The block's algorithm, beat by beat: the rust-hdl model and the test bench's reference for
/// frames whose offsets are nonsense.
#[derive(Clone, Debug, Default)]
pub struct IcrcModel {
    in_frame: bool,
    /// 0 = first beat, 1 = second, 2 = any later one.
    beat: u8,
    /// icrc_at - 64 x beat, no longer counted down once below -64.
    rem: i32,
    tele_at: u8,
    echo: bool,
    state: u32,
    tail: u8,
    found: u32,
}

impl IcrcModel {
    /// One beat; returns `(crc, found)` on the frame's last beat.
    pub fn beat(&mut self, d: &[u8; 64], last: bool, icrc_at: u16, tele_at: u8) -> Option<(u32, u32)> {
        let first = !self.in_frame;
        if first {
            (self.beat, self.rem, self.tele_at) = (0, icrc_at as i32, tele_at);
        }
        let (t, rem) = (self.tele_at as usize, self.rem);
        if self.beat == 0 && (t == 54 || t == 58) {
            self.echo = d[t] & 0x08 != 0;
        }
        let echo = if t == 70 { d[6] & 0x08 != 0 } else { self.echo };
        let tele = if echo || self.beat > 1 { 0 } else { tele_lanes(t, self.beat as usize) };
        let beat0 = self.beat == 0;
        let mut m = [0u8; 64];
        for i in 0..64 {
            let cover = (i as i32) < rem && !(beat0 && i < COVER_FROM);
            let variant = (beat0 && VARIANT_LANES.contains(&i)) || tele >> i & 1 != 0;
            m[i] = if !cover { 0 } else if variant { 0xFF } else { d[i] };
        }
        let mut found = if first { 0 } else { self.found };
        for j in 0..4 {
            let lane = rem + j as i32;
            if (0..64).contains(&lane) {
                found |= (d[lane as usize] as u32) << (8 * j);
            }
        }
        self.found = found;
        if rem > 0 {
            let s = if first { seed() } else { self.state };
            self.state = m.iter().fold(s, |s, &b| crc_byte(s, b));
        }
        let fin = rem > 0 && rem <= 64;
        self.tail = if fin { (64 - rem) as u8 } else if first { 0 } else { self.tail };
        self.beat = (self.beat + 1).min(2);
        if self.rem >= -64 {
            self.rem -= 64;
        }
        self.in_frame = !last;
        last.then(|| (!apply(&UNZERO[self.tail as usize], self.state), found))
    }
}

fn hex(v: u128, bits: usize) -> String {
    format!("{bits}'h{v:0w$x}", w = bits.div_ceil(4))
}

/// Columns of B (64 data bytes from a zero state), for data bit 8i+k.
fn data_matrix() -> Vec<u32> {
    (0..512)
        .map(|bit| {
            let mut d = [0u8; 64];
            d[bit / 8] = 1 << (bit % 8);
            d.iter().fold(0, |s, &b| crc_byte(s, b))
        })
        .collect()
}

/// Row `r` of a matrix given by columns, as a mask over its inputs.
fn row(cols: &[u32], r: usize) -> u128 {
    cols.iter().enumerate().fold(0, |m, (j, c)| m | ((c >> r & 1) as u128) << j)
}

/// `out[r] = ^(in & row r)` for the 32 rows of a 32-column matrix.
fn mat_assign(out: &str, input: &str, m: &Mat) -> String {
    (0..32)
        .map(|r| format!("        {out}[{r}] = ^({input} & {});\n", hex(row(m, r), 32)))
        .collect()
}

/// The Verilog body. Stages: s1 registers the beat with its frame position; s2 the masked
/// beat; s3 partial products of B per 64-bit group; s4 B.D; the state register and u0 take
/// the beat; u1..u6 undo trailing zeros; m_* = ~u6.
pub fn verilog_body() -> String {
    let mut v = String::from(FRONT);
    // Telemetry masks: one constant per (offset, beat 0/1).
    for &t in &TELE_OFFSETS {
        for beat in 0..2 {
            let sel = ["2'b01", "2'b10"][beat];
            let mask = hex(tele_lanes(t, beat) as u128, 64);
            v += &format!("        {{{sel}, 7'd{t}}}: tele_mask1 = {mask};\n");
        }
    }
    let variant: u64 = VARIANT_LANES.iter().fold(0, |m, &i| m | 1 << i);
    v += &MIDDLE.replace("VARIANT", &hex(variant as u128, 64));
    // Masked lanes.
    for i in 0..64 {
        let ethernet = if i < COVER_FROM { " || beat0" } else { "" };
        v += &format!(
            "        m2_d[{i}*8 +: 8] = (rem1[16] || rem1 <= 17'd{i}{ethernet}) ? 8'h00 \
             : ff1[{i}] ? 8'hFF : d1[{i}*8 +: 8];\n"
        );
    }
    v += "    end\n\n// s3: 8 groups x 32 partial parities of B.D.\n";
    v += "reg [255:0] p3;\nreg v3, last3, first3, upd3, fin3;\nreg [5:0] tail3;\nreg [31:0] found3;\n";
    v += "always @(posedge clock) begin\n";
    let b = data_matrix();
    for g in 0..8 {
        for r in 0..32 {
            let mask = row(&b[64 * g..64 * g + 64], r);
            v += &format!(
                "    p3[{}] <= ^(m2[{}:{}] & {});\n",
                32 * g + r,
                64 * g + 63,
                64 * g,
                hex(mask, 64)
            );
        }
    }
    v += BACK_S3;
    let a = matrix_of(|s| zeros(s, 64));
    let k = apply(&a, seed());
    v += &format!("always @(*) begin\n{}end\n", mat_assign("as4", "state_q", &a));
    v += &STATE.replace("SEED_NEXT", &hex(k as u128, 32));
    for j in 0..6 {
        let m = unzero_matrix(1 << j);
        v += &format!(
            "always @(*) begin\n{}end\n",
            mat_assign(&format!("un{j}"), &format!("u{j}"), &m)
        );
    }
    v += OUTPUT;
    v
}

const FRONT: &str = "\
// Stage 0: where the beat sits in its frame. rem = icrc_at - 64 x beat, 17 bits two's
// complement, counts down from the first beat and stops below -64 (so it never wraps).
reg in_frame_q;
reg [1:0] beat_q;
reg [16:0] rem_q;
reg [6:0] tele_at_q;
wire first0 = !in_frame_q;
wire [16:0] rem0 = first0 ? {1'b0, s_icrc_at} : rem_q;
wire [1:0] beat0_idx = first0 ? 2'd0 : beat_q;
always @(posedge clock) begin
    if (s_valid) begin
        in_frame_q <= !s_last;
        beat_q <= beat0_idx == 2'd2 ? 2'd2 : beat0_idx + 2'd1;
        rem_q <= (rem0[16] && !(&rem0[15:6])) ? rem0 : rem0 - 17'd64;
        if (first0) tele_at_q <= s_tele_at;
    end
    if (reset) in_frame_q <= 1'b0;
end

// s1: the beat and where it sits; at_j = lane of the wire ICRC's byte j.
reg v1, last1, first1;
reg [511:0] d1;
reg [1:0] beat1_idx;
reg [16:0] rem1, at1, at2, at3;
reg [6:0] tele1;
always @(posedge clock) begin
    v1 <= s_valid && !reset;
    last1 <= s_last;
    first1 <= first0;
    d1 <= s_data;
    beat1_idx <= beat0_idx;
    rem1 <= rem0;
    at1 <= rem0 + 17'd1;
    at2 <= rem0 + 17'd2;
    at3 <= rem0 + 17'd3;
    tele1 <= first0 ? s_tele_at : tele_at_q;
end

// s1 -> s2: lanes below rem are covered.
wire beat0 = beat1_idx == 2'd0;
wire beat1 = beat1_idx == 2'd1;
// E bit of the telemetry header: in beat 0 at 54 or 58 (kept for beat 1), in beat 1 at 70.
reg echo_q;
wire echo1 = tele1 == 7'd70 ? d1[51] : beat0 ? (tele1 == 7'd58 ? d1[467] : d1[435]) : echo_q;
always @(posedge clock) if (v1 && beat0) echo_q <= echo1;
reg [63:0] tele_mask1;
always @(*) begin
    tele_mask1 = 64'd0;
    if (!echo1) begin
        case ({beat1, beat0, tele1})
";

const MIDDLE: &str = "\
        default: tele_mask1 = 64'd0;
        endcase
    end
end
wire [63:0] ff1 = (beat0 ? VARIANT : 64'd0) | tele_mask1;
// The ICRC found on the wire: lane rem + j holds its byte j.
wire [31:0] found1 = {
    at3 < 17'd64 ? d1[at3[5:0]*8 +: 8] : 8'h00,
    at2 < 17'd64 ? d1[at2[5:0]*8 +: 8] : 8'h00,
    at1 < 17'd64 ? d1[at1[5:0]*8 +: 8] : 8'h00,
    rem1 < 17'd64 ? d1[rem1[5:0]*8 +: 8] : 8'h00};
reg v2, last2, first2, upd2, fin2;
reg [5:0] tail2;
reg [31:0] found2;
reg [511:0] m2;
reg [511:0] m2_d;
always @(posedge clock) begin
    v2 <= v1 && !reset;
    last2 <= last1;
    first2 <= first1;
    m2 <= m2_d;
    if (v1) found2 <= (first1 ? 32'd0 : found2) | found1;
    upd2 <= !rem1[16] && rem1 != 17'd0;
    fin2 <= !rem1[16] && rem1 != 17'd0 && rem1 <= 17'd64;
    tail2 <= 6'd0 - rem1[5:0];
end
always @(*) begin
";

const BACK_S3: &str = "\
    v3 <= v2 && !reset;
    last3 <= last2;
    first3 <= first2;
    upd3 <= upd2;
    fin3 <= fin2;
    tail3 <= tail2;
    found3 <= found2;
end

// s4: B.D.
reg [31:0] t4;
reg v4, last4, first4, upd4, fin4;
reg [5:0] tail4;
reg [31:0] found4;
integer g;
always @(posedge clock) begin
    for (g = 0; g < 32; g = g + 1)
        t4[g] <= p3[g] ^ p3[32 + g] ^ p3[64 + g] ^ p3[96 + g]
            ^ p3[128 + g] ^ p3[160 + g] ^ p3[192 + g] ^ p3[224 + g];
    v4 <= v3 && !reset;
    last4 <= last3;
    first4 <= first3;
    upd4 <= upd3;
    fin4 <= fin3;
    tail4 <= tail3;
    found4 <= found3;
end

// The state loop: S' = A.S ^ B.D, or the seed's successor on a frame's first beat.
reg [31:0] state_q;
reg [31:0] as4;
";

const STATE: &str = "\
wire [31:0] next4 = !upd4 ? state_q : (first4 ? SEED_NEXT : as4) ^ t4;
reg [5:0] tail_q;
wire [5:0] tail_now = fin4 ? tail4 : first4 ? 6'd0 : tail_q;
always @(posedge clock) begin
    if (v4) begin
        state_q <= next4;
        tail_q <= tail_now;
    end
end

// u0..u6: undo the trailing zero bytes of the last covered beat, bit j of tail = 2^j bytes.
reg [31:0] u0, u1, u2, u3, u4, u5, u6;
// ut_j keeps the tail bits still to be used.
reg [5:0] ut0;
reg [5:1] ut1;
reg [5:2] ut2;
reg [5:3] ut3;
reg [5:4] ut4;
reg ut5;
reg [31:0] uf0, uf1, uf2, uf3, uf4, uf5, uf6;
reg [6:0] uv;
reg [31:0] un0, un1, un2, un3, un4, un5;
always @(posedge clock) begin
    uv <= {uv[5:0], v4 && last4} & {7{!reset}};
    {u0, ut0, uf0} <= {next4, tail_now, found4};
    {u1, ut1, uf1} <= {ut0[0] ? un0 : u0, ut0[5:1], uf0};
    {u2, ut2, uf2} <= {ut1[1] ? un1 : u1, ut1[5:2], uf1};
    {u3, ut3, uf3} <= {ut2[2] ? un2 : u2, ut2[5:3], uf2};
    {u4, ut4, uf4} <= {ut3[3] ? un3 : u3, ut3[5:4], uf3};
    {u5, ut5, uf5} <= {ut4[4] ? un4 : u4, ut4[5], uf4};
    {u6, uf6} <= {ut5 ? un5 : u5, uf5};
end
";

const OUTPUT: &str = "\
always @(*) begin
    m_valid = uv[6];
    m_crc = ~u6;
    m_found = uf6;
end";
