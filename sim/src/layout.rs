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
        assert!(self.width <= 64, "{} is wider than 64 bits: read it by parts", self.name);
        let mut v = 0u64;
        let mut i = 0;
        while i < self.width {
            let (word, at, n) = self.chunk(i);
            v |= ((words[word] >> at) as u64 & ((1u64 << n) - 1)) << i;
            i += n;
        }
        v
    }

    /// Writes the low `width` bits of `v` into the field; the bits above are dropped, as a
    /// part select in the RTL drops them.
    pub fn set(&self, words: &mut [u32], v: u64) {
        assert!(self.width <= 64, "{} is wider than 64 bits: write it by parts", self.name);
        let mut i = 0;
        while i < self.width {
            let (word, at, n) = self.chunk(i);
            let mask = (((1u64 << n) - 1) as u32) << at;
            words[word] = words[word] & !mask | ((v >> i) as u32) << at & mask;
            i += n;
        }
    }

    /// Where bit `i` of the field is (word, bit in it), and how many of the field's bits from
    /// there lie in that word.
    fn chunk(&self, i: usize) -> (usize, usize, usize) {
        let b = self.lo + i;
        (b / 32, b % 32, (32 - b % 32).min(self.width - i))
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

/// Every layout, for hdl's build.rs and the docs check.
pub const ALL: &[Layout] = &[
    VerdictLayout::LAYOUT,
    RxQpLayout::LAYOUT,
    HpccEventLayout::LAYOUT,
    HpccFrontLayout::LAYOUT,
    HpccResultLayout::LAYOUT,
    LdcpEventLayout::LAYOUT,
    LdcpStateLayout::LAYOUT,
    LdcpResultLayout::LAYOUT,
    DcqcnEventLayout::LAYOUT,
    DcqcnStateLayout::LAYOUT,
    DcqcnResultLayout::LAYOUT,
    CcEventLayout::LAYOUT,
    UpdateLayout::LAYOUT,
    FeedbackLayout::LAYOUT,
    SchedCtrlLayout::LAYOUT,
    NotifyLayout::LAYOUT,
    DmaCmdLayout::LAYOUT,
    DmaWrLayout::LAYOUT,
];
