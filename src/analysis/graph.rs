//! The evaluation graph: White's win percentage over the game, judged moves marked, as SVG or
//! PNG. Text is laid out (and, in the PNG, drawn) with a font embedded in the binary, so the
//! picture is the same on every machine; the SVG names a generic family for its viewer.

use super::{GameReport, MoveReport};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

/// A subset of DejaVu Sans (printable ASCII, `–`, `→`, `·`); see `assets/fonts/README.md`.
static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-subset.ttf");

/// Graph size in pixels.
pub const SIZE: (u32, u32) = (960, 400);

/// Which picture to write, by the file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Scalable vector graphics.
    Svg,
    /// A PNG image.
    Png,
}

impl Format {
    /// The format a path's extension names, if any.
    pub fn of(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "svg" => Some(Format::Svg),
            "png" => Some(Format::Png),
            _ => None,
        }
    }
}

/// Draws `report` into `path` (SVG or PNG by extension).
pub fn draw(report: &GameReport, path: &Path) -> Result<(), String> {
    let format = Format::of(path)
        .ok_or_else(|| format!("{}: the graph must be a .svg or .png file", path.display()))?;
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    // Both backends lay text out with the font's metrics; registering twice is harmless.
    plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
        .map_err(|_| "the embedded font is not a valid TrueType font".to_string())?;
    match format {
        Format::Svg => {
            let root = SVGBackend::new(path, SIZE).into_drawing_area();
            plot(report, &root).map_err(|e| err(&e))?;
            root.present().map_err(|e| err(&e))
        }
        Format::Png => {
            let root = BitMapBackend::new(path, SIZE).into_drawing_area();
            plot(report, &root).map_err(|e| err(&e))?;
            root.present().map_err(|e| err(&e))
        }
    }
}

/// The x coordinate (in moves) of the position after `ply` half-moves.
fn x_of(report: &GameReport, ply: usize) -> f64 {
    let black_first = report.start_fen.split_whitespace().nth(1) == Some("b");
    let first_move: f64 = report
        .start_fen
        .split_whitespace()
        .nth(5)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1.0);
    first_move - 1.0 + (ply as f64 + if black_first { 1.0 } else { 0.0 }) / 2.0
}

fn plot<DB: DrawingBackend>(
    report: &GameReport,
    root: &DrawingArea<DB, Shift>,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&RGBColor(250, 250, 248))?;
    let pts: Vec<(f64, f64)> = report
        .win_percents()
        .iter()
        .enumerate()
        .filter_map(|(k, w)| w.map(|w| (x_of(report, k), w)))
        .collect();
    let x_end = x_of(report, report.moves.len()).max(x_of(report, 0) + 1.0);
    let acc = |a: Option<f64>| a.map_or("-".to_string(), |a| format!("{a:.0}%"));
    let title = format!(
        "{} ({})  –  {} ({})",
        report.white.name,
        acc(report.white.accuracy),
        report.black.name,
        acc(report.black.accuracy)
    );
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(x_of(report, 0)..x_end, 0f64..100f64)?;
    chart
        .configure_mesh()
        .x_desc("move")
        .y_desc("White's win %")
        .y_labels(5)
        .x_labels(((x_end - x_of(report, 0)).ceil() as usize + 1).clamp(2, 25))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .light_line_style(RGBColor(230, 230, 230))
        .label_style(("sans-serif", 13))
        .draw()?;
    // White's share of the chances as a light area over a dark one, as lichess draws it.
    chart.draw_series(std::iter::once(Rectangle::new(
        [(x_of(report, 0), 0.0), (x_end, 100.0)],
        RGBColor(60, 60, 60).mix(0.85).filled(),
    )))?;
    chart.draw_series(
        AreaSeries::new(pts.iter().copied(), 0.0, RGBColor(235, 235, 235).filled())
            .border_style(RGBColor(30, 100, 200).stroke_width(2)),
    )?;
    chart.draw_series(LineSeries::new(
        [(x_of(report, 0), 50.0), (x_end, 50.0)],
        RGBColor(150, 150, 150).stroke_width(1),
    ))?;
    let marks = report.moves.iter().filter_map(|m: &MoveReport| {
        let colour = match m.judgement? {
            "blunder" => RGBColor(220, 40, 40),
            "mistake" => RGBColor(240, 140, 20),
            _ => RGBColor(230, 200, 40),
        };
        let w = report.win_percents().get(m.ply).copied().flatten()?;
        Some(Circle::new(
            (x_of(report, m.ply), w),
            5,
            colour.filled().stroke_width(1),
        ))
    });
    chart.draw_series(marks)?;
    Ok(())
}
