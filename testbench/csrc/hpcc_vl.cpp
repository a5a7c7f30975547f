// Model-independent part of the shim: the user hooks that Verilator calls on
// $finish/$stop/$fatal (compiled with VL_USER_FINISH/STOP/FATAL so they do not
// end the process), the VCD header fix-up, and the extern "C" API that
// src/verilated.rs declares.
#include "hpcc_vl.h"

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

// The instance whose model is running on this thread; the Verilator hooks
// below have no other way to find it.
thread_local hpcc::Inst* t_cur = nullptr;

// Thrown by vl_fatal to leave the model's eval: Verilator expects vl_fatal not
// to return, and the code after some calls would loop forever (e.g. "Active
// region did not converge").
struct FatalUnwind {};

std::string where(const char* file, int line) {
    if (!file || !file[0]) return "";
    return std::string{file} + ":" + std::to_string(line) + ":";
}

std::string chomp(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
    return s;
}

// Verilator writes Verilog names into the VCD as they are; a `$` in a scope or
// signal name (legal in Verilog) is taken for a keyword by VCD readers. The
// header is held back until it is complete and rewritten with `$` -> `_` in
// names; the value changes after it pass straight through.
std::string cleanHeader(const std::string& head) {
    std::string out;
    out.reserve(head.size());
    size_t pos = 0;
    while (pos < head.size()) {
        size_t nl = head.find('\n', pos);
        const size_t end = nl == std::string::npos ? head.size() : nl + 1;
        const std::string line = head.substr(pos, end - pos);
        pos = end;
        std::vector<std::string> tok;
        size_t i = line.find_first_not_of(" \t");
        const std::string indent = line.substr(0, i == std::string::npos ? 0 : i);
        while (i != std::string::npos && i < line.size()) {
            const size_t j = line.find_first_of(" \t\r\n", i);
            tok.push_back(line.substr(i, j - i));
            i = line.find_first_not_of(" \t\r\n", j);
        }
        // `$scope module NAME $end` and `$var TYPE WIDTH CODE NAME [RANGE] $end`;
        // the id CODE may legally be `$` and is left alone.
        size_t first = 0, last = 0;
        if (tok.size() >= 4 && tok[0] == "$scope") first = 2, last = 3;
        if (tok.size() >= 6 && tok[0] == "$var") first = 4, last = tok.size() - 1;
        bool changed = false;
        for (size_t k = first; k < last; ++k) {
            for (char& c : tok[k]) {
                if (c == '$') c = '_', changed = true;
            }
        }
        if (!changed) {
            out += line;
            continue;
        }
        out += indent;
        for (size_t k = 0; k < tok.size(); ++k) out += (k ? " " : "") + tok[k];
        out += '\n';
    }
    return out;
}

class VcdFile final : public VerilatedVcdFile {
    std::string m_head;
    bool m_inHead = true;

    bool writeAll(const char* p, size_t n) {
        while (n) {
            const ssize_t w = VerilatedVcdFile::write(p, static_cast<ssize_t>(n));
            if (w < 0 && (errno == EINTR || errno == EAGAIN)) continue;
            if (w <= 0) return false;
            p += w;
            n -= static_cast<size_t>(w);
        }
        return true;
    }

public:
    bool open(const std::string& name) override {
        m_head.clear();
        m_inHead = true;
        return VerilatedVcdFile::open(name);
    }
    void close() override {
        if (m_inHead) writeAll(m_head.data(), m_head.size());
        m_head.clear();
        VerilatedVcdFile::close();
    }
    ssize_t write(const char* p, ssize_t n) override {
        if (!m_inHead) return VerilatedVcdFile::write(p, n);
        m_head.append(p, static_cast<size_t>(n));
        if (m_head.find("$enddefinitions") == std::string::npos) return n;
        m_inHead = false;
        const std::string out = cleanHeader(m_head);
        m_head.clear();
        return writeAll(out.data(), out.size()) ? n : -1;
    }
};

}  // namespace

// Everything the design prints goes through here (see hpcc_vl_user.h).
void hpcc_vl_printf(const char* fmt, ...) {
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    char buf[512];
    const int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
    std::string s;
    if (n >= static_cast<int>(sizeof buf)) {
        s.resize(static_cast<size_t>(n) + 1);
        std::vsnprintf(&s[0], s.size(), fmt, ap2);
        s.resize(static_cast<size_t>(n));
    } else if (n > 0) {
        s.assign(buf, static_cast<size_t>(n));
    }
    va_end(ap2);
    va_end(ap);
    std::fputs(s.c_str(), stdout);
    if (t_cur) t_cur->last_msg = s;
}

void vl_finish(const char*, int, const char*) {
    if (hpcc::Inst* i = t_cur) {
        i->finished = true;
        i->ctx.gotFinish(true);
    }
}

// $stop, and $fatal: Verilator prints the $fatal text, then calls vl_stop.
// Returning lets the rest of the always block run, as after $finish.
void vl_stop(const char* file, int line, const char*) {
    hpcc::Inst* i = t_cur;
    if (!i) std::abort();  // only reachable from a model, which runs under guard()
    const std::string w = where(file, line);
    if (!w.empty() && i->last_msg.find(w) != std::string::npos) {
        i->set_fatal(chomp(i->last_msg));
    } else {
        i->set_fatal(w + (w.empty() ? "" : " ") + "Verilog $stop");
    }
}

void vl_fatal(const char* file, int line, const char*, const char* msg) {
    std::string w = where(file, line);
    const std::string m = w + (w.empty() ? "" : " ") + (msg ? msg : "");
    hpcc_vl_printf("%%Error: %s\n", m.c_str());
    hpcc::Inst* i = t_cur;
    if (!i) {
        std::fflush(stdout);
        std::abort();
    }
    i->set_fatal(m);
    throw FatalUnwind{};
}

namespace hpcc {

Inst::Inst() {
    // How models built with --x-initial unique / --x-assign unique fill their
    // X bits: 0 zeros (Verilator's default), 1 ones, 2 random. Read here as
    // the model's constructor already uses it.
    if (const char* v = std::getenv("HPCC_VL_RAND_RESET")) ctx.randReset(std::atoi(v));
    if (const char* v = std::getenv("HPCC_VL_RAND_SEED")) ctx.randSeed(std::atoi(v));
}

void Inst::setup(const char* vcd_path) {
    // 2000 ps in context units; build.rs forces a 1 ps precision, but the
    // conversion keeps tick() right if that ever changes.
    const int prec = ctx.timeprecision();
    uint64_t half = 2000;
    for (int p = prec; p < -12; ++p) half *= 10;
    for (int p = prec; p > -12; --p) half /= 10;
    half_units = half ? half : 1;
    if (!vcd_path) return;
    vcd_file.reset(new VcdFile);
    vcd.reset(new VerilatedVcdC{vcd_file.get()});
    trace(vcd.get());
    vcd->open(vcd_path);
    if (!vcd->isOpen()) set_fatal(std::string{"cannot open VCD file "} + vcd_path);
}

void Inst::set_fatal(const std::string& msg) {
    finished = true;
    ctx.gotFinish(true);
    ctx.gotError(true);
    if (fatal) return;  // keep the first cause
    fatal = true;
    fatal_msg = msg;
}

void Inst::close_vcd() {
    if (vcd) vcd->close();
    vcd.reset();
    vcd_file.reset();
}

void Inst::eval() {
    // After a fatal error the model may be half-updated: leave it alone.
    if (!fatal) eval_model();
}

void Inst::step(uint64_t units) {
    ctx.timeInc(units);
    if (vcd && vcd->isOpen()) vcd->dump(ctx.time());
}

void Inst::tick() {
    if (fatal) return;
    if (set_clock(0)) {
        eval_model();
        step(half_units);
        set_clock(1);
        eval_model();
        step(half_units);
    } else {
        eval_model();
        step(2 * half_units);
    }
    ++cycles;
}

void Inst::eval_at(uint64_t ps) {
    if (fatal) return;
    const uint64_t units = ps * half_units / 2000;
    if (units > ctx.time()) ctx.time(units);
    eval_model();
    if (vcd && vcd->isOpen()) vcd->dump(ctx.time());
}

uint64_t Inst::time_ps() const {
    uint64_t t = ctx.time();
    const int prec = ctx.timeprecision();
    for (int p = prec; p < -12; ++p) t /= 10;
    for (int p = prec; p > -12; --p) t *= 10;
    return t;
}

void guard(Inst* i, void (*f)(Inst*, void*), void* arg) {
    Inst* const prev = t_cur;
    t_cur = i;
    // The runtime finds the context through this thread-local for $time, %t,
    // X randomisation and scope (un)registration; it is not restored after,
    // so the model's destructor (hpcc_vl_free) still sees its own context.
    Verilated::threadContextp(&i->ctx);
    try {
        f(i, arg);
    } catch (const FatalUnwind&) {
    } catch (const std::exception& e) {
        i->set_fatal(std::string{"C++ exception: "} + e.what());
    } catch (...) {
        i->set_fatal("unknown C++ exception");
    }
    t_cur = prev;
}

}  // namespace hpcc

using hpcc::Inst;

extern "C" {

void hpcc_vl_free(Inst* i) {
    hpcc::guard(
        i,
        [](Inst* i, void*) {
            i->close_vcd();
            if (!i->fatal) i->final_model();
        },
        nullptr);
    delete i;
}

void hpcc_vl_eval(Inst* i) {
    hpcc::guard(i, [](Inst* i, void*) { i->eval(); }, nullptr);
}

void hpcc_vl_tick(Inst* i) {
    hpcc::guard(i, [](Inst* i, void*) { i->tick(); }, nullptr);
}

void hpcc_vl_eval_at(Inst* i, uint64_t ps) {
    hpcc::guard(i, [](Inst* i, void* ps) { i->eval_at(*static_cast<uint64_t*>(ps)); }, &ps);
}

void hpcc_vl_flush_vcd(Inst* i) {
    hpcc::guard(
        i,
        [](Inst* i, void*) {
            if (i->vcd) i->vcd->flush();
        },
        nullptr);
}

uint64_t hpcc_vl_cycles(const Inst* i) { return i->cycles; }
uint64_t hpcc_vl_time_ps(const Inst* i) { return i->time_ps(); }
bool hpcc_vl_finished(const Inst* i) { return i->finished; }

// Null when there was no fatal error; valid until the next call on `i`.
const char* hpcc_vl_fatal(const Inst* i) { return i->fatal ? i->fatal_msg.c_str() : nullptr; }

}  // extern "C"
