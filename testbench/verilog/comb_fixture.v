`timescale 1ns/1ps
`default_nettype none
// Fixture for the binding's tests: a model without a clock, and port names
// that are not Rust identifiers as they stand (`loop`, `nib$in`).
module comb_fixture (
    input  wire [15:0]  a,
    input  wire [15:0]  b,
    input  wire [3:0]   \nib$in ,
    output wire [16:0]  sum,
    output wire [3:0]   loop
);
    assign sum = {1'b0, a} + {1'b0, b};
    assign loop = ~\nib$in ;
endmodule
