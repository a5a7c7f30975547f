`timescale 1ns/1ps
`default_nettype none
// Fixture for the Verilator binding's own tests (tests/verilated.rs): one
// port of each storage class (u8, u16, u64 for 33 bits, u64, u32 words),
// a counter, and inputs that trigger $finish / $fatal at a given count.
module bind_fixture (
    input  wire         clock,
    input  wire         reset,
    input  wire [7:0]   in8,
    input  wire [15:0]  in16,
    input  wire [32:0]  in33,
    input  wire [63:0]  in64,
    input  wire [99:0]  in100,
    input  wire [31:0]  finish_at,   // 0: never
    input  wire [31:0]  fatal_at,    // 0: never
    output reg  [7:0]   out8,
    output reg  [15:0]  out16,
    output reg  [32:0]  out33,
    output reg  [63:0]  out64,
    output wire [99:0]  out100,
    output wire [7:0]   inv8,        // combinational, for eval() without a clock edge
    output reg  [31:0]  count
);
    // A `$` in a name is legal Verilog; the VCD writer must not pass it on.
    wire \odd$name = in8[0];

    assign inv8 = ~in8;

    bind_fixture_inc100 inc (.clock(clock), .d(in100), .q(out100));

    always @(posedge clock) begin
        out8  <= in8 + 8'd1;
        out16 <= in16 + 16'd1;
        out33 <= in33 + 33'd1;
        out64 <= in64 + 64'd1;
        if (reset) count <= 32'd0;
        else count <= count + 32'd1;
        if (!reset && finish_at != 32'd0 && count == finish_at) $finish;
        if (!reset && fatal_at != 32'd0 && count == fatal_at)
            $fatal(1, "fatal_at reached, count=%0d", count);
    end
endmodule

// A submodule, so that the VCD has a nested scope.
module bind_fixture_inc100 (
    input  wire         clock,
    input  wire [99:0]  d,
    output reg  [99:0]  q
);
    always @(posedge clock) q <= d + 100'd1;
endmodule
