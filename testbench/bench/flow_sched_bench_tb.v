// Simulation-speed benchmark of rtl-out/flow_sched.v under Icarus Verilog, run by `hpcc-nic bench`:
//
//     iverilog -g2012 -s flow_sched_bench_tb -o tb.vvp testbench/bench/flow_sched_bench_tb.v rtl-out/flow_sched.v
//     vvp -n tb.vvp +cycles=200000
//
// The stimulus is the one of testbench/src/bin/hpcc_nic/cmd_bench/stimulus.rs (`Stimulus`), statement for
// statement, so Verilator, rust-hdl and this testbench must print the same checksum for the same
// number of cycles. Change both together; `hpcc-nic bench` fails when they disagree.
//
// Every cycle (index `cyc`, 0-based):
//   x = xorshift32(x)                       (x ^= x << 13; x ^= x >> 17; x ^= x << 5), seed below
//   reset           = cyc == 0
//   ctrl            if none is pending and fewer than 64 flows were offered (not in cycle 0):
//                   create flow `next_flow` with rate x[20:0] (UQ16.16 B/cycle) and window
//                   (x[26:21] + 1) * 4096 B; held until tready (low while the RAMs clear)
//   notify          if none is pending, not in cycle 0, and x[29:28] == 0: flow x[27:22],
//                   bytes (x[21:20] + 1) * 1024; held until tready
//   pktsend tready  x[31:30] != 0 (3/4 high)
//   update          never offered
//   cfg_pkt_shift = 10, cfg_max_burst = 64; tdata is zero when tvalid is low
// Checksum over PktSend handshakes (tvalid & tready): their count, and the sum of
// cyc * 31 + flow modulo 2^32.
//
// Inputs change at the falling edge; the handshakes are sampled 1 ns later, before the rising edge.
// No waves are dumped.

`timescale 1ns / 1ps
`default_nettype none

module flow_sched_bench_tb;

    localparam [31:0] SEED = 32'h2545_f491;
    localparam [15:0] FLOWS = 16'd64;

    reg clock = 1'b0;
    always #2 clock = ~clock;  // 4 ns, 250 MHz: posedge at 2, 6, 10, ...

    reg         reset = 1'b0;
    reg  [87:0] s_axis_ctrl_tdata = 88'd0;
    reg         s_axis_ctrl_tvalid = 1'b0;
    wire        s_axis_ctrl_tready;
    wire        s_axis_update_tready;
    reg  [47:0] s_axis_notify_tdata = 48'd0;
    reg         s_axis_notify_tvalid = 1'b0;
    wire        s_axis_notify_tready;
    wire        s_axis_sleep_tready;
    wire [15:0] m_axis_pktsend_tdata;
    wire        m_axis_pktsend_tvalid;
    reg         m_axis_pktsend_tready = 1'b0;

    flow_sched dut (
        .clock(clock),
        .reset(reset),
        .cfg_pkt_shift(4'd10),
        .cfg_max_burst(12'd64),
        .s_axis_ctrl_tdata(s_axis_ctrl_tdata),
        .s_axis_ctrl_tvalid(s_axis_ctrl_tvalid),
        .s_axis_ctrl_tready(s_axis_ctrl_tready),
        .s_axis_update_tdata(80'd0),
        .s_axis_update_tvalid(1'b0),
        .s_axis_update_tready(s_axis_update_tready),
        .s_axis_notify_tdata(s_axis_notify_tdata),
        .s_axis_notify_tvalid(s_axis_notify_tvalid),
        .s_axis_notify_tready(s_axis_notify_tready),
        .s_axis_sleep_tdata(17'd0),
        .s_axis_sleep_tvalid(1'b0),
        .s_axis_sleep_tready(s_axis_sleep_tready),
        .m_axis_pktsend_tdata(m_axis_pktsend_tdata),
        .m_axis_pktsend_tvalid(m_axis_pktsend_tvalid),
        .m_axis_pktsend_tready(m_axis_pktsend_tready)
    );

    // Stimulus state.
    reg [31:0] ncycles;
    reg [31:0] cyc;
    reg [31:0] x;
    reg [15:0] next_flow;
    reg        c_pend;
    reg [15:0] c_flow;
    reg [31:0] c_rate;
    reg [31:0] c_window;
    reg        n_pend;
    reg [15:0] n_flow;
    reg [31:0] n_bytes;
    reg        rdy;
    // Checksum.
    reg [63:0] pktsends;
    reg [31:0] sum;

    initial begin
        if (!$value$plusargs("cycles=%d", ncycles)) ncycles = 32'd100000;
        x = SEED;
        next_flow = 16'd0;
        c_pend = 1'b0;
        c_flow = 16'd0;
        c_rate = 32'd0;
        c_window = 32'd0;
        n_pend = 1'b0;
        n_flow = 16'd0;
        n_bytes = 32'd0;
        pktsends = 64'd0;
        sum = 32'd0;
        for (cyc = 32'd0; cyc < ncycles; cyc = cyc + 32'd1) begin
            // This cycle's inputs (clock is low).
            x = x ^ (x << 13);
            x = x ^ (x >> 17);
            x = x ^ (x << 5);
            if (cyc != 32'd0 && !c_pend && next_flow < FLOWS) begin
                c_pend = 1'b1;
                c_flow = next_flow;
                c_rate = x & 32'h001f_ffff;
                c_window = (((x >> 21) & 32'h3f) + 32'd1) << 12;
                next_flow = next_flow + 16'd1;
            end
            if (cyc != 32'd0 && !n_pend && ((x >> 28) & 32'h3) == 32'd0) begin
                n_pend = 1'b1;
                n_flow = (x >> 22) & 32'h3f;
                n_bytes = (((x >> 20) & 32'h3) + 32'd1) << 10;
            end
            rdy = (x >> 30) != 32'd0;
            reset = cyc == 32'd0;
            s_axis_ctrl_tvalid = c_pend;
            s_axis_ctrl_tdata = c_pend ? {7'd0, 1'b1, c_flow, c_window, c_rate} : 88'd0;
            s_axis_notify_tvalid = n_pend;
            s_axis_notify_tdata = n_pend ? {n_flow, n_bytes} : 48'd0;
            m_axis_pktsend_tready = rdy;
            // What the scheduler shows during the cycle, before the rising edge.
            #1;
            if (c_pend && s_axis_ctrl_tready) c_pend = 1'b0;
            if (n_pend && s_axis_notify_tready) n_pend = 1'b0;
            if (m_axis_pktsend_tvalid && rdy) begin
                pktsends = pktsends + 64'd1;
                sum = sum + cyc * 32'd31 + {16'd0, m_axis_pktsend_tdata};
            end
            @(negedge clock);
        end
        $display("BENCH cycles=%0d pktsends=%0d sum=%08h", ncycles, pktsends, sum);
        $finish;
    end

endmodule

`default_nettype wire
