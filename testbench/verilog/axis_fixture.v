`timescale 1ns/1ps
`default_nettype none
// Fixture for the stream handles and harness::stream (tests/stream.rs): a 4-deep FIFO on a
// wide stream with tlast (tdata in u32 words), and a one-stage +1 pipe on a narrow stream
// (tdata in a u64).
module axis_fixture (
    input  wire         clock,
    input  wire         reset,
    input  wire [99:0]  s_axis_tdata,
    input  wire         s_axis_tlast,
    input  wire         s_axis_tvalid,
    output wire         s_axis_tready,
    output wire [99:0]  m_axis_tdata,
    output wire         m_axis_tlast,
    output wire         m_axis_tvalid,
    input  wire         m_axis_tready,
    input  wire [39:0]  s_axis_n_tdata,
    input  wire         s_axis_n_tvalid,
    output wire         s_axis_n_tready,
    output reg  [39:0]  m_axis_n_tdata,
    output reg          m_axis_n_tvalid,
    input  wire         m_axis_n_tready
);
    reg [100:0] mem [0:3];
    reg [2:0] wr, rd;

    assign s_axis_tready = (wr - rd) != 3'd4;
    assign m_axis_tvalid = wr != rd;
    assign {m_axis_tlast, m_axis_tdata} = mem[rd[1:0]];

    always @(posedge clock) begin
        if (reset) begin
            wr <= 3'd0;
            rd <= 3'd0;
        end else begin
            if (s_axis_tvalid && s_axis_tready) begin
                mem[wr[1:0]] <= {s_axis_tlast, s_axis_tdata};
                wr <= wr + 3'd1;
            end
            if (m_axis_tvalid && m_axis_tready) rd <= rd + 3'd1;
        end
    end

    assign s_axis_n_tready = !m_axis_n_tvalid || m_axis_n_tready;

    always @(posedge clock) begin
        if (reset) m_axis_n_tvalid <= 1'b0;
        else if (s_axis_n_tready) begin
            m_axis_n_tvalid <= s_axis_n_tvalid;
            m_axis_n_tdata <= s_axis_n_tdata + 40'd1;
        end
    end
endmodule
