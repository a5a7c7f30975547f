# part: any UltraScale+ (e.g. xcu280-fsvh2892-2L-e); out-of-context timing of one module.
# Clock of rtl-out/cc_hpcc.v (the CC module's HPCC++ datapath) at the NIC core's 250 MHz.
# Inputs and outputs are unconstrained in out-of-context runs; the cfg_* ports are quasi-static
# registers written by the host, so paths from them are real paths here and should be met.
create_clock -period 4.000 -name clk [get_ports clock]
