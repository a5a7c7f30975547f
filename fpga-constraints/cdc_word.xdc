# Clock-crossing constraints of cdc_word (hdl/src/mac/cdc_word.rs: a word carried from s_clock
# to m_clock by a toggle handshake), scoped to the module. Its exported widths are modules of
# their own; read this file once for each:
#     read_xdc -ref cdc_word_w9 fpga-constraints/cdc_word.xdc    (in cdc_frame_fifo)
#     read_xdc -ref cdc_word_w96 fpga-constraints/cdc_word.xdc   (in mac_shim)
# The clocks come from the board's XDC. Why each line is here: docs/modules/cdc_frame_fifo.md,
# "Constraints". Not run here (no vendor tools on our machines); testbench/tests/cdc_frame_fifo.rs
# checks that every register named below exists in rtl-out/cdc_word_w9.v and cdc_word_w96.v.

set s_clk [get_clocks -of_objects [get_ports s_clock]]
set m_clk [get_clocks -of_objects [get_ports m_clock]]
set min_per [expr {min([get_property PERIOD $s_clk], [get_property PERIOD $m_clk])}]

# Both flip-flops of each flag's synchronizer: placed together, never retimed or merged.
set_property ASYNC_REG TRUE [get_cells {req_m0_q_reg req_m1_q_reg}]
set_property ASYNC_REG TRUE [get_cells {ack_s0_q_reg ack_s1_q_reg}]

# The flags, s -> m and m -> s.
set_max_delay -datapath_only -from [get_cells {req_q_reg}] -to [get_cells {req_m0_q_reg}] $min_per
set_max_delay -datapath_only -from [get_cells {ack_q_reg}] -to [get_cells {ack_s0_q_reg}] $min_per

# The word, s -> m: held still from the req toggle until ack returns and sampled two m_clock
# edges after req, so one period bounds its delay with room to spare.
set_max_delay -datapath_only -from [get_cells {hold_q_reg[*]}] -to [get_cells {data_q_reg[*]}] $min_per
