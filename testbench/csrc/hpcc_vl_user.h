// Force-included (gcc -include) into every C++ file of the binding: the
// Verilator runtime, the Verilated models and the shims. Routing VL_PRINTF
// through our hook lets an instance remember what the design printed last,
// which is where the text of a $fatal ends up.
#pragma once
void hpcc_vl_printf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
#define VL_PRINTF hpcc_vl_printf
