//! netsim's plots, SVG by plotters: lines against a numeric x, one colour per series, and
//! panels side by side. A run and a report draw through the same two functions.

use crate::Result;
use plotters::prelude::*;
use std::path::Path;

/// One line: its legend and its points.
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
}

/// One chart: a title, the axes' names, its lines, and optional names for x = 0, 1, 2..
/// (categories instead of numbers).
pub struct Panel<'a> {
    pub title: String,
    pub x_desc: &'a str,
    pub y_desc: &'a str,
    pub series: Vec<Series>,
    pub x_names: Option<Vec<String>>,
}

fn range(v: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = v.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
    if lo > hi { (0.0, 1.0) } else if lo == hi { (lo - 0.5, hi + 0.5) } else { (lo, hi) }
}

fn draw<DB: DrawingBackend>(area: &DrawingArea<DB, plotters::coord::Shift>, p: &Panel) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let (x0, x1) = match &p.x_names {
        // Categories: every name gets its place, whether a series has a point there or not.
        Some(n) => (-0.5, n.len() as f64 - 0.5),
        None => range(p.series.iter().flat_map(|s| s.points.iter().map(|q| q.0))),
    };
    let (_, y1) = range(p.series.iter().flat_map(|s| s.points.iter().map(|q| q.1)));
    let mut c = ChartBuilder::on(area)
        .caption(&p.title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(64)
        .build_cartesian_2d(x0..x1, 0.0..y1 * 1.05)
        .map_err(|e| e.to_string())?;
    let names = p.x_names.clone();
    let fmt = move |x: &f64| match &names {
        Some(n) if (x.round() - x).abs() < 1e-9 && x.round() >= 0.0 => n.get(x.round() as usize).cloned().unwrap_or_default(),
        Some(_) => String::new(),
        None => format!("{x}"),
    };
    let mut mesh = c.configure_mesh();
    mesh.x_desc(p.x_desc).y_desc(p.y_desc).x_label_formatter(&fmt);
    if let Some(n) = &p.x_names {
        mesh.x_labels(n.len());
    }
    mesh.draw().map_err(|e| e.to_string())?;
    for (i, s) in p.series.iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        c.draw_series(LineSeries::new(s.points.iter().copied(), colour.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label(&s.label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2)));
        if p.x_names.is_some() {
            c.draw_series(s.points.iter().map(|&q| Circle::new(q, 3, colour.filled()))).map_err(|e| e.to_string())?;
        }
    }
    if p.series.iter().any(|s| !s.label.is_empty()) {
        c.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw().map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The panels side by side in one SVG at `path`.
pub fn panels(path: &Path, panels: &[Panel]) -> Result<()> {
    let root = SVGBackend::new(path, (560 * panels.len() as u32, 400)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    for (area, p) in root.split_evenly((1, panels.len())).iter().zip(panels) {
        draw(area, p)?;
    }
    root.present().map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(())
}
