"""The cocotb cross-check of hpcc_nic (issue 16, item 5): the exported Verilog under cocotb 2
and Verilator, behind cocotbext-pcie's root complex and UltraScale+ PCIe hard block model (the
open PCIe model Corundum is verified with), driven as a driver drives it.

The root complex enumerates the device and maps BAR0. The driver then writes, through BAR0:
the CC configuration and a create per flow (the words of `hpcc-nic driver`, in the file
HPCC_NIC_SETUP names), each flow's send queue and the completion queue (rtl-out/hpcc_nic_regs.h:
register offsets and the WQE / CQE layouts come from the generated C header, as a C driver's
would). It writes WRITE and READ WQEs into host memory and rings doorbells. The NIC's MAC is
looped back (tb_hpcc_nic.v), so each flow is its own requester and responder. Checked: every
WQE gets one completion entry, in order per flow, status OK, with its tag and index; every
message's bytes are at their destination in host memory; the counters read through BAR0 say
no frame was lost or bad and every WQE was fetched once.
"""

import os
import random
import re

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer
from cocotbext.axi import AxiStreamBus
from cocotbext.pcie.core import RootComplex
from cocotbext.pcie.xilinx.us import UltraScalePlusPcieDevice


def read_header(path):
    """Every `#define HPCC_NIC_<NAME> <value>u` of the C header, by <NAME>."""
    defs = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"#define HPCC_NIC_(\w+) (0x[0-9a-fA-F]+|\d+)u\b", line)
            if m:
                defs[m.group(1)] = int(m.group(2), 0)
    return defs


class Layout:
    """A layout of the header (`<NAME>_<FIELD>_LO` / `_WIDTH`) over a little-endian byte string."""

    def __init__(self, h, name):
        self.h, self.name = h, name
        self.bytes = h[f"{name}_BITS"] // 8

    def field(self, field):
        return self.h[f"{self.name}_{field}_LO"], self.h[f"{self.name}_{field}_WIDTH"]

    def pack(self, **fields):
        v = 0
        for k, x in fields.items():
            lo, w = self.field(k.upper())
            assert 0 <= x < 1 << w, (k, x)
            v |= x << lo
        return v.to_bytes(self.bytes, "little")

    def get(self, data, field):
        lo, w = self.field(field)
        return int.from_bytes(data, "little") >> lo & ((1 << w) - 1)


def read_setup(path):
    """The driver's setup writes: groups of (BAR0 offset, value), one per `#` comment line."""
    groups = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("#"):
                groups.append((line[1:].strip(), []))
            elif line:
                off, val = line.split()
                groups[-1][1].append((int(off, 16), int(val, 16)))
    return groups


FLOWS = [int(f, 0) for f in os.environ.get("HPCC_NIC_FLOWS", "5,0x21").split(",")]
MTU = int(os.environ.get("HPCC_NIC_MTU", "1024"))
MESSAGES = int(os.environ.get("HPCC_NIC_MESSAGES", "6"))
SQ_LOG = 3
CQ_LOG = 5


@cocotb.test()
async def wqes_run_end_to_end_through_the_pcie_model(dut):
    h = read_header(os.environ["HPCC_NIC_HEADER"])
    wqe_l, cqe_l, cpl_l = Layout(h, "HQ_WQE"), Layout(h, "HQ_CQE"), Layout(h, "CPL")
    seed = int(os.environ.get("HPCC_NIC_SEED", "1"))
    rng = random.Random(seed)
    assert MESSAGES < 1 << SQ_LOG, "all of a flow's WQEs are posted at once"
    dut._log.info("seed %d, flows %s, MTU %d, %d messages a flow", seed, FLOWS, MTU, MESSAGES)

    # The hard block (Gen3 x16, 512 bits, 250 MHz, DWORD-aligned, straddling off, client
    # tags) and the root complex; BAR0 4 KiB.
    dev = UltraScalePlusPcieDevice(
        pcie_generation=3,
        pcie_link_width=16,
        user_clk_frequency=250e6,
        alignment="dword",
        cq_straddle=False,
        cc_straddle=False,
        rq_straddle=False,
        rc_straddle=False,
        rc_4tlp_straddle=False,
        pf_count=1,
        max_payload_size=1024,
        enable_client_tag=True,
        enable_extended_tag=False,
        user_clk=dut.clock,
        user_reset=dut.reset,
        rq_bus=AxiStreamBus.from_prefix(dut, "m_axis_rq"),
        rc_bus=AxiStreamBus.from_prefix(dut, "s_axis_rc"),
        cq_bus=AxiStreamBus.from_prefix(dut, "s_axis_cq"),
        pcie_cq_np_req=dut.pcie_cq_np_req,
        cc_bus=AxiStreamBus.from_prefix(dut, "m_axis_cc"),
        cfg_max_payload=dut.cfg_max_payload,
        cfg_max_read_req=dut.cfg_max_read_req,
    )
    dev.functions[0].configure_bar(0, 4096)
    rc = RootComplex()
    rc.make_port().connect(dev)

    # The CMAC's 322.266 MHz (3103 ps) to the picosecond cocotb can split evenly: 3104 ps.
    cocotb.start_soon(Clock(dut.cmac_clock, 3104, unit="ps").start())
    dut.cmac_reset.value = 1
    await Timer(100, unit="ns")
    dut.cmac_reset.value = 0

    await rc.enumerate()
    fn = rc.find_device(dev.functions[0].pcie_id)
    await fn.enable_device()
    await fn.set_master()
    bar = fn.bar_window[0]
    assert await bar.read_dword(h["REG_ID"]) == h["ID_VALUE"], "BAR0's ID register"

    async def wait_status(what):
        for _ in range(1000):
            s = await bar.read_dword(h["REG_STATUS"])
            if not s & h["STATUS_BUSY"]:
                err = s >> h["STATUS_ERR_SHIFT"] & h["STATUS_ERR_MASK"]
                assert err == 0, f"{what}: error {err}"
                return
        raise AssertionError(f"{what}: still busy")

    # The CC configuration and the flows, as `hpcc-nic driver` wrote them.
    for what, writes in read_setup(os.environ["HPCC_NIC_SETUP"]):
        for off, val in writes:
            await bar.write_dword(off, val)
        if what.startswith("create"):
            await wait_status(what)

    # Host memory: send rings, the completion ring, message buffers.
    size = 1 << 22
    base, mem = rc.alloc_region(size)
    sq = {f: 0x1000 * i for i, f in enumerate(FLOWS)}
    cq = 0x10000
    for f in FLOWS:
        for reg, val in [
            ("HQ_SQ_SEL", f),
            ("HQ_SQ_BASE_LO", (base + sq[f]) & 0xFFFFFFFF),
            ("HQ_SQ_BASE_HI", (base + sq[f]) >> 32),
            ("HQ_SQ_CFG", SQ_LOG | (MTU.bit_length() - 1) << 8),
            ("HQ_SQ_PSN", 0),
            ("HQ_SQ_QPN", f),
            ("HQ_SQ_CMD", 1),
        ]:
            await bar.write_dword(h[f"REG_{reg}"], val)
        for _ in range(100):
            if not await bar.read_dword(h["REG_HQ_SQ_STATUS"]) & 1:
                break
    mem[cq:cq + (16 << CQ_LOG)] = bytes(16 << CQ_LOG)
    await bar.write_dword(h["REG_HQ_CQ_BASE_LO"], (base + cq) & 0xFFFFFFFF)
    await bar.write_dword(h["REG_HQ_CQ_BASE_HI"], (base + cq) >> 32)
    await bar.write_dword(h["REG_HQ_CQ_CFG"], CQ_LOG | 1 << 8)

    # The messages: WRITEs and READs, each from a random source buffer to a zeroed one.
    msgs = {f: [] for f in FLOWS}
    slot = 0x20000
    for f in FLOWS:
        for i in range(MESSAGES):
            read = i % 2 == 1
            n = rng.randint(1, 9000)
            src, dst = slot + rng.randrange(64), slot + 0x4000 + rng.randrange(64)
            slot += 0x8000
            mem[src:src + n] = bytes(rng.getrandbits(8) for _ in range(n))
            mem[dst:dst + n] = bytes(n)
            local, remote = (dst, src) if read else (src, dst)
            tag = rng.randrange(1 << 16)
            wqe = wqe_l.pack(opcode=h["HQ_WQE_READ" if read else "HQ_WQE_WRITE"], tag=tag, len=n,
                             local=base + local, remote=base + remote, rkey=0)
            at = sq[f] + 64 * (i % (1 << SQ_LOG))
            mem[at:at + 64] = wqe
            msgs[f].append((i, tag, read, n, src, dst))
    for f in FLOWS:
        await bar.write_dword(h["REG_HQ_SQ_DOORBELL"], MESSAGES | f << 16)

    # Completion entries, as a driver polls them.
    head, phase, seen = 0, 1, {f: 0 for f in FLOWS}
    total = MESSAGES * len(FLOWS)
    for _ in range(20000):
        if head == total:
            break
        at = cq + 16 * (head % (1 << CQ_LOG))
        e = bytes(mem[at:at + 16])
        if cqe_l.get(e, "PHASE") != phase:
            await Timer(200, unit="ns")
            continue
        cpl = cqe_l.get(e, "CPL").to_bytes(8, "little")
        flow, tag, status = cpl_l.get(cpl, "FLOW"), cpl_l.get(cpl, "TAG"), cpl_l.get(cpl, "STATUS")
        index = cqe_l.get(e, "INDEX")
        assert flow in msgs, f"entry {head}: flow {flow:#x}"
        i, want_tag, read, n, src, dst = msgs[flow][seen[flow]]
        assert (tag, status, index) == (want_tag, h["CPL_OK"], i), f"entry {head} of flow {flow:#x}: {e.hex()}"
        seen[flow] += 1
        head += 1
        if head % (1 << CQ_LOG) == 0:
            phase ^= 1
        await bar.write_dword(h["REG_HQ_CQ_HEAD"], head)
    assert head == total, f"{head} of {total} completion entries"

    # The bytes (a WRITE's land after its acknowledgement: give them time), the counters.
    await Timer(5, unit="us")
    for f in FLOWS:
        for i, tag, read, n, src, dst in msgs[f]:
            assert mem[dst:dst + n] == mem[src:src + n], f"flow {f:#x} message {i} ({'READ' if read else 'WRITE'}, {n} B)"
    stat = {}
    for name in ["MAC_TX_FRAMES", "MAC_RX_FRAMES", "MAC_TX_BAD", "MAC_RX_BAD", "MAC_RX_OVERFLOW",
                 "RD_CPL_ERRORS", "RD_CPL_UNEXPECTED", "WR_LEN_ERRORS", "AXIL_ERRORS", "AXIL_UNSUPPORTED"]:
        stat[name] = await bar.read_dword(h[f"REG_NIC_STAT_{name}"])
    wqes = await bar.read_dword(h["REG_HQ_STAT_WQES"])
    cqes = await bar.read_dword(h["REG_HQ_STAT_CQES"])
    dut._log.info("counters %s, WQEs %d, CQEs %d", stat, wqes, cqes)
    assert stat["MAC_TX_FRAMES"] == stat["MAC_RX_FRAMES"] > total, stat
    assert all(v == 0 for k, v in stat.items() if not k.endswith("FRAMES")), stat
    assert wqes == cqes == total, (wqes, cqes)
