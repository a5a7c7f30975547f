# Clock-crossing constraints of rtl-out/cdc_frame_fifo.v (the MAC shim's two-clock frame
# FIFO), scoped to the module: in Vivado, `read_xdc -ref cdc_frame_fifo` on this file (or
# add it to the project with SCOPED_TO_REF cdc_frame_fifo), so that it applies to every
# instance. The clocks themselves come from the board's XDC. Why each line is here:
# docs/modules/cdc_frame_fifo.md, "Constraints". Not run here: no vendor tools on our
# machines; testbench/tests/cdc_frame_fifo.rs checks that every register named below exists
# in the exported Verilog.

set s_clk [get_clocks -of_objects [get_ports s_clock]]
set m_clk [get_clocks -of_objects [get_ports m_clock]]
set min_per [expr {min([get_property PERIOD $s_clk], [get_property PERIOD $m_clk])}]

# The committed pointer crosses in its cdc_word instance `publish` (module cdc_word_w9): its
# constraints are fpga-constraints/cdc_word.xdc, read with -ref cdc_word_w9.

# Both flip-flops of the read pointer's synchronizer: placed together, never retimed or
# merged, and given the whole period to settle.
set_property ASYNC_REG TRUE [get_cells {rsync0_q_reg[*] rsync1_q_reg[*]}]

# Read pointer, Gray code, m -> s: the bits must arrive within one period of each other, or a
# sample could mix two steps.
set_max_delay -datapath_only -from [get_cells {rd_gray_q_reg[*]}] -to [get_cells {rsync0_q_reg[*]}] $min_per
set_bus_skew -from [get_cells {rd_gray_q_reg[*]}] -to [get_cells {rsync0_q_reg[*]}] $min_per

# The RAM (two-clock cell hpcc_ram_2clk_w577_d256, block RAM): written on s_clock, read on
# m_clock. A word is read only after its frame is committed and written only after the read
# side has freed it (both known through the pointers), so no timing path between the two
# ports carries data that is used.
