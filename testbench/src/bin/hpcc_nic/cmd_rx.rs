//! `hpcc-nic rx --pcap FILE --model rtl|golden`: feeds a capture through the Rx pipe (the
//! Verilated rtl-out/rx_pipe.v, or the golden model `sim::rx_pipe`) and prints one JSON line
//! per frame: the verdict (`accepted` or the drop reason, with its code) and the fields
//! extracted. Both models print the same lines for the same capture.

use crate::Result;
use rand::SeedableRng;
use sim::packet::capture::read_pcap;
use sim::rx_pipe::{beats, reason, RxPipe, Verdict};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use testbench::harness::rx_pipe as h;

#[derive(clap::Args)]
pub struct Args {
    /// The capture (pcap, Ethernet link type; frames without FCS).
    #[arg(long)]
    pcap: PathBuf,
    /// rtl (Verilated rx_pipe) or golden (sim::rx_pipe).
    #[arg(long, default_value = "golden")]
    model: String,
}

/// One JSON line: frame index, verdict name, then the record's fields.
pub fn json_line(i: usize, v: &Verdict) -> String {
    let mut m = match serde_json::to_value(v) {
        Ok(serde_json::Value::Object(m)) => m,
        _ => unreachable!("a Verdict serializes to an object"),
    };
    m.insert("frame".into(), i.into());
    m.insert("verdict".into(), reason(v.code).into());
    serde_json::Value::Object(m).to_string()
}

pub fn run(_root: &Path, args: Args) -> Result<ExitCode> {
    let frames = read_pcap(&args.pcap)?;
    let verdicts: Vec<Verdict> = match args.model.as_str() {
        "golden" => {
            let mut m = RxPipe::new();
            frames.iter().map(|f| m.frame(f)).collect()
        }
        "rtl" => {
            let mut dut = h::open(None);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
            let n: u64 = frames.iter().map(|f| f.len() as u64 / 64 + 2).sum();
            let s = h::stream(
                &mut dut,
                frames.iter().map(|f| beats(f)),
                0.0,
                0.0,
                &mut rng,
                4 * n + 1000,
            );
            if s.verdicts.len() != frames.len() {
                return Err(
                    format!("{} verdicts for {} frames", s.verdicts.len(), frames.len()).into(),
                );
            }
            s.verdicts
        }
        m => return Err(format!("unknown model {m:?} (rtl or golden)").into()),
    };
    for (i, v) in verdicts.iter().enumerate() {
        println!("{}", json_line(i, v));
    }
    Ok(ExitCode::SUCCESS)
}
