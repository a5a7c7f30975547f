# part: any UltraScale+ (e.g. xcu280-fsvh2892-2L-e); out-of-context timing of one module.
# Clock of rtl-out/flow_sched.v at the NIC core's 250 MHz. Inputs and outputs are left
# unconstrained in out-of-context runs: only register-to-register paths are judged.
create_clock -period 4.000 -name clk [get_ports clock]
