//! hpcc_nic_core's register map (docs/modules/hpcc_nic_core.md): word addresses (byte address
//! = 4 x word) and what each command, argument and error code means. Defined here, in sim, so
//! that the RTL (hdl's `hpcc_nic_core::csr` re-exports it and names the values through
//! `codes!`: `REG_*`, `RESET_*`, `CMD_*`, `ERR_*` in hpcc_nic_core.rs, localparams in the
//! Verilog), the core's cycle model and the test benches read one map;
//! `tests/hpcc_nic_core.rs` reads and writes every register through AXI4-Lite to check it.
//!
//! The registers and their values are listed once, in `csr_map!` below: it defines each as a
//! constant and lists them in `REGISTERS` and `VALUES`, from which `hdl::export` writes
//! rtl-out/hpcc_nic_regs.h for driver writers (`c_header`).

/// A register (its word address) or a value of the map, with its doc comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: &'static str,
    pub value: u32,
    pub doc: &'static str,
}

/// `reg NAME = word;` and `val NAME = value;`, each with its doc comment: a `pub const` each, and
/// the tables `REGISTERS` and `VALUES` in order.
macro_rules! csr_map {
    (@acc [$($r:tt)*] [$($v:tt)*]) => {
        /// Every register, in the order of this file: name, word address, doc.
        pub const REGISTERS: &[Entry] = &[$($r)*];
        /// Every value (resets, bits, op, error and completion codes): name, value, doc.
        pub const VALUES: &[Entry] = &[$($v)*];
    };
    (@acc [$($r:tt)*] [$($v:tt)*] $(#[doc = $d:literal])* reg $n:ident = $x:expr; $($rest:tt)*) => {
        $(#[doc = $d])* pub const $n: u32 = $x;
        csr_map!(@acc [$($r)* Entry { name: stringify!($n), value: $x, doc: concat!($($d, "\n"),*) },] [$($v)*] $($rest)*);
    };
    (@acc [$($r:tt)*] [$($v:tt)*] $(#[doc = $d:literal])* val $n:ident = $x:expr; $($rest:tt)*) => {
        $(#[doc = $d])* pub const $n: u32 = $x;
        csr_map!(@acc [$($r)*] [$($v)* Entry { name: stringify!($n), value: $x, doc: concat!($($d, "\n"),*) },] $($rest)*);
    };
}

csr_map! { @acc [] []
    /// Identification, reads 'HPCC'.
    reg ID = 0x000;
    /// The value of `ID`.
    val ID_VALUE = 0x4850_4343;
    /// [0] a command is running (`STATUS_BUSY`); [7:4] the last command's error (`ERR_*`, 0
    /// none; `status_err`).
    reg STATUS = 0x001;
    /// `STATUS` bit: a host command runs or waits.
    val STATUS_BUSY = 1;
    /// `STATUS`: the error field's lowest bit.
    val STATUS_ERR_SHIFT = 4;
    /// `STATUS`: the error field, shifted down.
    val STATUS_ERR_MASK = 0xF;

    /// Writing runs a command: [2:0] op (`OP_*`), [31:16] flow. Reads the last command written.
    reg CMD = 0x002;
    /// Commands refused (wraps).
    reg CMD_ERRORS = 0x003;
    /// ns per clock cycle, UQ16.16 (reset: 4.0, a 250 MHz clock); the time base adds it every cycle.
    reg NS_PER_CYCLE_Q16 = 0x004;
    /// Reset value of `NS_PER_CYCLE_Q16`: 4.0 ns.
    val NS_PER_CYCLE_RESET = 4 << 16;
    /// [3:0] flow_sched's packet size for flows created without their own: no effect on the core's
    /// flows, which are paced in their MTU (reset 12; reads back), [27:16] the flow scheduler's max
    /// burst (reset 16).
    reg SCHED_CFG = 0x005;
    /// Reset value of `SCHED_CFG`: packet shift 12, max burst 16.
    val SCHED_CFG_RESET = 12 | 16 << 16;
    /// now_ns, low word. Low and high are separate reads: read HI, LO, HI again if they must agree.
    reg NOW_NS_LO = 0x006;
    /// now_ns, high word.
    reg NOW_NS_HI = 0x007;
    /// Completions sent (wraps).
    reg COMPLETIONS = 0x008;
    /// Rx-HPCC feedback results of the CC module (the receiver's W, once per RTT per flow) taken
    /// by the datapath, whose next ACK / NAK of the flow carries the newest (wraps).
    reg FEEDBACK_IN = 0x009;
    /// [4:0] rx_pipe counter select, [11:8] rx_ctx counter select.
    reg STAT_SEL = 0x00A;
    /// rx_pipe's selected counter (docs/modules/rx_pipe.md).
    reg STAT_RX_PIPE = 0x00B;
    /// rx_ctx's selected counter (docs/modules/rx_ctx.md).
    reg STAT_RX_CTX = 0x00C;
    /// tx_ctx: PktSends with nothing to send.
    reg STAT_TX_DROP = 0x00D;
    /// tx_ctx: PktRecvs dropped.
    reg STAT_TX_RECV_DROP = 0x00E;
    /// tx_ctx: go-back-Ns ignored.
    reg STAT_TX_NAK_IGNORED = 0x00F;
    /// tx_ctx: control words refused.
    reg STAT_TX_CTRL_BAD = 0x010;
    /// tx_pipe: payload length mismatches.
    reg STAT_TX_LEN_ERR = 0x011;
    /// rx_dma: packets written to the host.
    reg STAT_RX_WRITTEN = 0x012;
    /// rx_dma: packets discarded.
    reg STAT_RX_DISCARDED = 0x013;
    /// rx_dma: commands longer than their frame.
    reg STAT_RX_SHORT = 0x014;
    /// cc_module: events for flow ids >= 2^F.
    reg STAT_CC_BAD_FLOW = 0x015;
    /// cc_module: events of a type the flow's algorithm does not use.
    reg STAT_CC_UNUSED = 0x016;
    /// Timer scan: cycles at each flow id, less one (reset 12: each LDCP and DCQCN flow gets a
    /// timer event every 2^10 x 13 cycles, 53 us at 250 MHz); 0 stops the scan.
    reg TIMER_GAP = 0x017;
    /// Reset value of `TIMER_GAP`.
    val TIMER_GAP_RESET = 12;
    /// Timer events the scan gave cc_module (wraps).
    reg TIMER_EVENTS = 0x018;
    /// Retransmission timeout: [7:0] rounds of the timer scan without an acknowledgement before a
    /// flow with a message out goes back to snd_una (0: no timeout; reset 16, 0.85 ms at the
    /// reset TIMER_GAP), [11:8] retries without an acknowledgement before the message ends with
    /// `CPL_RETRY_EXCEEDED` and the flow is removed (reset 7).
    reg RTO_CFG = 0x019;
    /// Reset value of `RTO_CFG`.
    val RTO_CFG_RESET = 0x710;
    /// Timeouts that went to rx_ctx (retries; wraps).
    reg RTO_TIMEOUTS = 0x01A;
    /// Messages ended with `CPL_RETRY_EXCEEDED` (wraps).
    reg RTO_FAILED = 0x01B;
    /// DCQCN notification point: at most one CNP per DCQCN flow per this many ns (reset 50,000,
    /// as deployed NICs use; 0: one for every CE-marked request).
    reg CNP_INTERVAL_NS = 0x01C;
    /// Reset value of `CNP_INTERVAL_NS`.
    val CNP_INTERVAL_RESET = 50_000;
    /// CNPs sent (wraps).
    reg STAT_CNPS = 0x01D;
    /// DCQCN's tx-byte events: a DCQCN flow's payload bytes read for sending (DMA read lengths)
    /// add up per flow, and once they reach this many the sum goes to cc_module as one event
    /// (type 5) and starts again (reset 16,384; 0: no tx events, DCQCN's byte counter then never
    /// expires). A sum that cannot leave at once (the event register full) waits for the flow's
    /// next DMA read.
    reg TX_EVENT_BYTES = 0x01E;
    /// Reset value of `TX_EVENT_BYTES`.
    val TX_EVENT_BYTES_RESET = 16_384;
    /// Tx-byte events given to cc_module (wraps).
    reg TX_EVENTS = 0x01F;
    /// Receiver: ACKs / NAKs sent carrying an Rx-HPCC feedback W (wraps).
    reg FB_ACKS = 0x038;
    /// Sender: received Rx-HPCC feedbacks that became an Update of the flow's rate and window
    /// (wraps).
    reg FB_APPLIED = 0x039;
    /// Sender: received Rx-HPCC feedbacks for a flow that is not Rx-HPCC here, ignored (wraps).
    reg FB_IGNORED = 0x03A;
    /// [0] ACK coalescing: while cc_module has not taken the Rx pipe's last event, an ACK event of
    /// the same flow with the same ECN-Echo (neither carrying Rx-HPCC feedback) merges into it:
    /// the newer event with both ACKs' packets acknowledged added (`sim::rx_ctx::CcEvent::merge`).
    /// Reset 1 (on); 0 passes every event, and the Rx pipe waits while cc_module does.
    reg EVENT_MERGE = 0x03B;
    /// Reset value of `EVENT_MERGE`.
    val EVENT_MERGE_RESET = 1;
    /// ACK events merged into the one waiting (wraps).
    reg MERGED = 0x03C;
    /// Cycles an Rx pipe event waited for cc_module (not counting the sequencer's holds; wraps).
    reg EVENT_STALLS = 0x03D;
    /// Probe requests the timer scan sent to tx_ctx: one per visit of an HPCC++ flow created in
    /// probe mode (tx create word bit 369) with a message out (wraps).
    reg PROBES = 0x03E;

    /// Command arguments: the tx_ctx control word (16 words, word i = bits [32i+31:32i]; op and
    /// flow are filled in by the command), used by create and post.
    reg ARG_TX = 0x020;
    /// The rx_ctx control word (4 words; op filled in), used by create and by a READ's post.
    reg ARG_RX = 0x030;
    /// Create: the flow's initial rate, UQ16.16 bytes/cycle (flow_sched), nonzero.
    reg ARG_RATE = 0x034;
    /// Create: the flow's initial window, bytes (flow_sched), nonzero.
    reg ARG_WINDOW = 0x035;
    /// Create: [1:0] the flow's algorithm (cc_module: 0 HPCC++, 1 Rx-HPCC, 2 LDCP, 3 DCQCN).
    reg ARG_ALG = 0x036;
    /// Post: [15:0] the message's tag, returned in its completion.
    reg ARG_TAG = 0x037;

    /// CC module configuration: cc_module's `cfg_*` ports in declaration order, one port per word
    /// or, for wider ports, over consecutive words (low word first): see `CC_FIELDS`.
    reg CC_CFG = 0x040;

    /// Command ops (`CMD` [2:0]).
    val OP_CREATE = 1;
    /// Remove a flow (flow_sched first, so it sends nothing more; then tx_ctx, rx_ctx).
    val OP_REMOVE = 2;
    /// Post a WRITE or READ message (tx_ctx's post word from `ARG_TX`; a READ also posts `ARG_RX`).
    val OP_POST = 3;
    /// Send an HPCC++ probe for the flow (flows created in probe mode).
    val OP_PROBE = 4;

    /// Error codes (`STATUS` [7:4]).
    val ERR_NONE = 0;
    /// The flow id is >= 2^F.
    val ERR_FLOW = 1;
    /// Create of a flow that exists.
    val ERR_EXISTS = 2;
    /// Remove, post or probe of a flow that does not exist.
    val ERR_UNKNOWN = 3;
    /// A bad argument: MTU not 256..4096 and a power of two, tx and rx MTUs differ, the QPN's low
    /// bits are not the flow, rate or window 0.
    val ERR_CONFIG = 4;
    /// Remove or post while the flow's message is not complete.
    val ERR_BUSY = 5;
    /// A command written while one runs (it is dropped).
    val ERR_OVERRUN = 6;
    /// An op that is none of `OP_*`.
    val ERR_OP = 7;

    /// Completion status (`m_axis_cpl_tdata`, `layout::CPL`'s `status`): the message completed.
    val CPL_OK = 0;
    /// Retransmission limit reached: the message ended without its acknowledgement, and the flow
    /// was removed in every block (create it again to use it).
    val CPL_RETRY_EXCEEDED = 1;
    /// The responder answered with an error NAK (later).
    val CPL_REMOTE_ERROR = 2;
    /// A post from the post port (`s_axis_post`) that the sequencer refused: the completion's
    /// `error` field has the code (`ERR_*`) a register command would have had in `STATUS`, its
    /// tag is the post's, and nothing was sent.
    val CPL_REFUSED = 3;

    // ---- The host queue engine (host_queues, docs/modules/host_queues.md): BAR0 words
    // 0x200-0x2FF. The core answers SLVERR there; the NIC top sends them to the engine.
    /// [15:0] the flow whose send queue `HQ_SQ_CMD` configures.
    reg HQ_SQ_SEL = 0x200;
    /// The send queue ring's host address, low and high words (64-byte aligned).
    reg HQ_SQ_BASE_LO = 0x201;
    reg HQ_SQ_BASE_HI = 0x202;
    /// [3:0] log2 of the ring's WQEs (1..12), [11:8] log2 of the flow's MTU (8..12).
    reg HQ_SQ_CFG = 0x203;
    /// [23:0] the first message's first PSN.
    reg HQ_SQ_PSN = 0x204;
    /// [23:0] rx_ctx's QPN of the flow (a READ's rx word).
    reg HQ_SQ_QPN = 0x205;
    /// Write [0] 1: enable `HQ_SQ_SEL`'s queue with the `HQ_SQ_*` values, indices 0; 0: disable
    /// it. SLVERR for a flow past the table, a configuration out of range, or while the last
    /// `HQ_SQ_CMD` is still pending (`HQ_SQ_STATUS`). Reads the last word written.
    reg HQ_SQ_CMD = 0x206;
    /// Write: a doorbell, [15:0] the queue's producer index, [31:16] its flow. SLVERR for a flow
    /// past the table or with the doorbell FIFO full (16).
    reg HQ_SQ_DOORBELL = 0x207;
    /// The completion queue ring's host address, low and high words (16-byte aligned).
    reg HQ_CQ_BASE_LO = 0x208;
    reg HQ_CQ_BASE_HI = 0x209;
    /// [3:0] log2 of the completion ring's entries (1..15), [8] on; writing it empties the
    /// ring (tail 0, phase 1). SLVERR for a size out of range with [8] set.
    reg HQ_CQ_CFG = 0x20A;
    /// [15:0] the driver's consumer index of the completion ring.
    reg HQ_CQ_HEAD = 0x20B;
    /// [15:0] completion entries written (the producer index).
    reg HQ_CQ_TAIL = 0x20C;
    /// [0] the last `HQ_SQ_CMD` is still pending; [7:4] its error (`ERR_BUSY`: the queue had a
    /// message out, nothing changed).
    reg HQ_SQ_STATUS = 0x20D;
    /// WQEs fetched (wraps).
    reg HQ_STAT_WQES = 0x20E;
    /// Completion entries written (wraps).
    reg HQ_STAT_CQES = 0x20F;
    /// Doorbells ignored: the queue off or in error, or the producer index more than the ring
    /// ahead (wraps).
    reg HQ_STAT_DB_IGNORED = 0x210;
    /// Completions dropped with the completion queue off (wraps).
    reg HQ_STAT_CQ_DROPPED = 0x211;
    /// WQE opcodes (`layout::HQ_WQE`'s `opcode`).
    val HQ_WQE_WRITE = 0;
    val HQ_WQE_READ = 1;
    /// A completion entry's index for a completion of no WQE (a register post).
    val HQ_NO_INDEX = 0xFFFF;

    // ---- The NIC's counters (nic_stats, docs/modules/hpcc_nic.md): BAR0 words 0x300 on,
    // read-only, each wraps. The PCIe shim's engines' and the MAC shim's, all on the core's
    // clock (the MAC's receive ones a clock-domain round trip behind).
    /// DMA read requests taken (pcie_rd).
    reg NIC_STAT_RD_REQUESTS = 0x300;
    /// DMA read requests of length 0 (answered with no data).
    reg NIC_STAT_RD_BAD_REQUESTS = 0x301;
    /// Read TLPs sent.
    reg NIC_STAT_RD_TLPS = 0x302;
    /// Read completions taken.
    reg NIC_STAT_RD_CPLS = 0x303;
    /// Read completions with an error status, poisoned or malformed.
    reg NIC_STAT_RD_CPL_ERRORS = 0x304;
    /// Read completions for no read out.
    reg NIC_STAT_RD_CPL_UNEXPECTED = 0x305;
    /// DMA writes sent (pcie_wr).
    reg NIC_STAT_WR_WRITES = 0x306;
    /// Write TLPs sent.
    reg NIC_STAT_WR_TLPS = 0x307;
    /// DMA writes dropped for their length.
    reg NIC_STAT_WR_LEN_ERRORS = 0x308;
    /// BAR0 register writes (pcie_axil).
    reg NIC_STAT_AXIL_WRITES = 0x309;
    /// BAR0 register reads.
    reg NIC_STAT_AXIL_READS = 0x30A;
    /// Requests not served (not a one-dword BAR0 memory access).
    reg NIC_STAT_AXIL_UNSUPPORTED = 0x30B;
    /// Register accesses answered SLVERR.
    reg NIC_STAT_AXIL_ERRORS = 0x30C;
    /// Frames handed to the CMAC (mac_shim).
    reg NIC_STAT_MAC_TX_FRAMES = 0x30D;
    /// Frames from the core dropped as bad.
    reg NIC_STAT_MAC_TX_BAD = 0x30E;
    /// Frames from the core dropped as too long for the transmit FIFO.
    reg NIC_STAT_MAC_TX_TOO_LONG = 0x30F;
    /// Frames from the CMAC kept for the core.
    reg NIC_STAT_MAC_RX_FRAMES = 0x310;
    /// Frames from the CMAC dropped as bad (FCS error...).
    reg NIC_STAT_MAC_RX_BAD = 0x311;
    /// Frames from the CMAC dropped on a full receive FIFO.
    reg NIC_STAT_MAC_RX_OVERFLOW = 0x312;
    /// BAR0's three parts (words): the core below `BAR0_QUEUES`, the host queue engine from it
    /// to `BAR0_STATS`, the counters from `BAR0_STATS` to the end (0x3FF). axil_split decodes
    /// byte address bits [11:10] (these are 0x200 and 0x300 words: 0x800 and 0xC00 bytes).
    val BAR0_QUEUES = 0x200;
    val BAR0_STATS = 0x300;
}

/// The error code (`ERR_*`) of a `STATUS` value.
pub fn status_err(status: u32) -> u32 {
    status >> STATUS_ERR_SHIFT & STATUS_ERR_MASK
}

/// Argument words.
pub const ARGS: usize = 24;

/// Words of CC configuration.
pub const CC_WORDS: usize = 65;

/// cc_module's configuration ports, each with its word offset from `CC_CFG` and width in bits.
pub const CC_FIELDS: [(&str, u32, u32); 35] = [
    ("hpcc_t_ns", 0, 32),
    ("hpcc_eta_q16", 1, 17),
    ("hpcc_max_stage", 2, 8),
    ("hpcc_w_ai_q8", 3, 32),
    ("hpcc_w_min_q8", 4, 32),
    ("hpcc_w_max_q8", 5, 32),
    ("hpcc_u_init_q16", 6, 24),
    ("hpcc_inv_bt", 7, 256),
    ("hpcc_inv_b", 15, 256),
    ("hpcc_inv_t", 23, 32),
    ("hpcc_rate_mul", 24, 32),
    ("hpcc_line_q16", 25, 32),
    ("ldcp_rtt_ns", 26, 32),
    ("ldcp_mss", 27, 32),
    ("ldcp_alpha_q16", 28, 17),
    ("ldcp_beta_q16", 29, 17),
    ("ldcp_gamma_shift", 30, 4),
    ("ldcp_iw", 31, 16),
    ("ldcp_max_cw_q16", 32, 32),
    ("ldcp_fast_start", 33, 1),
    ("ldcp_rate_mul", 34, 48),
    ("ldcp_line_q16", 36, 32),
    ("dcqcn_line_q24", 37, 40),
    ("dcqcn_min_q24", 39, 40),
    ("dcqcn_ai_q24", 41, 40),
    ("dcqcn_hai_q24", 43, 40),
    ("dcqcn_g_shift", 45, 5),
    ("dcqcn_initial_alpha_q24", 46, 25),
    ("dcqcn_alpha_timer_ns", 47, 32),
    ("dcqcn_decay", 48, 384),
    ("dcqcn_min_cut_interval_ns", 60, 32),
    ("dcqcn_rate_increase_timer_ns", 61, 32),
    ("dcqcn_byte_counter_bytes", 62, 32),
    ("dcqcn_fast_recovery_times", 63, 8),
    ("dcqcn_win_mul", 64, 32),
];
