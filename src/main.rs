//! The `fianchetto` command: parses the command line and hands over to a front end or tool.
//! Each command's flags and work live with the command; this file only routes, prints, shows
//! progress and turns the outcome into an exit status.

use clap::{Parser, Subcommand};
use fianchetto::analysis::run as analyze;
use fianchetto::command::{Outcome, Progress};
use fianchetto::tools::{bench, book, datagen, epd, eval, genfens, perft, rescore, syzygy, train};
use fianchetto::{tui, uci, web};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

#[derive(Parser)]
#[command(
    name = "fianchetto",
    version,
    about = "A chess engine: play in the terminal, or speak UCI to a GUI"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game in the terminal (menus ask for anything not given here).
    Play(tui::PlayFlags),
    /// Speak the UCI protocol on standard input/output (for chess GUIs).
    Uci,
    /// Count leaf nodes of the move tree (move-generator check and speed test).
    Perft(perft::PerftArgs),
    /// Search 50 built-in positions to a fixed depth; prints `N nodes M nps`.
    Bench(bench::BenchFlags),
    /// Print the static evaluation of a position: the network's, piece by piece, and the
    /// hand-crafted one term by term.
    Eval(eval::EvalFlags),
    /// List the moves a Polyglot opening book (.bin) has for a position, with their weights.
    Book(book::BookFlags),
    /// Play and analyse in a browser: serves a local web page (http://127.0.0.1:8080/ by default).
    Serve(web::ServeFlags),
    /// Probe Syzygy tablebases: prints `FEN | wdl | dtz` for each position (`--fen`, or one FEN
    /// a line on standard input); `-` where the tables have no answer.
    Syzygy(syzygy::SyzygyFlags),
    /// Run an EPD test suite with `bm`/`am` operations; ends with `solved N/M`.
    Epd(epd::EpdFlags),
    /// Train an NNUE net on data files (pure Rust, CPU); writes NET and NET.ckpt every epoch.
    Train(train::TrainFlags),
    /// Generate training data by self-play (appends whole games; resumes where a run stopped).
    Datagen(datagen::DatagenFlags),
    /// Score training positions again with a search of today's net (text out, resumable).
    Rescore(rescore::RescoreFlags),
    /// Analyse the games of a PGN file as lichess does: judgements, accuracy, annotated PGN.
    Analyze(analyze::AnalyzeFlags),
}

/// Standard output, a line at a time; a closed pipe (`| head`) is not an error.
fn print(line: &str) {
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

/// Standard error, a line at a time.
fn eprint(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

fn fail(msg: &str) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

/// A progress bar on standard error (hidden when it is not a terminal); `{prefix}` in the
/// template is the stage's label, `{msg}` its note.
struct Bar {
    template: &'static str,
    bar: Mutex<Option<indicatif::ProgressBar>>,
}

impl Bar {
    fn new(template: &'static str) -> Bar {
        Bar {
            template,
            bar: Mutex::new(None),
        }
    }
    fn with(&self, f: impl FnOnce(&indicatif::ProgressBar)) {
        if let Ok(b) = self.bar.lock() {
            if let Some(b) = b.as_ref() {
                f(b);
            }
        }
    }
}

impl Progress for Bar {
    fn start(&self, label: &str, total: u64) {
        let bar = if std::io::stderr().is_terminal() {
            indicatif::ProgressBar::new(total)
        } else {
            indicatif::ProgressBar::hidden()
        };
        bar.set_style(
            indicatif::ProgressStyle::with_template(self.template)
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                .with_key(
                    "rate",
                    |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{:.1}/s", s.per_sec());
                    },
                )
                .progress_chars("=> "),
        );
        bar.set_prefix(label.to_string());
        if let Ok(mut b) = self.bar.lock() {
            *b = Some(bar);
        }
    }
    fn advance(&self, n: u64) {
        self.with(|b| b.inc(n));
    }
    fn note(&self, text: &str) {
        let text = text.to_string();
        self.with(|b| b.set_message(text));
    }
    fn finish(&self) {
        self.with(|b| b.finish_and_clear());
    }
}

/// A flag that Ctrl-C sets, for the jobs that stop cleanly between games.
fn ctrl_c_flag() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    stop
}

/// Parses the command line; help and version end the program here, and a bad command line
/// is one clear line, not clap's usage block (scripts and people read the first line).
fn parse() -> Result<Cli, ExitCode> {
    Cli::try_parse().map_err(|e| {
        use clap::error::ErrorKind;
        if matches!(
            e.kind(),
            ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
        ) {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        let text = e.to_string();
        let first = text
            .lines()
            .next()
            .unwrap_or("bad command line")
            .trim_start_matches("error: ");
        fail(&format!("{first} (see fianchetto --help)"))
    })
}

/// OpenBench's data-generation call, `fianchetto "genfens N seed S book <None|FILE>" "quit"`:
/// one argument holds the whole request, UCI-style, so it is routed before clap sees it.
fn genfens_main(args: &[String]) -> ExitCode {
    let request = match genfens::GenfensRequest::parse(&args[0]) {
        Ok(r) => r,
        Err(e) => return fail(&e.to_string()),
    };
    // The rest is checked first: a wrong argument should not cost the whole run.
    if let Some(other) = args[1..].iter().find(|a| a.trim() != "quit") {
        return fail(&format!(
            "after genfens only \"quit\" is understood, not {other:?}"
        ));
    }
    match genfens::run(&request, &mut print) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e.to_string()),
    }
}

fn main() -> ExitCode {
    // `args_os`: an argument that is not UTF-8 is clap's to refuse, not a panic here.
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if args
        .first()
        .is_some_and(|a| a.trim_start().starts_with("genfens"))
    {
        return genfens_main(&args);
    }
    let cli = match parse() {
        Ok(c) => c,
        Err(code) => return code,
    };
    let out = &mut print;
    let result: Result<Outcome, Box<dyn std::error::Error>> = match cli.command {
        Some(Command::Perft(a)) => perft::command(a, out).map_err(Into::into),
        Some(Command::Bench(a)) => bench::command(a, out).map_err(Into::into),
        Some(Command::Eval(a)) => eval::command(a, out).map_err(Into::into),
        Some(Command::Book(a)) => book::command(a, out).map_err(Into::into),
        Some(Command::Serve(a)) => web::command(a, out).map_err(Into::into),
        Some(Command::Syzygy(a)) => {
            let stdin = std::io::stdin();
            let mut stdout = std::io::stdout().lock();
            let mut out = |line: &str| writeln!(stdout, "{line}").is_ok();
            syzygy::command(a, &mut stdin.lock(), &mut out, &mut eprint).map_err(Into::into)
        }
        Some(Command::Epd(a)) => epd::command(a, out).map_err(Into::into),
        Some(Command::Datagen(a)) => {
            // The status line is rewritten in place, and ended once the run is over.
            let mut shown = false;
            let mut status = |line: &str| {
                shown = true;
                eprint!("\r{line}");
            };
            let r = datagen::command(a, ctrl_c_flag(), out, &mut status);
            if shown {
                eprintln!();
            }
            r.map_err(Into::into)
        }
        Some(Command::Rescore(a)) => {
            let stop = ctrl_c_flag();
            let r = rescore::run(&a, &stop, &mut |s| {
                eprint!("\r{} resumed, {} rescored", s.resumed, s.written);
            });
            r.map(|s| {
                eprintln!();
                print(&format!(
                    "{} samples rescored into {} ({} were there already)",
                    s.written, a.out, s.resumed
                ));
                Outcome::Success
            })
            .map_err(Into::into)
        }
        Some(Command::Train(a)) => {
            let bar = Bar::new("epoch {prefix} [{bar:30}] {pos}/{len} batches, {msg}, ETA {eta}");
            train::command(a, out, &bar).map_err(Into::into)
        }
        Some(Command::Analyze(a)) => {
            let interrupt = analyze::Interrupt::default();
            let handler = interrupt.clone();
            let _ = ctrlc::set_handler(move || handler.trigger());
            let bar = Bar::new(
                "{msg} [{bar:30}] {pos}/{len} positions · {rate} · {elapsed} elapsed · ETA {eta}",
            );
            analyze::command(a, &interrupt, out, &mut eprint, &bar).map_err(Into::into)
        }
        Some(Command::Uci) => {
            uci::run();
            Ok(Outcome::Success)
        }
        Some(Command::Play(a)) => tui::command(a, out).map_err(Into::into),
        // GUIs start engines with a pipe on stdin; a person starts us in a terminal.
        None if std::io::stdin().is_terminal() => {
            tui::command(tui::PlayFlags::default(), out).map_err(Into::into)
        }
        None => {
            uci::run();
            Ok(Outcome::Success)
        }
    };
    match result {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::Failure) => ExitCode::from(1),
        Err(e) => fail(&e.to_string()),
    }
}
