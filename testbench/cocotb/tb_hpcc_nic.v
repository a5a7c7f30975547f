// SPDX-License-Identifier: MIT OR Apache-2.0
// tb_hpcc_nic: the cocotb cross-check's top (testbench/cocotb/test_hpcc_nic.py). hpcc_nic with
// the PCIe hard block's four interfaces brought out under their own names (cocotbext-pcie's
// UltraScale+ model connects to them by prefix) and the CMAC side looped back on one clock:
// every beat the NIC sends (tready always high, as a CMAC with room) is received one CMAC
// cycle later, so a flow is its own requester and responder.
`resetall
`timescale 1ns / 1ps
`default_nettype none

module tb_hpcc_nic (
    input  wire         clock,
    input  wire         reset,
    input  wire [1:0]   cfg_max_payload,
    input  wire [2:0]   cfg_max_read_req,
    output wire [511:0] m_axis_rq_tdata,
    output wire [15:0]  m_axis_rq_tkeep,
    output wire         m_axis_rq_tvalid,
    input  wire         m_axis_rq_tready,
    output wire         m_axis_rq_tlast,
    output wire [136:0] m_axis_rq_tuser,
    input  wire [511:0] s_axis_rc_tdata,
    input  wire [15:0]  s_axis_rc_tkeep,
    input  wire         s_axis_rc_tvalid,
    output wire         s_axis_rc_tready,
    input  wire         s_axis_rc_tlast,
    input  wire [160:0] s_axis_rc_tuser,
    input  wire [511:0] s_axis_cq_tdata,
    input  wire [15:0]  s_axis_cq_tkeep,
    input  wire         s_axis_cq_tvalid,
    output wire         s_axis_cq_tready,
    input  wire         s_axis_cq_tlast,
    input  wire [182:0] s_axis_cq_tuser,
    output wire [1:0]   pcie_cq_np_req,
    output wire [511:0] m_axis_cc_tdata,
    output wire [15:0]  m_axis_cc_tkeep,
    output wire         m_axis_cc_tvalid,
    input  wire         m_axis_cc_tready,
    output wire         m_axis_cc_tlast,
    output wire [80:0]  m_axis_cc_tuser,
    // The CMAC's user clock (322.266 MHz) and a synchronous reset on it.
    input  wire         cmac_clock,
    input  wire         cmac_reset
);

    wire [511:0] tx_tdata;
    wire [63:0]  tx_tkeep;
    wire         tx_tvalid;
    wire         tx_tlast;
    wire         tx_tuser;
    wire         rx_tready;
    reg  [511:0] rx_tdata;
    reg  [63:0]  rx_tkeep;
    reg          rx_tvalid;
    reg          rx_tlast;
    reg          rx_tuser;

    // The wire: one register stage.
    always @(posedge cmac_clock) begin
        rx_tvalid <= tx_tvalid & ~cmac_reset;
        rx_tdata <= tx_tdata;
        rx_tkeep <= tx_tkeep;
        rx_tlast <= tx_tlast;
        rx_tuser <= tx_tuser;
    end

    hpcc_nic nic (
        .clock(clock),
        .reset(reset),
        .cfg_max_payload(cfg_max_payload),
        .cfg_max_read_req(cfg_max_read_req),
        .m_axis_rq_tdata(m_axis_rq_tdata),
        .m_axis_rq_tkeep(m_axis_rq_tkeep),
        .m_axis_rq_tvalid(m_axis_rq_tvalid),
        .m_axis_rq_tready(m_axis_rq_tready),
        .m_axis_rq_tlast(m_axis_rq_tlast),
        .m_axis_rq_tuser(m_axis_rq_tuser),
        .s_axis_rc_tdata(s_axis_rc_tdata),
        .s_axis_rc_tkeep(s_axis_rc_tkeep),
        .s_axis_rc_tvalid(s_axis_rc_tvalid),
        .s_axis_rc_tready(s_axis_rc_tready),
        .s_axis_rc_tlast(s_axis_rc_tlast),
        .s_axis_rc_tuser(s_axis_rc_tuser),
        .s_axis_cq_tdata(s_axis_cq_tdata),
        .s_axis_cq_tkeep(s_axis_cq_tkeep),
        .s_axis_cq_tvalid(s_axis_cq_tvalid),
        .s_axis_cq_tready(s_axis_cq_tready),
        .s_axis_cq_tlast(s_axis_cq_tlast),
        .s_axis_cq_tuser(s_axis_cq_tuser),
        .pcie_cq_np_req(pcie_cq_np_req),
        .m_axis_cc_tdata(m_axis_cc_tdata),
        .m_axis_cc_tkeep(m_axis_cc_tkeep),
        .m_axis_cc_tvalid(m_axis_cc_tvalid),
        .m_axis_cc_tready(m_axis_cc_tready),
        .m_axis_cc_tlast(m_axis_cc_tlast),
        .m_axis_cc_tuser(m_axis_cc_tuser),
        .tx_clock(cmac_clock),
        .tx_reset(cmac_reset),
        .m_axis_cmac_tx_tdata(tx_tdata),
        .m_axis_cmac_tx_tkeep(tx_tkeep),
        .m_axis_cmac_tx_tvalid(tx_tvalid),
        .m_axis_cmac_tx_tready(1'b1),
        .m_axis_cmac_tx_tlast(tx_tlast),
        .m_axis_cmac_tx_tuser(tx_tuser),
        .rx_clock(cmac_clock),
        .rx_reset(cmac_reset),
        .s_axis_cmac_rx_tdata(rx_tdata),
        .s_axis_cmac_rx_tkeep(rx_tkeep),
        .s_axis_cmac_rx_tvalid(rx_tvalid),
        .s_axis_cmac_rx_tready(rx_tready),
        .s_axis_cmac_rx_tlast(rx_tlast),
        .s_axis_cmac_rx_tuser(rx_tuser)
    );

endmodule

`default_nettype wire
