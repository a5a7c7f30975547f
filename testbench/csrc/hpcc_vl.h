// Model-independent part of the Rust <-> Verilator shim. build.rs generates,
// per model, a class deriving from hpcc::Inst plus one extern "C" constructor.
#pragma once
#include "verilated.h"
#include "verilated_vcd_c.h"

#include <cstdint>
#include <memory>
#include <string>

namespace hpcc {

class Inst {
public:
    // One context per instance (never the global one), so that instances are
    // independent and can run on different threads at the same time.
    VerilatedContext ctx;
    // The VCD writer does not own a file object it is given: keep it declared
    // before `vcd` so that it is destroyed after it.
    std::unique_ptr<VerilatedVcdFile> vcd_file;
    std::unique_ptr<VerilatedVcdC> vcd;
    bool finished = false;  // $finish, $stop, $fatal or a Verilator fatal error
    bool fatal = false;  // $stop, $fatal or a Verilator fatal error
    std::string fatal_msg;
    std::string last_msg;  // last text the design printed ($display, $fatal, ...)
    uint64_t cycles = 0;
    uint64_t half_units = 1;  // half a clock period, in context time units

    Inst();
    virtual ~Inst() = default;
    virtual void eval_model() = 0;
    // Runs the design's `final` blocks; called once, before destruction.
    virtual void final_model() = 0;
    // Returns false when the model has no port named `clock`.
    virtual bool set_clock(uint8_t v) = 0;
    virtual void trace(VerilatedVcdC* tfp) = 0;

    // Called once the model exists: time scale and the optional VCD file.
    void setup(const char* vcd_path);
    void set_fatal(const std::string& msg);
    void close_vcd();
    void eval();
    void tick();
    // Moves time to `ps` (if later), evaluates and dumps: for a harness that drives its
    // clocks itself (several of them, at their own periods).
    void eval_at(uint64_t ps);
    uint64_t time_ps() const;

private:
    void step(uint64_t units);
};

// Runs f with `i` as this thread's current instance (for vl_finish and
// friends) and turns every C++ exception into a fatal error of `i`, so none
// unwinds into Rust.
void guard(Inst* i, void (*f)(Inst*, void*), void* arg);

}  // namespace hpcc
