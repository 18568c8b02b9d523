//! `rescore`: labels training positions again with today's engine. Data made with the
//! hand-crafted evaluation (or an older net) keeps its positions and results; each position
//! gets a new score from a search of `--nodes` with the chosen net. The output is the text
//! form (`FEN | score | result`, White's view), one line per input sample, in input order, so
//! that an interrupted run resumes where its output ends. The hash table is kept from sample to
//! sample (clearing 16 MiB per position would cost more than the search), so a resumed run's
//! scores can differ slightly from an uninterrupted one's, as two searches' do.

use super::data::{read_samples_while, DataError, Sample};
use crate::chess::{Color, Game};
use crate::search::{Limits, Searcher};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Scores beyond this (mates found by the new search) are written as this, White's view: a
/// line per sample keeps the resume count right, and the trainer's sigmoid is flat out there.
pub const SCORE_CAP: i32 = 3000;

/// The `rescore` command's flags.
#[derive(Debug, Clone, clap::Args)]
pub struct RescoreFlags {
    /// Data to rescore: binary game records (its training samples), text or gzipped text.
    pub input: String,
    /// The text file written (appended to: a run resumes after the samples it already has).
    #[arg(long)]
    pub out: String,
    /// Nodes searched per position.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub nodes: u64,
    /// The evaluation: `embedded` (the default net), `hce` or a net file.
    #[arg(long, default_value = "embedded")]
    pub net: String,
    /// Skip malformed lines (or stop at a malformed binary record) instead of failing.
    #[arg(long)]
    pub skip_bad: bool,
    /// Stop after this many new samples.
    #[arg(long)]
    pub limit: Option<u64>,
}

/// Why `rescore` stopped.
#[derive(Debug, thiserror::Error)]
pub enum RescoreError {
    /// `--net` names no usable network.
    #[error(transparent)]
    Net(#[from] crate::command::BadNet),
    /// The input could not be read.
    #[error(transparent)]
    Data(#[from] DataError),
    /// The output could not be read back or written.
    #[error("{file}: {source}")]
    Out {
        /// The output file.
        file: String,
        /// The system's error.
        source: std::io::Error,
    },
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RescoreSummary {
    /// Samples already in the output, skipped in the input.
    pub resumed: u64,
    /// Samples rescored and written by this run.
    pub written: u64,
}

/// Counts the complete lines of `path` (0 when it does not exist) and cuts off a last line
/// that an interrupted run left half-written.
fn complete_lines(path: &str) -> Result<u64, RescoreError> {
    let err = |source| RescoreError::Out {
        file: path.to_string(),
        source,
    };
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(err(e)),
    };
    let mut reader = std::io::BufReader::new(file);
    let (mut lines, mut complete_len, mut buf) = (0u64, 0u64, Vec::new());
    loop {
        buf.clear();
        let n = reader.read_until(b'\n', &mut buf).map_err(err)?;
        if n == 0 || buf.last() != Some(&b'\n') {
            break;
        }
        lines += 1;
        complete_len += n as u64;
    }
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(err)?;
    file.set_len(complete_len).map_err(err)?;
    Ok(lines)
}

/// The score of `sample`'s position from a search of `limits`, White's view, capped.
fn score(searcher: &mut Searcher, sample: &Sample, limits: &Limits) -> i16 {
    let game = Game::new(sample.board);
    let r = searcher.search(&game, limits, &mut |_| {});
    let stm = r.score.0.clamp(-SCORE_CAP, SCORE_CAP);
    let white = if sample.board.side_to_move() == Color::White {
        stm
    } else {
        -stm
    };
    white as i16
}

/// Rescores `flags.input` into `flags.out`, resuming after the samples already there; `stop`
/// ends the run after the current sample (what is written stays whole). `progress` hears the
/// counts now and then.
pub fn run(
    flags: &RescoreFlags,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&RescoreSummary),
) -> Result<RescoreSummary, RescoreError> {
    let net = crate::command::choose_net(&flags.net)?;
    let out_err = |source| RescoreError::Out {
        file: flags.out.clone(),
        source,
    };
    let resumed = complete_lines(&flags.out)?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&flags.out)
        .map_err(out_err)?;
    let mut w = std::io::BufWriter::new(file);
    let mut searcher = Searcher::new(16);
    searcher.set_net(net);
    let limits = Limits {
        nodes: Some(flags.nodes),
        multipv: 1,
        ..Limits::default()
    };
    let mut summary = RescoreSummary {
        resumed,
        written: 0,
    };
    let mut seen = 0u64;
    let mut failed = None;
    read_samples_while(&flags.input, flags.skip_bad, &mut |sample| {
        seen += 1;
        if seen <= resumed {
            return true;
        }
        let full = flags.limit.is_some_and(|l| summary.written >= l);
        if failed.is_some() || full || stop.load(Ordering::Relaxed) {
            // Nothing more to write: the rest of the file is not read.
            return false;
        }
        let rescored = Sample {
            score: score(&mut searcher, &sample, &limits),
            ..sample
        };
        if let Err(e) = writeln!(w, "{}", rescored.to_text()) {
            failed = Some(e);
            return false;
        }
        summary.written += 1;
        if summary.written.is_multiple_of(1000) {
            // Flushed with the report, so that what was reported is on disk.
            if let Err(e) = w.flush() {
                failed = Some(e);
            }
            progress(&summary);
        }
        true
    })?;
    if let Some(e) = failed {
        return Err(out_err(e));
    }
    w.flush().map_err(out_err)?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(input: &str, out: &str) -> RescoreFlags {
        RescoreFlags {
            input: input.to_string(),
            out: out.to_string(),
            nodes: 200,
            net: "embedded".to_string(),
            skip_bad: false,
            limit: None,
        }
    }

    #[test]
    fn rescores_every_sample_and_resumes_after_an_interruption() {
        let dir = std::env::temp_dir().join(format!("fianchetto-rescore-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let input = dir.join("in.txt");
        // White a queen up, then Black a queen up, labelled 0 by an older evaluation.
        let lines = [
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 40 | 0 | 1.0",
            "3qk3/8/8/8/8/8/8/4K3 b - - 0 40 | 0 | 0.0",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 0 | 0.5",
        ];
        std::fs::write(&input, lines.join("\n") + "\n").unwrap();
        let out = dir.join("out.txt");
        let (i, o) = (input.to_str().unwrap(), out.to_str().unwrap());
        // One sample, then a half-written line as an interrupted run leaves it.
        let first = run(
            &RescoreFlags {
                limit: Some(1),
                ..flags(i, o)
            },
            &AtomicBool::new(false),
            &mut |_| {},
        )
        .unwrap();
        assert_eq!(
            first,
            RescoreSummary {
                resumed: 0,
                written: 1
            }
        );
        let mut f = std::fs::OpenOptions::new().append(true).open(&out).unwrap();
        write!(f, "3qk3/8/8/8/8/8/8/4K3 b - - 0 40 | ").unwrap();
        drop(f);
        let rest = run(&flags(i, o), &AtomicBool::new(false), &mut |_| {}).unwrap();
        assert_eq!(
            rest,
            RescoreSummary {
                resumed: 1,
                written: 2
            }
        );
        let text = std::fs::read_to_string(&out).unwrap();
        let got: Vec<&str> = text.lines().collect();
        assert_eq!(got.len(), 3, "{text}");
        let score = |l: &str| l.split(" | ").nth(1).unwrap().parse::<i32>().unwrap();
        for (g, l) in got.iter().zip(lines) {
            // Same position and result; a new score, White's view.
            assert_eq!(g.split(" | ").next(), l.split(" | ").next());
            assert_eq!(g.split(" | ").nth(2), l.split(" | ").nth(2));
        }
        assert!(score(got[0]) > 500, "{}", got[0]);
        assert!(score(got[1]) < -500, "{}", got[1]);
        assert!(score(got[2]).abs() < 150, "{}", got[2]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
