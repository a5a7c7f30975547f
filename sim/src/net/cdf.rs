//! Flow-size distributions: points `<size bytes> <percent>` of a cumulative distribution, the
//! format of the HPCC reference simulator's `traffic_gen/*_distribution.txt`. The size is
//! linear in the percent between two points. Two ship with the project
//! (sim/data/cdf/README.md says where they come from): `websearch` and `fb_hadoop`.

use super::{data_lines, ParseError};

/// A cumulative flow-size distribution.
#[derive(Clone, Debug, PartialEq)]
pub struct Cdf {
    /// (size in bytes, percent of flows at or below it): both non-decreasing, the last
    /// percent 100.
    pub points: Vec<(u64, f64)>,
}

const WEBSEARCH: &str = include_str!("../../data/cdf/WebSearch_distribution.txt");
const FB_HADOOP: &str = include_str!("../../data/cdf/FbHdp_distribution.txt");

impl Cdf {
    /// The shipped distributions by name: `websearch`, `fb_hadoop`.
    pub fn named(name: &str) -> Option<Cdf> {
        let (file, text) = match name {
            "websearch" => ("sim/data/cdf/WebSearch_distribution.txt", WEBSEARCH),
            "fb_hadoop" => ("sim/data/cdf/FbHdp_distribution.txt", FB_HADOOP),
            _ => return None,
        };
        Some(Cdf::parse(file, text).expect("the shipped CDFs parse (tested)"))
    }

    /// Reads a CDF file (`file` names it in errors).
    pub fn parse(file: &str, text: &str) -> Result<Cdf, ParseError> {
        let err = |line, msg: String| ParseError::new(file, line, msg);
        let mut points: Vec<(u64, f64)> = Vec::new();
        for (l, w) in data_lines(text) {
            let [s, p] = w.as_slice() else {
                return Err(err(l, format!("expected `<size> <percent>`, found {} words", w.len())));
            };
            let size: u64 = s.parse().map_err(|_| err(l, format!("size `{s}` is not a number of bytes")))?;
            let pct: f64 = p.parse().ok().filter(|p: &f64| (0.0..=100.0).contains(p))
                .ok_or_else(|| err(l, format!("percent `{p}`: expected a number in 0..100")))?;
            if let Some(&(ps, pp)) = points.last() {
                if size < ps || pct < pp {
                    return Err(err(l, format!("({size}, {pct}) is below the previous point ({ps}, {pp}): a CDF only grows")));
                }
            }
            points.push((size, pct));
        }
        match points.last() {
            None => Err(err(0, "no points".into())),
            Some(&(_, p)) if p != 100.0 => Err(err(0, format!("the last point's percent is {p}, not 100"))),
            _ => Ok(Cdf { points }),
        }
    }

    /// The size at cumulative fraction `u` (0..1), linear between points; at least 1 byte.
    pub fn sample(&self, u: f64) -> u64 {
        let pct = u.clamp(0.0, 1.0) * 100.0;
        let mut prev = (0u64, 0.0f64);
        for &(s, p) in &self.points {
            if pct <= p {
                let size = if p > prev.1 {
                    prev.0 as f64 + (s as f64 - prev.0 as f64) * (pct - prev.1) / (p - prev.1)
                } else {
                    s as f64
                };
                return (size.round() as u64).max(1);
            }
            prev = (s, p);
        }
        self.points.last().map_or(1, |&(s, _)| s.max(1))
    }

    /// The mean size, bytes (each segment's mass at its midpoint, as the linear shape gives).
    pub fn mean(&self) -> f64 {
        let mut prev = (0u64, 0.0f64);
        let mut m = 0.0;
        for &(s, p) in &self.points {
            m += (p - prev.1) / 100.0 * (s as f64 + prev.0 as f64) / 2.0;
            prev = (s, p);
        }
        m
    }
}
