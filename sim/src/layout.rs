// Bit layouts of the words the blocks pass to each other or keep per flow. Each is defined
// here once, and everything else derives from it:
// - sim packs and unpacks records with `Field::get` / `Field::set` (on 32-bit words, word 0 =
//   bits 31:0, the order Verilator uses for wide ports);
// - hdl's build.rs includes this file and generates, per layout, a trait on `Bits<WIDTH>` with
//   `get_value_<field>()` / `set_value_<field>()`, which rust-hdl's hdl_gen turns into part
//   selects at the field's offset: RTL code names fields, never offsets;
// - the layout tables in docs/modules/ are `Layout::table()`, checked by a test in sim.
//
// This file uses nothing outside itself (hdl/build.rs compiles it on its own), so it has plain
// comments and no `use`.

/// One field: bits [lo + width - 1 : lo] of its word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: &'static str,
    pub lo: usize,
    pub width: usize,
    /// What the field holds, for the docs table.
    pub about: &'static str,
}

/// The words a field can be read from: 32-bit words (Verilator's order) or bytes (tdata's).
trait Word: Copy {
    const BITS: usize;
    fn to_u64(self) -> u64;
    /// The low `BITS` bits of `v`.
    fn from_u64(v: u64) -> Self;
}

impl Word for u32 {
    const BITS: usize = 32;
    fn to_u64(self) -> u64 {
        self as u64
    }
    fn from_u64(v: u64) -> u32 {
        v as u32
    }
}

impl Word for u8 {
    const BITS: usize = 8;
    fn to_u64(self) -> u64 {
        self as u64
    }
    fn from_u64(v: u64) -> u8 {
        v as u8
    }
}

/// A word of up to 128 bits as the 32-bit words `Field` reads, word 0 = bits 31:0.
pub fn words_of(w: u128) -> [u32; 4] {
    std::array::from_fn(|k| (w >> (32 * k)) as u32)
}

/// The inverse of `words_of`.
pub fn word_of(w: &[u32]) -> u128 {
    w.iter().rev().fold(0, |acc, &x| acc << 32 | x as u128)
}

/// 32-bit words (word 0 = bits 31:0) as `N` little-endian bytes, a port's tdata byte order.
pub fn le_bytes<const N: usize>(w: &[u32]) -> [u8; N] {
    std::array::from_fn(|i| (w[i / 4] >> (8 * (i % 4))) as u8)
}

/// A word's name, width and fields, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub name: &'static str,
    pub width: usize,
    /// The docs page that shows the table (between `<!-- layout NAME -->` and
    /// `<!-- end layout -->`), from the workspace root.
    pub doc: &'static str,
    pub fields: &'static [Field],
}

impl Field {
    /// Part `k` of a field made of equal parts `width` bits wide (hop word k of the hop area).
    pub const fn part(&self, k: usize, width: usize) -> Field {
        assert!((k + 1) * width <= self.width, "part outside its field");
        Field { name: self.name, lo: self.lo + k * width, width, about: self.about }
    }

    /// The same field in a word that holds this layout from bit `offset` on (a state word
    /// inside a result).
    pub const fn at(&self, offset: usize) -> Field {
        Field { name: self.name, lo: self.lo + offset, width: self.width, about: self.about }
    }

    /// The field's value in `words` (32-bit words, word 0 = bits 31:0). At most 64 bits.
    pub fn get(&self, words: &[u32]) -> u64 {
        self.read(words)
    }

    /// Writes the low `width` bits of `v` into the field; the bits above are dropped, as a
    /// part select in the RTL drops them.
    pub fn set(&self, words: &mut [u32], v: u64) {
        self.write(words, v)
    }

    /// The field's value in little-endian bytes (a port's tdata byte order: byte i at
    /// The field of a word of at most 128 bits held as a number (the cycle models' RAM words).
    pub fn of(&self, w: u128) -> u64 {
        assert!(self.lo + self.width <= 128 && self.width <= 64, "{} does not fit a u128", self.name);
        (w >> self.lo) as u64 & (u64::MAX >> (64 - self.width))
    }

    /// `w` with the field set to the low bits of `v`.
    pub fn with(&self, w: u128, v: u64) -> u128 {
        let m = (u64::MAX >> (64 - self.width)) as u128;
        w & !(m << self.lo) | (v as u128 & m) << self.lo
    }

    /// [8i+7:8i]). At most 64 bits.
    pub fn get_le(&self, b: &[u8]) -> u64 {
        self.read(b)
    }

    /// Writes the low `width` bits of `v` into the field of little-endian bytes `b`.
    pub fn set_le(&self, b: &mut [u8], v: u64) {
        self.write(b, v)
    }

    /// The field's value in words of `W::BITS` bits, word 0 lowest: `get` and `get_le`.
    fn read<W: Word>(&self, words: &[W]) -> u64 {
        assert!(self.width <= 64, "{} is wider than 64 bits: read it by parts", self.name);
        let mut v = 0u64;
        let mut i = 0;
        while i < self.width {
            let (word, at, n) = self.chunk(i, W::BITS);
            v |= (words[word].to_u64() >> at & ((1u64 << n) - 1)) << i;
            i += n;
        }
        v
    }

    /// Writes the low `width` bits of `v` into words of `W::BITS` bits: `set` and `set_le`.
    fn write<W: Word>(&self, words: &mut [W], v: u64) {
        assert!(self.width <= 64, "{} is wider than 64 bits: write it by parts", self.name);
        let mut i = 0;
        while i < self.width {
            let (word, at, n) = self.chunk(i, W::BITS);
            let mask = ((1u64 << n) - 1) << at;
            let w = words[word].to_u64();
            words[word] = W::from_u64(w & !mask | (v >> i) << at & mask);
            i += n;
        }
    }

    /// The bytes of a field that is a byte string (a header piece kept in wire order), for
    /// `b[f.bytes()]` on little-endian bytes.
    pub fn bytes(&self) -> std::ops::Range<usize> {
        assert!(self.lo % 8 == 0 && self.width % 8 == 0, "{} is not whole bytes", self.name);
        self.lo / 8..(self.lo + self.width) / 8
    }

    /// Where bit `i` of the field is in words of `bits` bits (word, bit in it), and how many of
    /// the field's bits from there lie in that word.
    fn chunk(&self, i: usize, bits: usize) -> (usize, usize, usize) {
        let b = self.lo + i;
        (b / bits, b % bits, (bits - b % bits).min(self.width - i))
    }

    /// The bits as the docs write them: `[hi:lo]`, or `n` for one bit.
    pub fn bits(&self) -> String {
        if self.width == 1 {
            format!("{}", self.lo)
        } else {
            format!("[{}:{}]", self.lo + self.width - 1, self.lo)
        }
    }
}

impl Layout {
    /// The markdown table docs/modules/ shows for this layout.
    pub fn table(&self) -> String {
        let mut t = String::from("| bits | field | meaning |\n|---|---|---|\n");
        for f in self.fields {
            t += &format!("| {} | `{}` | {} |\n", f.bits(), f.name, f.about);
        }
        t
    }

    /// The first field that overlaps the one before it, leaves the word, or is out of order.
    pub fn fault(&self) -> Option<String> {
        let mut next = 0;
        for f in self.fields {
            if f.width == 0 || f.lo < next || f.lo + f.width > self.width {
                return Some(format!("{}: field {} at {}+{} misplaced", self.name, f.name, f.lo, f.width));
            }
            next = f.lo + f.width;
        }
        None
    }
}

// `layout!(NAME: Type, "name", WIDTH, "docs page", { field: lo, width, "about"; ... })` defines
// the struct `Type` with one `Field` per field, the constant `NAME` of it, and `Type::LAYOUT`.
macro_rules! layout {
    ($konst:ident : $ty:ident, $name:literal, $width:expr, $doc:literal, { $($f:ident : $lo:expr, $w:expr, $about:literal;)* }) => {
        #[derive(Clone, Copy, Debug)]
        pub struct $ty {
            $(pub $f: Field,)*
        }
        pub const $konst: $ty = $ty {
            $($f: Field { name: stringify!($f), lo: $lo, width: $w, about: $about },)*
        };
        impl $ty {
            pub const WIDTH: usize = $width;
            pub const LAYOUT: Layout =
                Layout { name: $name, width: $width, doc: $doc, fields: &[$($konst.$f,)*] };
        }
    };
}

layout!(VERDICT: VerdictLayout, "verdict", 640, "docs/modules/rx_pipe.md", {
    code: 0, 8, "0 accepted, else the drop reason (rx_pipe's table above)";
    opcode: 8, 8, "BTH opcode";
    ack_req: 16, 1, "BTH AckReq";
    becn: 17, 1, "BTH BECN (the ECN-Echo of an ACK)";
    fecn: 18, 1, "BTH FECN";
    solicited: 19, 1, "BTH SE";
    telemetry: 20, 1, "a telemetry header is present";
    echo: 21, 1, "its E (echo) bit";
    ecn: 22, 2, "IPv4 ECN";
    nhop: 24, 3, "telemetry hop count";
    feedback: 27, 1, "Rx-HPCC feedback: F set in an echo with no hops; `hops` word 0 is then W (slot 0's bytes 4-7, wire order; its bytes 0-3 are dropped)";
    pad: 28, 2, "BTH PadCnt";
    len: 32, 16, "frame length: 64 x (beats - 1, at most 255) + 1 + highest kept lane of the last beat";
    payload_at: 48, 7, "payload offset in the frame (CNP: of its 16 reserved bytes)";
    dest_qp: 64, 24, "destination QP";
    aeth_syndrome: 88, 8, "AETH syndrome (0 without AETH)";
    psn: 96, 24, "PSN";
    aeth_msn: 128, 24, "AETH MSN";
    payload_len: 160, 16, "payload length (pad excluded)";
    udp_src_port: 176, 16, "UDP source port";
    reth_va: 192, 64, "RETH VA, wire byte order (first byte in the low bits)";
    reth_rkey: 256, 32, "RETH R_Key, wire byte order";
    reth_len: 288, 32, "RETH DMA length, wire byte order";
    hops: 320, 320, "hop words 0-4, 64 bits each from bit 320, wire byte order; unused slots 0";
});

layout!(RX_QP: RxQpLayout, "rx_qp", 319, "docs/modules/rx_ctx.md", {
    valid: 0, 1, "the QP exists";
    qpn: 1, 24, "its QPN";
    mtu: 25, 14, "path MTU in bytes";
    epsn: 39, 24, "responder: expected PSN";
    nak: 63, 1, "responder: a sequence NAK was sent and not yet repaired";
    act: 64, 1, "responder: a multi-packet WRITE is in progress";
    addr: 65, 64, "responder: the next WRITE packet's address";
    left: 129, 32, "responder: the WRITE's bytes left";
    msn: 161, 24, "responder: MSN";
    una: 185, 32, "requester: snd_una";
    sent: 217, 32, "requester: the next PSN to send";
    rd: 249, 64, "requester: the next READ response's address";
    gap: 313, 1, "requester: a READ response was lost (go-back-N out)";
    ract: 314, 1, "requester: a READ is posted";
    mtu_log: 315, 4, "log2 of the MTU, 15 if it is not a power of two";
});

layout!(HPCC_EVENT: HpccEventLayout, "hpcc_event", 480, "docs/modules/cc_module.md", {
    flow: 0, 16, "flow (>= 2^F: dropped, counted in `stat_bad_flow`)";
    rx: 16, 1, "0: ACK or telemetry response (sender, lines 21-27); 1: Rx-HPCC (receiver, lines 28-34)";
    init: 17, 1, "(re)initialize the flow instead (flow creation); nothing else happens";
    count: 24, 3, "hop count; 0, 6 and 7 are ignored";
    seq: 32, 32, "ACK seq";
    snd_nxt: 64, 32, "snd_nxt";
    now: 96, 64, "time, ns";
    hops: 160, 320, "hop records 0-4, 64 bits each from bit 160 (`IntHop::word`)";
});

layout!(HPCC_FRONT: HpccFrontLayout, "hpcc_front", 420, "docs/modules/cc_module.md", {
    last: 0, 320, "L: the hop records of the flow's last event that was not ignored, 64 bits each";
    count: 320, 3, "hop count of L (an event with another count only records its hops as L)";
    lus: 323, 32, "lastUpdateSeq (line 23: snd_nxt at the last W update)";
    lut: 355, 64, "lastUpdateTime, ns (line 33: the last Rx-HPCC update)";
    updated: 419, 1, "an Rx-HPCC update has happened (`lut` holds a time)";
});

layout!(HPCC_RESULT: HpccResultLayout, "hpcc_result", 152, "docs/modules/cc_module.md", {
    flow: 0, 16, "flow";
    action: 16, 2, "0 ignored, 1 L recorded, 2 W updated, 3 W and Wc updated";
    feedback: 18, 1, "Rx-HPCC: this W goes back to the sender (line 31)";
    rx: 19, 1, "the event's kind (`rx`)";
    w: 24, 32, "W after the event, UQ24.8 bytes";
    wc: 56, 32, "Wc, UQ24.8 bytes";
    u: 88, 24, "U, UQ8.16";
    inc_stage: 112, 8, "incStage";
    rate: 120, 32, "R = W / T, UQ16.16 bytes per cycle, at most the line rate";
});

// A switch hop's 64-bit telemetry record (docs/packet-formats.md), as `IntHop::word` packs
// it, the switch model writes it and cc_hop_util reads it.
layout!(INT_HOP: IntHopLayout, "int_hop", 64, "docs/packet-formats.md", {
    qlen: 0, 17, "egress queue length / 80 bytes, saturating at 2^17 - 1";
    tx_bytes: 17, 20, "egress port's transmitted bytes / 128, modulo 2^20";
    ts: 37, 24, "egress timestamp, ns, modulo 2^24";
    rate: 61, 3, "the egress link's line-rate code (`LineRate`; 5-7 have no rate)";
});

// cc_hop_util's pipeline words: the tag of its first multiplier (M1) and of its divider;
// the second multiplier's (M2) is the divider's below `inv_b` (a 67-bit view).
layout!(HOP_M1_TAG: HopM1TagLayout, "hop_m1_tag", 94, "docs/modules/cc_hop_util.md", {
    tag: 0, 16, "the caller's context (`in_tag`)";
    usable: 16, 1, "the rate code has a rate (`inv_bt` is not 0)";
    fwd: 17, 1, "the timestamp moved forward: 0 < dt < 2^23";
    rate_ok: 18, 1, "and the txBytes difference is below 2^19: the divider computes txRate";
    dt: 19, 24, "timestamp difference, ns";
    dtx: 43, 19, "txBytes difference, 128-byte units";
    inv_b: 62, 32, "round(2^24 / B) of the hop's rate code";
});

layout!(HOP_DIV_TAG: HopDivTagLayout, "hop_div_tag", 99, "docs/modules/cc_hop_util.md", {
    tag: 0, 16, "the caller's context (`in_tag`)";
    usable: 16, 1, "the rate code has a rate";
    fwd: 17, 1, "the timestamp moved forward: tau is dt";
    dt: 18, 24, "timestamp difference, ns";
    q_sat: 42, 25, "the queue term qlen x inv_bt >> 24, at most 2^24";
    inv_b: 67, 32, "round(2^24 / B), M2's second operand (not in M2's tag)";
});

// A hop as cc_hpcc's SEL ranks it (cc_hop_util's `out_cand`).
layout!(HPCC_CAND: HpccCandLayout, "hpcc_cand", 49, "docs/modules/cc_module.md", {
    valid: 0, 1, "a candidate: the hop's result is valid and its rate code has a rate";
    u: 1, 24, "u', UQ8.16, saturated";
    tau: 25, 24, "tau, ns (0 unless the timestamp moved forward)";
});

// cc_hpcc's pipeline words. The event's context rides in the tags of the hop units, the
// multipliers and the divider from HOP to OUT; the W stage keeps the flow's W word.
layout!(HPCC_CTX: HpccCtxLayout, "hpcc_ctx", 16, "docs/modules/cc_module.md", {
    flow: 0, 12, "flow (F <= 12)";
    action: 12, 2, "the result's action (`HPCC_RESULT`); from `ACT_W` on, U and W are written";
    init: 14, 1, "an init event: U, W and Wc are set to their initial values";
    rx: 15, 1, "the event's kind (`HPCC_EVENT`'s `rx`)";
});

layout!(HPCC_WT_TAG: HpccWtTagLayout, "hpcc_wt_tag", 41, "docs/modules/cc_module.md", {
    ctx: 0, 16, "the context (`HPCC_CTX`)";
    any: 16, 1, "a hop was chosen (SEL's best candidate is valid)";
    u: 17, 24, "its u', UQ8.16";
});

layout!(HPCC_U_TAG: HpccUTagLayout, "hpcc_u_tag", 42, "docs/modules/cc_module.md", {
    ctx: 0, 16, "the context (`HPCC_CTX`)";
    update: 16, 1, "U is updated (W path and a hop chosen)";
    neg: 17, 1, "with `update`: u' < U, the step is subtracted";
    u_old: 18, 24, "U as read, UQ8.16";
});

layout!(HPCC_R_TAG: HpccRTagLayout, "hpcc_r_tag", 40, "docs/modules/cc_module.md", {
    ctx: 0, 16, "the context (`HPCC_CTX`)";
    u: 16, 24, "the new U, UQ8.16";
});

layout!(HPCC_W: HpccWLayout, "hpcc_w", 72, "docs/modules/cc_module.md", {
    w: 0, 32, "W, UQ24.8 bytes";
    wc: 32, 32, "Wc, UQ24.8 bytes";
    inc_stage: 64, 8, "incStage";
});

layout!(HPCC_WB: HpccWbLayout, "hpcc_wb", 114, "docs/modules/cc_module.md", {
    ctx: 0, 16, "the context (`HPCC_CTX`)";
    branch: 16, 1, "line 13: U >= eta or incStage >= maxStage: W = Wc / (U / eta) + W_AI";
    u: 17, 24, "the new U, UQ8.16";
    w_old: 41, 72, "the flow's W word as read (`HPCC_W`)";
});

layout!(HPCC_RT_TAG: HpccRtTagLayout, "hpcc_rt_tag", 112, "docs/modules/cc_module.md", {
    ctx: 0, 16, "the context (`HPCC_CTX`)";
    u: 16, 24, "the new U, UQ8.16";
    w_new: 40, 72, "the flow's W word after the event (`HPCC_W`)";
});

layout!(LDCP_EVENT: LdcpEventLayout, "ldcp_event", 128, "docs/modules/cc_module.md", {
    flow: 0, 16, "flow (>= 2^F: dropped, counted in `stat_bad_flow`)";
    kind: 16, 2, "0 ACK, 1 loss, 2 sub-packet timer, 3 (re)initialize the flow";
    ece: 18, 1, "ECN-Echo of the ACK";
    acked: 32, 32, "packets acknowledged (saturated to 65535 inside)";
    now: 64, 64, "time, ns";
});

layout!(LDCP_STATE: LdcpStateLayout, "ldcp_state", 178, "docs/modules/cc_module.md", {
    fast_start: 0, 1, "in the fast start";
    armed: 1, 1, "the sub-packet timer is armed";
    cw: 2, 32, "congestion window, UQ16.16 packets";
    fs_acked: 34, 16, "packets acknowledged in the fast start";
    now: 50, 64, "the flow's clock: the latest event time, ns";
    tick: 114, 64, "next sub-packet timer expiry, ns";
});

// cc_ldcp's context word, carried down the pipeline with each event. B builds bits 217:0;
// C3 adds cw_mid and eq2 (251 bits), E2 adds cw_s (283): hdl/build.rs's stage views.
layout!(LDCP_CTX: LdcpCtxLayout, "ldcp_ctx", 283, "docs/modules/cc_module.md", {
    flow: 0, 16, "flow";
    kind: 16, 2, "the event's kind";
    ece: 18, 1, "ECN-Echo of the ACK";
    stable: 19, 1, "a stable-phase update: the ACK's packets count in eq. 2 or the sub-packet steps";
    rearm: 20, 1, "the update (re)arms the sub-packet timer if the new cw needs it";
    timer: 21, 1, "a sub-packet timer event";
    fast_start: 22, 1, "in the fast start after B";
    armed: 23, 1, "the timer is armed after B";
    due: 24, 1, "max(now, event time) has reached the timer's tick";
    n: 26, 16, "packets acknowledged that count in the stable phase";
    fs_acked: 42, 16, "packets acknowledged in the fast start after B";
    cw: 58, 32, "cw after B, UQ16.16 packets";
    now: 90, 64, "the flow's clock after B, ns";
    tick: 154, 64, "the timer's tick as read, ns";
    cw_mid: 218, 32, "C3: cw after the sub-packet steps";
    eq2: 250, 1, "C3: eq. 2 applies (stable, n > 0, cw_mid >= 1 packet)";
    cw_s: 251, 32, "E2: cw after eq. 2's decrease and the clamp";
});

// cc_ldcp's O-stage word (`d3`): the result's fields F2 sets, packed, carried beside the
// window and rate products (the 224-bit result word would carry 91 zero bits down the line).
layout!(LDCP_O: LdcpOLayout, "ldcp_o", 133, "docs/modules/cc_module.md", {
    flow: 0, 16, "flow";
    kind: 16, 2, "the event's kind";
    grant: 18, 1, "the timer grants a packet";
    fast_start: 19, 1, "in the fast start";
    armed: 20, 1, "the sub-packet timer is armed";
    fs_acked: 21, 16, "packets acknowledged in the fast start";
    cw: 37, 32, "the new cw, UQ16.16 packets";
    tick: 69, 64, "next timer expiry, ns (0 when not armed)";
});

layout!(LDCP_RESULT: LdcpResultLayout, "ldcp_result", 224, "docs/modules/cc_module.md", {
    flow: 0, 16, "flow";
    kind: 16, 2, "the event's kind";
    grant: 18, 1, "the timer grants a packet";
    fast_start: 19, 1, "in the fast start";
    armed: 20, 1, "the sub-packet timer is armed";
    fs_acked: 32, 16, "packets acknowledged in the fast start";
    cw: 64, 32, "congestion window, UQ16.16 packets";
    window: 96, 32, "window, bytes (`window_bytes`)";
    rate: 128, 32, "rate, UQ16.16 bytes per cycle (`rate_q16`)";
    tick: 160, 64, "next timer expiry, ns (0 when not armed)";
});

layout!(DCQCN_EVENT: DcqcnEventLayout, "dcqcn_event", 128, "docs/modules/cc_module.md", {
    flow: 0, 16, "flow (>= 2^F: dropped, counted in `stat_bad_flow`)";
    kind: 16, 2, "0 CNP, 1 timer, 2 tx, 3 (re)initialize the flow";
    bytes: 32, 32, "bytes sent (tx)";
    now: 64, 64, "time, ns";
});

layout!(DCQCN_STATE: DcqcnStateLayout, "dcqcn_state", 492, "docs/modules/cc_module.md", {
    rc: 0, 40, "Rc, the current rate, UQ16.24 bytes per cycle";
    rt: 40, 40, "Rt, the target rate, UQ16.24 bytes per cycle";
    alpha: 80, 25, "alpha, UQ1.24";
    active: 105, 1, "the flow has been cut at least once";
    last_stage: 106, 2, "last increase stage: 0 none, 1 fast recovery, 2 additive, 3 hyper";
    t_count: 108, 32, "timer expiries since the last cut";
    bc_count: 140, 32, "byte-counter expiries since the last cut";
    bytes: 172, 64, "bytes since the last byte-counter expiry";
    now: 236, 64, "the flow's clock: the latest event time, ns";
    last_cut: 300, 64, "time of the last cut, ns";
    last_cnp: 364, 64, "time of the last CNP, ns";
    next_increase: 428, 64, "time of the next timer increase, ns (2^64 - 1: none)";
});

layout!(DCQCN_RESULT: DcqcnResultLayout, "dcqcn_result", 588, "docs/modules/cc_module.md", {
    flow: 0, 16, "flow";
    kind: 16, 2, "the event's kind";
    rate: 32, 32, "Rc as UQ16.16 bytes per cycle (`rate_q16`, Rc >> 8)";
    window: 64, 32, "window, bytes (`window_bytes`)";
    state: 96, 492, "the flow's whole state after the event (`dcqcn_state`)";
});

// cc_dcqcn's pipeline words: what waits in its delay lines while Rc and Rt go through the
// increase blocks and alpha through the decay chain (dl_a holds `DCQCN_HOLD` from stage 5,
// dl_b `DCQCN_HOLD_B` from 14, dl_c `DCQCN_HOLD_C` from 55), and the first increase block's tag.
layout!(DCQCN_HOLD: DcqcnHoldLayout, "dcqcn_hold", 406, "docs/modules/cc_module.md", {
    upper: 0, 387, "the state after the event from `active` up (`DCQCN_STATE`'s bits [491:105]), its last stage included";
    cut: 387, 1, "the event cuts the rate (a CNP outside the cut interval)";
    ev: 388, 18, "the event's flow and kind (`DCQCN_EVENT`'s bits [17:0])";
});

layout!(DCQCN_HOLD_B: DcqcnHoldBLayout, "dcqcn_hold_b", 486, "docs/modules/cc_module.md", {
    rc: 0, 40, "Rc after the increases, UQ16.24";
    rt: 40, 40, "Rt after the increases, or Rc on a cut, UQ16.24";
    hold: 80, 406, "`DCQCN_HOLD`";
});

layout!(DCQCN_HOLD_C: DcqcnHoldCLayout, "dcqcn_hold_c", 446, "docs/modules/cc_module.md", {
    rt: 0, 40, "Rt, UQ16.24";
    hold: 40, 406, "`DCQCN_HOLD`";
});

layout!(DCQCN_INC_TAG: DcqcnIncTagLayout, "dcqcn_inc_tag", 41, "docs/modules/cc_module.md", {
    step: 0, 40, "the byte-counter increase's step (0, R_AI or R_HAI), UQ16.24";
    fire: 40, 1, "the byte counter expired: the second increase applies";
});

layout!(CC_EVENT: CcEventLayout, "cc_event", 512, "docs/modules/cc_module.md", {
    flow: 0, 16, "flow (>= 2^F: dropped, counted in `stat_bad_flow`)";
    kind: 16, 4, "type: 0 ACK, 1 data-packet telemetry at the receiver, 2 loss/NAK, 3 timer tick, 4 CNP, 5 tx bytes, 6 create flow; 7..15 used by no algorithm";
    ece: 20, 1, "ECN-Echo (LDCP ACK)";
    feedback: 21, 1, "Rx-HPCC feedback: the ACK carried the receiver's W, in `[191:160]` (hop record 0's place; the hop count is 0). cc_module ignores it; hpcc_nic_core turns it into an Update ahead of cc_module";
    count: 24, 3, "hop count (HPCC)";
    seq: 32, 32, "ACK seq (type 0, HPCC) or tx bytes (type 5, DCQCN)";
    snd_nxt: 64, 32, "snd_nxt (HPCC)";
    now: 96, 64, "time, ns (all engines)";
    hops: 160, 320, "five 64-bit hop records, cc_hpcc's layout (`hpcc_event`'s `hops`, at the same bits)";
    acked: 480, 16, "packets acknowledged (type 0, LDCP; cc_ldcp's 32-bit field zero-extended)";
    alg: 496, 2, "algorithm (type 6): 0 HPCC++ sender, 1 Rx-HPCC, 2 LDCP, 3 DCQCN";
});

layout!(UPDATE: UpdateLayout, "update", 80, "docs/modules/cc_module.md", {
    rate: 0, 32, "rate, UQ16.16 bytes per cycle";
    window: 32, 32, "window, bytes";
    flow: 64, 16, "flow (flow_sched: >= 2^F ignored)";
});

layout!(FEEDBACK: FeedbackLayout, "feedback", 48, "docs/modules/cc_module.md", {
    w: 0, 32, "W, UQ24.8 bytes";
    flow: 32, 16, "flow";
});

layout!(SCHED_CTRL: SchedCtrlLayout, "sched_ctrl", 88, "docs/modules/flow_sched.md", {
    rate: 0, 32, "rate, UQ16.16 bytes per cycle";
    window: 32, 32, "window, bytes";
    flow: 64, 16, "flow (>= 2^F: ignored)";
    create: 80, 1, "1 create, 0 remove";
    pkt_shift: 81, 4, "the flow's log2 packet bytes (create; 0 = `cfg_pkt_shift` at each visit)";
    reserved: 85, 3, "zero; otherwise the op is ignored";
});

layout!(NOTIFY: NotifyLayout, "notify", 48, "docs/modules/flow_sched.md", {
    bytes: 0, 32, "newly acknowledged bytes (rx_ctx: packets, shifted by `cfg_pkt_shift` on the way out)";
    flow: 32, 16, "flow (>= 2^F: ignored)";
});

layout!(DMA_CMD: DmaCmdLayout, "dma_cmd", 128, "docs/modules/rx_dma.md", {
    addr: 0, 64, "host address";
    offset: 64, 7, "payload offset in the frame, 0..127";
    len: 80, 14, "payload length, 0..16383";
    write: 96, 1, "write the payload (0: discard the frame)";
    flow: 112, 16, "flow id, passed through";
});

layout!(DMA_WR: DmaWrLayout, "dma_wr", 96, "docs/modules/rx_dma.md", {
    addr: 0, 64, "host address";
    len: 64, 14, "payload bytes, 1..9216 (a frame is kept up to 9 KB)";
    flow: 80, 16, "flow id (the command's)";
});

// tx_ctx's control word has two forms, told apart by `op`; fields of one name are at the same
// bits in both (`VARIANTS`, checked by a test). Remove is `op` and `flow` alone.
layout!(TX_CREATE: TxCreateLayout, "tx_create", 512, "docs/modules/tx_ctx.md", {
    op: 0, 2, "op: 0 none (bad), 1 create, 2 remove, 3 post (`tx_post`)";
    flow: 16, 16, "flow id";
    template: 64, 288, "template = tx_pipe descriptor bytes 0..35 (`TxDesc::to_bytes()[..36]`); bytes 27 (opcode), 35 (AckReq) and TOS bits 1:0 are replaced per packet";
    mtu: 352, 14, "MTU, payload bytes per packet, 1..16383";
    telemetry: 368, 1, "telemetry header on data frames";
    probe: 369, 1, "probe mode: probe requests (PktRecv kind 3) for the flow give probe frames";
    cnp: 370, 1, "ignored by tx_ctx: nic_datapath's CNP enable (DCQCN notification point, [nic_datapath.md](nic_datapath.md#cnps-dcqcns-notification-point))";
    fast_start: 384, 16, "LDCP fast-start packet count";
});

layout!(TX_POST: TxPostLayout, "tx_post", 512, "docs/modules/tx_ctx.md", {
    op: 0, 2, "op: 3 post (others: `tx_create`)";
    flow: 16, 16, "flow id";
    reth: 64, 128, "RETH bytes as on the wire: remote address (8), R_Key (4), message length (4), big-endian";
    local: 192, 64, "local (host) address of the message";
    first_psn: 256, 24, "first PSN";
    read: 280, 1, "READ: the message is an RDMA READ (READ requests instead of WRITE packets)";
});

// tx_ctx's PktRecv word (from rx_ctx through read_split and nic_datapath): `kind` 4 has its own
// form, `read_resp`; the others are `pkt_recv`.
layout!(PKT_RECV: PktRecvLayout, "pkt_recv", 512, "docs/modules/tx_ctx.md", {
    flow: 0, 16, "flow id";
    echo: 16, 1, "telemetry echo present (kind 0; kind 2 always has one)";
    kind: 17, 3, "kind: 0 ACK / NAK to send; 1 go-back-N: a NAK received for this flow, `psn` is where to resend from, no descriptor, AETH / echo ignored; 2 telemetry response to send (PSN, nhop, hop slots used; AETH ignored); 3 probe request (only the flow id used); 4 READ response to send (`read_resp`); 5 CNP to send (only the flow id used); 6-7 dropped (`stat_recv_drop`)";
    ece: 20, 1, "kind 0: ECN-Echo, the ACK / NAK sets BTH BECN (its request arrived CE-marked)";
    feedback: 21, 1, "kind 0 with `echo`: the echo carries Rx-HPCC feedback (nhop 0, W in hop slot 0's bytes 4-7; nic_datapath's gate sets it): descriptor byte 57 bit 0, tx_pipe sets the header's F bit ([packet-formats.md](../packet-formats.md#rx-hpcc-feedback-f--1-the-receivers-window-in-an-ack))";
    psn: 32, 24, "PSN, big-endian as on the wire (descriptor bytes 36..38)";
    aeth: 64, 32, "AETH as on the wire: syndrome, MSN (descriptor bytes 40..43)";
    nhop: 96, 8, "nhop of the echo";
    hops: 128, 320, "hop slots 0-4 as on the wire (descriptor bytes 64..103)";
});

layout!(READ_RESP: ReadRespLayout, "read_resp", 512, "docs/modules/tx_ctx.md", {
    flow: 0, 16, "flow id";
    kind: 17, 3, "4";
    pos: 24, 2, "position, so the opcode: 0 Only 0x10, 1 First 0x0D, 2 Middle 0x0E (no AETH: the descriptor's AETH bytes are 0), 3 Last 0x0F ([read_split](read_split.md) writes it)";
    psn: 32, 24, "PSN, big-endian as on the wire";
    aeth: 64, 32, "AETH as on the wire";
    mtu_log: 104, 4, "the whole READ's MTU log2, for read_split; ignored by tx_ctx";
    len: 112, 16, "payload length; tx_ctx uses bits 13:0";
    total: 128, 32, "the whole READ's length, for read_split; ignored by tx_ctx";
    va: 448, 64, "host address of the payload";
});

layout!(DMA_RD: DmaRdLayout, "dma_rd", 128, "docs/modules/tx_ctx.md", {
    addr: 0, 64, "host address";
    len: 64, 14, "length in bytes, 1..16383";
    flow: 80, 16, "flow id";
});

// tx_ctx's two per-flow words (its ctx and msg block RAMs).
layout!(TX_FLOW: TxFlowLayout, "tx_flow", 320, "docs/modules/tx_ctx.md", {
    template: 0, 288, "the create's template";
    mtu: 288, 14, "MTU";
    telemetry: 302, 1, "telemetry header on data frames";
    fast_start: 303, 16, "fast-start packet count";
    probe: 319, 1, "probe mode";
});

layout!(TX_MSG: TxMsgLayout, "tx_msg", 323, "docs/modules/tx_ctx.md", {
    valid: 0, 1, "the flow exists (create)";
    pending: 1, 1, "a message has packets to send";
    offset: 2, 32, "bytes of the message sent (the next packet's offset)";
    len: 34, 32, "message length";
    local: 66, 64, "local (host) address of the message";
    psn: 130, 24, "the next packet's PSN";
    sent: 154, 16, "packets sent since create, saturating (fast start)";
    reth: 170, 128, "the post's RETH bytes";
    first_psn: 298, 24, "the message's first PSN";
    read: 322, 1, "the message is a READ";
});

// tx_pipe's descriptor: 128 bytes, byte i at [8i+7:8i], multi-byte fields big-endian as on
// the wire. tx_ctx keeps bytes 0..35 per flow as the template (`tx_flow`'s `template`).
layout!(TX_DESC: TxDescLayout, "tx_desc", 1024, "docs/modules/tx_pipe.md", {
    eth_dst: 0, 48, "Ethernet destination MAC";
    eth_src: 48, 48, "Ethernet source MAC";
    ip_src: 96, 32, "IPv4 source address";
    ip_dst: 128, 32, "IPv4 destination address";
    tos: 160, 8, "IPv4 TOS = DSCP << 2 \\| ECN (the ECN codepoint per packet goes here)";
    ttl: 168, 8, "IPv4 TTL";
    ip_id: 176, 16, "IPv4 identification";
    ip_flags: 192, 8, "bit 6: DF";
    udp_sport: 200, 16, "UDP source port";
    opcode: 216, 8, "BTH OpCode";
    se_m: 224, 8, "bit 7 SE, bit 6 M (MigReq)";
    pkey: 232, 16, "P_Key";
    fb: 248, 8, "bit 7 FECN, bit 6 BECN";
    dest_qp: 256, 24, "DestQP";
    ack_req: 280, 8, "bit 7 AckReq";
    psn: 288, 24, "PSN";
    tele: 312, 8, "bit 0: telemetry header present (BTH T)";
    ext: 320, 128, "RETH (VA 8, R_Key 4, DMA length 4 bytes) for 0x06, 0x0A, 0x0C; AETH (syndrome 1, MSN 3) in its first 4 bytes for 0x0D, 0x0F, 0x10, 0x11";
    nhop: 448, 8, "nhop of an echoed telemetry header";
    feedback: 456, 8, "bit 0: the echoed telemetry header carries Rx-HPCC feedback (header byte 0 bit 2, F; W is in hop slot 0)";
    payload_len: 464, 16, "payload length in bytes (bits 13:0 used, 0..16383; the regressions go up to 4,296)";
    hops: 512, 320, "hop slots 0-4 of an echoed telemetry header (8 bytes each)";
});

// A frame's first 54 bytes (Ethernet, IPv4, UDP, BTH) in a 1024-bit header word, frame byte i
// at bits 8i+7:8i (AXI-Stream lane order). tx_pipe builds it from a descriptor; rx_pipe_decode
// reads a received frame through it. A field of several bytes holds them in wire order (the
// number byte-swapped); fields of a byte's bits are the protocol's. Bits not named are sent 0
// and not read. The RETH / AETH / CNP block and the telemetry header follow at offsets set by
// the opcode (`aeth`, `reth`, `telemetry` below).
layout!(TX_HDR: TxHdrLayout, "tx_hdr", 1024, "docs/modules/tx_pipe.md", {
    eth_dst: 0, 48, "Ethernet destination MAC (descriptor)";
    eth_src: 48, 48, "Ethernet source MAC (descriptor)";
    ethertype: 96, 16, "0x0800 (IPv4); others are dropped (`NotIpv4`)";
    ihl: 112, 4, "IHL: 5 (20-byte header; others are dropped, `Ipv4Options`)";
    version: 116, 4, "IPv4 version: 4";
    ecn: 120, 2, "ECN (descriptor TOS bits 1:0)";
    dscp: 122, 6, "DSCP (descriptor TOS bits 7:2)";
    total_len: 128, 16, "IPv4 total length";
    ip_id: 144, 16, "identification (descriptor)";
    frag_hi: 160, 5, "fragment offset bits 12:8: 0";
    mf: 165, 1, "MF (more fragments): 0";
    df: 166, 1, "DF (descriptor `ip_flags` bit 6)";
    frag_lo: 168, 8, "fragment offset bits 7:0: 0";
    ttl: 176, 8, "TTL (descriptor)";
    protocol: 184, 8, "17 (UDP)";
    ip_csum: 192, 16, "IPv4 header checksum";
    ip_src: 208, 32, "source address (descriptor)";
    ip_dst: 240, 32, "destination address (descriptor)";
    udp_sport: 272, 16, "UDP source port (descriptor)";
    udp_dport: 288, 16, "4791 (RoCEv2)";
    udp_len: 304, 16, "UDP length";
    udp_csum: 320, 16, "UDP checksum: 0 (none) when sent";
    opcode: 336, 8, "BTH OpCode (descriptor)";
    tver: 344, 4, "BTH TVer: 0";
    pad: 348, 2, "BTH PadCnt";
    mig: 350, 1, "BTH M, MigReq (descriptor `se_m` bit 6)";
    se: 351, 1, "BTH SE, solicited event (descriptor `se_m` bit 7)";
    pkey: 352, 16, "P_Key (descriptor)";
    becn: 374, 1, "BTH BECN (descriptor `fb` bit 6)";
    fecn: 375, 1, "BTH FECN (descriptor `fb` bit 7)";
    dest_qp: 376, 24, "DestQP (descriptor)";
    tele: 406, 1, "BTH T: a telemetry header follows (first bit of resv7)";
    ack_req: 407, 1, "BTH AckReq (descriptor `ack_req` bit 7)";
    psn: 408, 24, "PSN (descriptor)";
});

// The blocks after the BTH, each from its first byte (byte i at bits 8i+7:8i, several bytes in
// wire order). tx_pipe writes them; rx_pipe_decode reads them at the opcode's offset.
layout!(AETH: AethLayout, "aeth", 32, "docs/packet-formats.md", {
    syndrome: 0, 8, "syndrome (bit 7 reserved; bits 6:5 type: ACK, RNR NAK, reserved, NAK)";
    msn: 8, 24, "MSN, message sequence number";
});

layout!(RETH: RethLayout, "reth", 128, "docs/packet-formats.md", {
    va: 0, 64, "virtual address";
    rkey: 64, 32, "R_Key";
    dma_len: 96, 32, "DMA length (bytes of the whole message)";
});

layout!(TELEMETRY: TelemetryLayout, "telemetry", 352, "docs/packet-formats.md", {
    feedback: 2, 1, "F: Rx-HPCC feedback in hop slot 0 (read only with E = 1 and nhop = 0)";
    echo: 3, 1, "E: 0 collecting (data, probes), 1 echo (ACKs, responses)";
    version: 4, 4, "version: 1";
    nhop: 8, 8, "hop slots in use, 0..=5";
    hops: 32, 320, "hop slots 0-4, 64 bits each: `IntHop::word` in wire order, so the line-rate code B is bits 7:5 of the slot's byte 0; with F, W is the slot's bytes 4-7";
});

// rx_ctx's control word in its two forms, told apart by `op` (3: `rx_read`).
layout!(RX_CREATE: RxCreateLayout, "rx_create", 128, "docs/modules/rx_ctx.md", {
    op: 0, 3, "op: 1 create (or re-create), 2 remove, 3 READ posted (`rx_read`), 4 retransmission timeout; 0, 5, 6 and 7 are bad";
    mtu: 16, 14, "MTU of the QP's packets (the peer's WRITEs, READ responses both ways), 1..16383 (0: bad on create)";
    qpn: 32, 24, "QPN (flow = its low F bits)";
    epsn: 64, 24, "first PSN expected from the peer";
    spsn: 96, 24, "first PSN this QP sends (snd_una = sent = it)";
});

layout!(RX_READ: RxReadLayout, "rx_read", 128, "docs/modules/rx_ctx.md", {
    op: 0, 3, "3: a READ posted";
    mtu: 16, 14, "as in `rx_create` (not used by op 3)";
    qpn: 32, 24, "QPN (must be the one bound to the flow)";
    addr: 64, 64, "local address the READ's responses are written from";
});

// tx_ctx's reports: a packet sent (for rx_ctx) and idle / wake (for flow_sched).
layout!(SENT: SentLayout, "sent", 40, "docs/modules/rx_ctx.md", {
    flow: 0, 16, "flow";
    psn: 16, 24, "PSN of the WRITE packet or READ request sent";
});

layout!(SLEEP: SleepLayout, "sleep", 17, "docs/modules/flow_sched.md", {
    flow: 0, 16, "flow (>= 2^F: ignored)";
    wake: 16, 1, "0 idle: a PktSend of the flow found nothing to send; 1 wake: it has something to send again";
});

// hpcc_nic_core's flow table entry (its `flows` RAM, one per flow).
layout!(CORE_FLOW: CoreFlowLayout, "core_flow", 71, "docs/modules/hpcc_nic_core.md", {
    created: 0, 1, "the flow exists";
    out: 1, 1, "a message is out (until the ACK of its end PSN, or its last READ response written)";
    end_psn: 2, 24, "the message's end PSN (first PSN + packets)";
    tag: 26, 16, "the message's tag, for its completion";
    mtu_log: 42, 4, "log2 of the flow's MTU (8..12)";
    read: 46, 1, "the message is a READ";
    qpn: 47, 24, "rx_ctx's QPN, for a remove after the retry limit";
});

// flow_sched's per-flow RAM words: the pace state its visit pipeline keeps, and the CC
// configuration (the low 64 bits of an `update` or `sched_ctrl` word).
layout!(FLOW_PACE: FlowPaceLayout, "flow_pace", 119, "docs/modules/flow_sched.md", {
    credit: 0, 48, "credit, bytes in 2^-16 (UQ32.16), capped at max_burst packets";
    t_last: 48, 32, "the cycle (low 32 bits) credit was last earned at";
    sent: 80, 32, "bytes granted (wraps; in flight = sent - acked)";
    active: 112, 1, "the flow exists (create; remove clears it)";
    in_ring: 113, 1, "the flow is in the round-robin ring or on its way into it";
    asleep: 114, 1, "idle: its last PktSend found nothing to send (a wake clears it)";
    shift: 115, 4, "log2 of its packet bytes (create; 0 = `cfg_pkt_shift`)";
});

layout!(FLOW_CFG: FlowCfgLayout, "flow_cfg", 64, "docs/modules/flow_sched.md", {
    rate: 0, 32, "rate, UQ16.16 bytes per cycle (`update` and `sched_ctrl` have it at the same bits)";
    window: 32, 32, "window, bytes";
});

// nic_datapath's per-flow RAM words: DCQCN's notification point and Rx-HPCC feedback.
layout!(CNP_STATE: CnpStateLayout, "cnp_state", 34, "docs/modules/nic_datapath.md", {
    enabled: 0, 1, "the flow answers CE-marked requests with CNPs (tx_ctx's create word, `cnp`)";
    sent: 1, 1, "a CNP was sent since the flow's create";
    at: 2, 32, "when: now_ns's low 32 bits";
});

layout!(FB_STATE: FbStateLayout, "fb_state", 33, "docs/modules/nic_datapath.md", {
    waiting: 0, 1, "a W waits for the flow's next ACK / NAK";
    w: 1, 32, "the receiver's window W (the feedback word's `w`)";
});

// hpcc_nic_core's SCHED_CFG register (csr.rs), the flow scheduler's configuration.
layout!(SCHED_CFG: SchedCfgLayout, "sched_cfg", 32, "docs/modules/hpcc_nic_core.md", {
    pkt_shift: 0, 4, "flow_sched's packet size (log2 bytes) for flows created without their own; the core gives every flow its MTU, so no effect on its flows (reset 12; reads back)";
    max_burst: 16, 12, "flow_sched's max burst, packets (reset 16)";
});

// tx_pipe's beat FIFO side word (tx_pipe_out): what goes with each frame beat.
layout!(TX_SIDE: TxSideLayout, "tx_side", 75, "docs/modules/tx_pipe.md", {
    keep: 0, 64, "the beat's tkeep";
    last: 64, 1, "the frame's last beat (tlast; a CRC is popped with it)";
    user: 65, 1, "tuser: the frame is bad (payload length mismatch)";
    icrc: 66, 1, "the beat holds the ICRC's first bytes, at lane `p`";
    icrc_rest: 67, 1, "the beat holds the rest of an ICRC that straddles two beats (lanes 0..p-61)";
    p: 68, 6, "the ICRC's lane in its first beat (its frame offset mod 64)";
    first: 74, 1, "the frame's first beat (it waits for the frame's CRC or a full enough FIFO)";
});

// rx_dma's desc FIFO word (rx_dma_frame): one per stored frame, in frame order.
layout!(RX_DMA_FRAME: RxDmaFrameLayout, "rx_dma_frame", 23, "docs/modules/rx_dma.md", {
    beats: 0, 8, "beats stored, 1..144 (the frame's store region)";
    len: 8, 14, "frame length in bytes: 64 x (beats - 1) + the last beat's highest kept lane + 1 (64 x (beats - 1) if it keeps none)";
    trunc: 22, 1, "truncated: the frame had more than 144 beats; those after the 144th were not stored";
});

// rx_dma's out FIFO word (rx_dma_combine): one payload beat for m_axis_dma_wr.
layout!(RX_DMA_BEAT: RxDmaBeatLayout, "rx_dma_beat", 577, "docs/modules/rx_dma.md", {
    data: 0, 512, "the payload beat, realigned to lane 0 (`m_axis_dma_wr_tdata`)";
    keep: 512, 64, "its tkeep: all ones, on the job's last beat lanes 0..(length mod 64)-1";
    last: 576, 1, "the job's last beat (`m_axis_dma_wr_tlast`)";
});

// hpcc_nic_core's STAT_SEL register (csr.rs): which counter STAT_RX_PIPE and STAT_RX_CTX show.
layout!(STAT_SEL: StatSelLayout, "stat_sel", 32, "docs/modules/hpcc_nic_core.md", {
    rx_pipe: 0, 5, "rx_pipe's counter shown in STAT_RX_PIPE (docs/modules/rx_pipe.md)";
    rx_ctx: 8, 4, "rx_ctx's counter shown in STAT_RX_CTX (docs/modules/rx_ctx.md)";
});

// hpcc_nic_core's RTO_CFG register (csr.rs): the retransmission timeout.
// hpcc_nic_core's completion stream word (`m_axis_cpl_tdata`).
layout!(CPL: CplLayout, "cpl", 64, "docs/modules/hpcc_nic_core.md", {
    flow: 0, 16, "flow";
    tag: 16, 16, "the message's tag (the post's `ARG_TAG`)";
    status: 32, 2, "`CPL_OK` 0; `CPL_RETRY_EXCEEDED` 1: the retransmission timeout's limit, the message ended unacknowledged and the flow has been removed; `CPL_REMOTE_ERROR` 2: reserved for error NAKs (a later step); `CPL_REFUSED` 3: a post from `s_axis_post` was refused (`error`), nothing was sent";
    error: 36, 4, "with `CPL_REFUSED`: why (`ERR_FLOW`, `ERR_UNKNOWN`, `ERR_BUSY`, `ERR_CONFIG`, as `STATUS` has them for a register command); else 0";
});

// The host queue engine's formats in host memory (docs/modules/host_queues.md): a work
// descriptor (WQE) of a flow's send queue, and a completion queue entry (CQE).
layout!(HQ_WQE: HqWqeLayout, "hq_wqe", 512, "docs/modules/host_queues.md", {
    opcode: 0, 8, "`WQE_WRITE` 0: an RDMA WRITE of `len` bytes from `local` to `remote`; `WQE_READ` 1: an RDMA READ of `len` bytes from `remote` into `local`; others refused (`ERR_OP`)";
    tag: 16, 16, "the caller's tag, returned in the completion entry";
    len: 32, 32, "message length in bytes (0: an empty WRITE, one packet)";
    local: 64, 64, "local (this host's) address of the message";
    remote: 128, 64, "remote address (the RETH's)";
    rkey: 192, 32, "remote key (the RETH's R_Key)";
});

layout!(HQ_CQE: HqCqeLayout, "hq_cqe", 128, "docs/modules/host_queues.md", {
    cpl: 0, 64, "the core's completion word (`cpl`): flow, tag, status, error";
    index: 64, 16, "the send queue index of the WQE it completes";
    phase: 127, 1, "the completion queue's phase: 1 on its first pass, 0 on its second, and so on; an entry whose phase is the host's current one is new";
});

// host_queues' context of a flow's send queue (its per-flow RAM word).
layout!(HQ_SQ_CTX: HqSqCtxLayout, "hq_sq_ctx", 149, "docs/modules/host_queues.md", {
    base: 0, 58, "the ring's host address [63:6] (WQEs are 64-byte aligned)";
    size_log: 58, 4, "log2 of the ring's WQEs, 1..12";
    mtu_log: 62, 4, "log2 of the flow's MTU, 8..12 (a message's packets)";
    on: 66, 1, "the queue is enabled (and not in error)";
    busy: 67, 1, "a WQE of the queue is being fetched, or its message is out";
    queued: 68, 1, "the flow is in the ready FIFO";
    prod: 69, 16, "producer index (the last doorbell's)";
    cons: 85, 16, "consumer index (WQEs fetched)";
    psn: 101, 24, "the next message's first PSN";
    qpn: 125, 24, "rx_ctx's QPN of the flow (a READ's rx word)";
});

// hpcc_nic_core's post port word (`s_axis_post`): a post as the host queue engine makes it
// from a work descriptor, with the same fields a register post takes from `ARG_TX`, `ARG_RX`
// and `ARG_TAG`.
layout!(CORE_POST: CorePostLayout, "core_post", 432, "docs/modules/hpcc_nic_core.md", {
    tx: 0, 288, "tx_ctx's post word's low 288 bits (`tx_post`): the flow in [31:16], RETH, local address, first PSN, READ; [1:0] ignored (the op is post)";
    rx: 288, 128, "rx_ctx's READ word (`rx_read`: its QPN and where a READ's responses are written); ignored for a WRITE";
    tag: 416, 16, "the message's tag, returned in its completion";
});

layout!(RTO_CFG: RtoCfgLayout, "rto_cfg", 32, "docs/modules/hpcc_nic_core.md", {
    rounds: 0, 8, "rounds of the timer scan without an acknowledgement before a flow with a message out goes back to snd_una (0: no timeout; reset 16)";
    retries: 8, 4, "timeouts without an acknowledgement before the message ends with `CPL_RETRY_EXCEEDED` and the flow is removed (reset 7)";
});

// The UltraScale+ PCIe hard block's (pcie4_uscale_plus, PG213) user interface at 512 bits,
// straddling off, DWORD-aligned: the requester request descriptor (first 4 dwords of an RQ
// TLP), its tuser, the requester completion descriptor (first 3 dwords of an RC TLP) and its
// tuser. Only the fields this design drives or reads are named; the rest are reserved here.
layout!(PCIE_RQ_DESC: PcieRqDescLayout, "pcie_rq_desc", 128, "docs/modules/pcie_rd.md", {
    at: 0, 2, "address type (0: untranslated)";
    addr: 2, 62, "address [63:2]: the first dword's";
    dwords: 64, 11, "dword count, 1..1024 (a read: dwords requested)";
    req_type: 75, 4, "request type: 0 memory read, 1 memory write";
    poisoned: 79, 1, "poisoned request";
    requester_id: 80, 16, "requester ID (used only with `requester_id_enable`)";
    tag: 96, 8, "tag (client tags: the user's)";
    completer_id: 104, 16, "completer ID (0 for memory requests)";
    requester_id_enable: 120, 1, "use `requester_id` (0: the function's own)";
    tc: 121, 3, "traffic class";
    attr: 124, 3, "attributes (no snoop, relaxed ordering, ID ordering)";
    force_ecrc: 127, 1, "force ECRC";
});

layout!(PCIE_RQ_USER: PcieRqUserLayout, "pcie_rq_user", 137, "docs/modules/pcie_rd.md", {
    first_be: 0, 8, "first dword byte enables, [3:0] for the TLP starting in this beat";
    last_be: 8, 8, "last dword byte enables, [11:8] (0 for a one-dword request)";
    addr_offset: 16, 4, "address offset (address-aligned mode only: 0)";
    is_sop: 20, 2, "a TLP starts in this beat ([20])";
    is_sop0_ptr: 22, 2, "where it starts (0: lane 0)";
    is_sop1_ptr: 24, 2, "second TLP's start (straddling: unused)";
    is_eop: 26, 2, "a TLP ends in this beat ([26])";
    is_eop0_ptr: 28, 4, "its last dword lane";
    is_eop1_ptr: 32, 4, "second TLP's end (straddling: unused)";
    discontinue: 36, 1, "abort the TLP";
    tph: 37, 24, "TPH present, type, indirect tag enable, steering tag (unused: 0)";
    seq_num0: 61, 6, "sequence number, reported back when the TLP leaves (unused: 0)";
    seq_num1: 67, 6, "second TLP's (unused)";
    parity: 73, 64, "odd parity per byte (parity checking off: 0)";
});

layout!(PCIE_RC_DESC: PcieRcDescLayout, "pcie_rc_desc", 96, "docs/modules/pcie_rd.md", {
    lower_addr: 0, 12, "lower address of the first byte (bits [1:0] place the first byte in its dword)";
    error_code: 12, 4, "0 normal; 1 poisoned; 2 UR / CA / CRS status; 3 no data or byte count mismatch; 4 mismatch; 5 invalid address; 6 invalid tag; 8 FLR; 9 completion timeout";
    byte_count: 16, 13, "bytes of the request still to come, this completion's included";
    locked: 29, 1, "locked read completion";
    request_completed: 30, 1, "the request's last completion (not used: a completion model may leave it 0)";
    dwords: 32, 11, "payload dwords of this completion";
    status: 43, 3, "completion status: 0 successful";
    poisoned: 46, 1, "poisoned completion";
    requester_id: 48, 16, "requester ID";
    tag: 64, 8, "the request's tag";
    completer_id: 72, 16, "completer ID";
    tc: 89, 3, "traffic class";
    attr: 92, 3, "attributes";
});

layout!(PCIE_RC_USER: PcieRcUserLayout, "pcie_rc_user", 161, "docs/modules/pcie_rd.md", {
    byte_en: 0, 64, "byte enables of the payload bytes (not used: the descriptor says as much)";
    is_sop: 64, 4, "TLPs starting in this beat";
    is_sop_ptr: 68, 8, "where they start, 2 bits each";
    is_eop: 76, 4, "TLPs ending in this beat";
    is_eop_ptr: 80, 16, "their last dword lanes, 4 bits each";
    discontinue: 96, 1, "the hard block aborted this TLP (its data is bad)";
    parity: 97, 64, "odd parity per byte (not checked)";
});

// pcie_rd's request FIFO word: a DMA read request as its reader needs it, in request order.
layout!(PCIE_RD_REQ: PcieRdReqLayout, "pcie_rd_req", 30, "docs/modules/pcie_rd.md", {
    shift: 0, 6, "the host address mod 64: where the first byte sits in its line";
    len: 6, 14, "length in bytes, 1..16383";
    line: 20, 3, "the first line's place in its tag slot: address bits [8:6]";
    k: 23, 2, "log2 of the lines per read TLP: 1, 2 or 3 (128, 256 or 512 bytes)";
    tag0: 25, 5, "the tag of the request's first read TLP";
});

// pcie_wr's FIFO words: a command (address, length), a stored payload (where its lines start,
// how many), and an RQ beat waiting in the out FIFO.
layout!(PCIE_WR_CMD: PcieWrCmdLayout, "pcie_wr_cmd", 78, "docs/modules/pcie_wr.md", {
    addr: 0, 64, "host address";
    len: 64, 14, "bytes, 1..9216";
});

layout!(PCIE_WR_INFO: PcieWrInfoLayout, "pcie_wr_info", 17, "docs/modules/pcie_wr.md", {
    base: 0, 8, "the payload's first line in the store (a ring of 256)";
    beats: 8, 8, "beats stored, at most 160";
    trunc: 16, 1, "the payload had more than 160 beats (the rest were not stored)";
});

layout!(PCIE_WR_BEAT: PcieWrBeatLayout, "pcie_wr_beat", 542, "docs/modules/pcie_wr.md", {
    data: 0, 512, "`m_axis_rq_tdata`";
    keep: 512, 16, "`m_axis_rq_tkeep`, a bit per dword";
    last: 528, 1, "the TLP's last beat (`m_axis_rq_tlast`, is_eop)";
    sop: 529, 1, "the TLP's first beat (is_sop, byte enables)";
    first_be: 530, 4, "first dword byte enables";
    last_be: 534, 4, "last dword byte enables";
    eop_ptr: 538, 4, "the last beat's last dword lane";
});

// The hard block's completer interface at 512 bits, straddling off, DWORD-aligned: the
// completer request descriptor (first 4 dwords of a CQ TLP), its tuser, and the completer
// completion descriptor (first 3 dwords of a CC TLP), its tuser.
layout!(PCIE_CQ_DESC: PcieCqDescLayout, "pcie_cq_desc", 128, "docs/modules/pcie_axil.md", {
    at: 0, 2, "address type";
    addr: 2, 62, "address [63:2] (the BAR's base included)";
    dwords: 64, 11, "dword count";
    req_type: 75, 4, "request type: 0 memory read, 1 memory write, others (I/O, atomics, messages) not served";
    requester_id: 80, 16, "requester ID, returned in the completion";
    tag: 96, 8, "tag, returned in the completion";
    target_function: 104, 8, "target function";
    bar_id: 112, 3, "the BAR hit (0: BAR0)";
    bar_aperture: 115, 6, "log2 of the BAR's size";
    tc: 121, 3, "traffic class, returned in the completion";
    attr: 124, 3, "attributes, returned in the completion";
});

layout!(PCIE_CQ_USER: PcieCqUserLayout, "pcie_cq_user", 183, "docs/modules/pcie_axil.md", {
    first_be: 0, 8, "first dword byte enables, [3:0] for the TLP starting in this beat";
    last_be: 8, 8, "last dword byte enables, [11:8]";
    byte_en: 16, 64, "byte enables of the payload bytes (not used)";
    is_sop: 80, 2, "a TLP starts in this beat";
    is_sop_ptr: 82, 4, "where (straddling only)";
    is_eop: 86, 2, "a TLP ends in this beat";
    is_eop_ptr: 88, 8, "its last dword lane";
    discontinue: 96, 1, "the hard block aborted this TLP";
    tph: 97, 22, "TPH present, type, steering tag (not used)";
    parity: 119, 64, "parity (not checked)";
});

layout!(PCIE_CC_DESC: PcieCcDescLayout, "pcie_cc_desc", 96, "docs/modules/pcie_axil.md", {
    lower_addr: 0, 7, "lower address of the first enabled byte";
    at: 8, 2, "address type (the request's)";
    byte_count: 16, 13, "bytes of the request this completion and the ones after it carry";
    locked: 29, 1, "locked read completion";
    dwords: 32, 11, "payload dwords (1; 0 for an error)";
    status: 43, 3, "completion status: 0 successful, 1 unsupported request, 4 completer abort";
    poisoned: 46, 1, "poisoned completion";
    requester_id: 48, 16, "the request's requester ID";
    tag: 64, 8, "the request's tag";
    completer_id: 72, 16, "completer ID (used only with `completer_id_enable`)";
    completer_id_enable: 88, 1, "use `completer_id` (0: the function's own)";
    tc: 89, 3, "the request's traffic class";
    attr: 92, 3, "the request's attributes";
    force_ecrc: 95, 1, "force ECRC";
});

layout!(PCIE_CC_USER: PcieCcUserLayout, "pcie_cc_user", 81, "docs/modules/pcie_axil.md", {
    is_sop: 0, 2, "a TLP starts in this beat ([0])";
    is_sop_ptr: 2, 4, "where (straddling only)";
    is_eop: 6, 2, "a TLP ends in this beat ([6])";
    is_eop0_ptr: 8, 4, "its last dword lane";
    is_eop1_ptr: 12, 4, "second TLP's (straddling only)";
    discontinue: 16, 1, "abort the TLP";
    parity: 17, 64, "parity (checking off: 0)";
});

/// Every layout, for hdl's build.rs and the docs check.
pub const ALL: &[Layout] = &[
    VerdictLayout::LAYOUT,
    RxQpLayout::LAYOUT,
    HpccEventLayout::LAYOUT,
    HpccFrontLayout::LAYOUT,
    HpccResultLayout::LAYOUT,
    IntHopLayout::LAYOUT,
    HopM1TagLayout::LAYOUT,
    HopDivTagLayout::LAYOUT,
    HpccCandLayout::LAYOUT,
    HpccCtxLayout::LAYOUT,
    HpccWtTagLayout::LAYOUT,
    HpccUTagLayout::LAYOUT,
    HpccRTagLayout::LAYOUT,
    HpccWLayout::LAYOUT,
    HpccWbLayout::LAYOUT,
    HpccRtTagLayout::LAYOUT,
    LdcpEventLayout::LAYOUT,
    LdcpStateLayout::LAYOUT,
    LdcpResultLayout::LAYOUT,
    LdcpCtxLayout::LAYOUT,
    LdcpOLayout::LAYOUT,
    DcqcnEventLayout::LAYOUT,
    DcqcnStateLayout::LAYOUT,
    DcqcnResultLayout::LAYOUT,
    DcqcnHoldLayout::LAYOUT,
    DcqcnHoldBLayout::LAYOUT,
    DcqcnHoldCLayout::LAYOUT,
    DcqcnIncTagLayout::LAYOUT,
    CcEventLayout::LAYOUT,
    UpdateLayout::LAYOUT,
    FeedbackLayout::LAYOUT,
    SchedCtrlLayout::LAYOUT,
    NotifyLayout::LAYOUT,
    DmaCmdLayout::LAYOUT,
    DmaWrLayout::LAYOUT,
    TxCreateLayout::LAYOUT,
    TxPostLayout::LAYOUT,
    PktRecvLayout::LAYOUT,
    ReadRespLayout::LAYOUT,
    DmaRdLayout::LAYOUT,
    TxFlowLayout::LAYOUT,
    TxMsgLayout::LAYOUT,
    TxDescLayout::LAYOUT,
    TxHdrLayout::LAYOUT,
    AethLayout::LAYOUT,
    RethLayout::LAYOUT,
    TelemetryLayout::LAYOUT,
    RxCreateLayout::LAYOUT,
    RxReadLayout::LAYOUT,
    SentLayout::LAYOUT,
    SleepLayout::LAYOUT,
    CoreFlowLayout::LAYOUT,
    SchedCfgLayout::LAYOUT,
    FlowPaceLayout::LAYOUT,
    FlowCfgLayout::LAYOUT,
    CnpStateLayout::LAYOUT,
    FbStateLayout::LAYOUT,
    TxSideLayout::LAYOUT,
    RxDmaFrameLayout::LAYOUT,
    RxDmaBeatLayout::LAYOUT,
    StatSelLayout::LAYOUT,
    RtoCfgLayout::LAYOUT,
    CplLayout::LAYOUT,
    CorePostLayout::LAYOUT,
    HqWqeLayout::LAYOUT,
    HqCqeLayout::LAYOUT,
    HqSqCtxLayout::LAYOUT,
    PcieRqDescLayout::LAYOUT,
    PcieRqUserLayout::LAYOUT,
    PcieRcDescLayout::LAYOUT,
    PcieRcUserLayout::LAYOUT,
    PcieRdReqLayout::LAYOUT,
    PcieWrCmdLayout::LAYOUT,
    PcieWrInfoLayout::LAYOUT,
    PcieWrBeatLayout::LAYOUT,
    PcieCqDescLayout::LAYOUT,
    PcieCqUserLayout::LAYOUT,
    PcieCcDescLayout::LAYOUT,
    PcieCcUserLayout::LAYOUT,
];

/// Layouts that are two forms of one word: a field named in both is at the same bits in both.
pub const VARIANTS: &[(Layout, Layout)] = &[
    (TxCreateLayout::LAYOUT, TxPostLayout::LAYOUT),
    (PktRecvLayout::LAYOUT, ReadRespLayout::LAYOUT),
    (LdcpEventLayout::LAYOUT, DcqcnEventLayout::LAYOUT),
    (RxCreateLayout::LAYOUT, RxReadLayout::LAYOUT),
];
