//! The `fianchetto` command: parses the command line and hands over to a front end or tool.

use clap::{Parser, Subcommand};
use fianchetto::chess::Board;
use fianchetto::tools;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

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

/// clap's reader for `--clock`.
fn parse_time_control(text: &str) -> Result<fianchetto::tui::TimeControl, String> {
    fianchetto::tui::TimeControl::parse(text).map_err(|e| e.to_string())
}

#[derive(Subcommand)]
enum Command {
    /// Play a game in the terminal (menus ask for anything not given here).
    Play {
        /// Your side: white, black, or none (bot vs bot).
        #[arg(long = "as", value_parser = ["white", "black", "none"])]
        side: Option<String>,
        /// Bot search depth (1-64).
        #[arg(long, conflicts_with = "movetime", value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: Option<u32>,
        /// Bot time per move in milliseconds.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
        movetime: Option<u64>,
        /// Bot plays like a player of this rating (1300-2800, the scale of UCI_Elo).
        #[arg(long, conflicts_with_all = ["depth", "movetime"], value_parser = clap::value_parser!(u32).range(1300..=2800))]
        elo: Option<u32>,
        /// Start position.
        #[arg(long)]
        fen: Option<String>,
        /// Play Chess960 from start position N (0-959; 518 is the standard one), or a random
        /// one without N.
        #[arg(long = "960", value_name = "N", num_args = 0..=1, conflicts_with = "fen",
              value_parser = clap::value_parser!(u16).range(0..960))]
        #[allow(clippy::option_option)]
        chess960: Option<Option<u16>>,
        /// Draw pieces as letters instead of Unicode glyphs.
        #[arg(long)]
        ascii: bool,
        /// A Polyglot opening book (.bin) the bot plays from while it has a move.
        #[arg(long, value_name = "FILE")]
        book: Option<std::path::PathBuf>,
        /// Continue a saved game: FILE.pgn, or without a value the last game saved after a move.
        #[arg(long, value_name = "FILE", conflicts_with = "fen")]
        #[allow(clippy::option_option)]
        resume: Option<Option<std::path::PathBuf>>,
        /// A clock for both sides: minutes+seconds per move (5+3, 10+5, 0.5+0); untimed without.
        #[arg(long, value_name = "M+S", value_parser = parse_time_control)]
        clock: Option<fianchetto::tui::TimeControl>,
        /// The line-by-line game even in a terminal (for screen readers and scripts; the
        /// default when standard output is not a terminal or TERM=dumb).
        #[arg(long)]
        plain: bool,
    },
    /// Speak the UCI protocol on standard input/output (for chess GUIs).
    Uci,
    /// Count leaf nodes of the move tree (move-generator check and speed test).
    Perft {
        /// Depth; without it, run the start-position self-check (depths 1-6).
        depth: Option<u32>,
        /// Position to count from (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Print each root move with its count.
        #[arg(long)]
        divide: bool,
        /// Recompute the hash after every move and fail on a mismatch.
        #[arg(long)]
        check_hash: bool,
        /// Run an EPD or shakmaty-style perft suite.
        #[arg(long)]
        suite: Option<String>,
        /// With --suite: skip depths whose expected count exceeds N (default 10,000,000).
        #[arg(long)]
        max_nodes: Option<u64>,
        /// Threads splitting the root moves.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Search 50 built-in positions to a fixed depth; prints `N nodes M nps`.
    Bench {
        /// Search depth (default 11).
        depth: Option<u32>,
        /// Search threads (default 1: the deterministic node count; more: the parallel speed).
        threads: Option<usize>,
        /// The evaluation: `embedded` (the default net), `hce` (hand-crafted) or a net file.
        #[arg(long, default_value = "embedded")]
        net: String,
    },
    /// Print the static evaluation of a position: the network's, piece by piece, and the
    /// hand-crafted one term by term.
    Eval {
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// A net file to use instead of the embedded one.
        #[arg(long)]
        net: Option<String>,
    },
    /// List the moves a Polyglot opening book (.bin) has for a position, with their weights.
    Book {
        /// The book file.
        file: String,
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
    },
    /// Play and analyse in a browser: serves a local web page (http://127.0.0.1:8080/ by default).
    Serve {
        /// Address to listen on; the default keeps the page on this machine.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// Port (0: any free one).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Open the page in the default browser.
        #[arg(long)]
        open: bool,
    },
    /// Probe Syzygy tablebases: prints `FEN | wdl | dtz` for each position (`--fen`, or one FEN
    /// a line on standard input); `-` where the tables have no answer.
    Syzygy {
        /// Folders holding the tables, separated by `:` (`;` on Windows).
        #[arg(long)]
        path: String,
        /// Position to probe (default: read FENs from standard input).
        #[arg(long)]
        fen: Option<String>,
    },
    /// Run an EPD test suite with `bm`/`am` operations; ends with `solved N/M`.
    Epd {
        /// The EPD file.
        file: String,
        /// Milliseconds per position (default 1000).
        #[arg(long, conflicts_with_all = ["depth", "nodes"])]
        movetime: Option<u64>,
        /// Fixed depth per position.
        #[arg(long, conflicts_with = "nodes")]
        depth: Option<u32>,
        /// Fixed nodes per position.
        #[arg(long)]
        nodes: Option<u64>,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
    },
    /// Train an NNUE net on data files (pure Rust, CPU); writes NET and NET.ckpt every epoch.
    Train {
        /// Data files: binary games from datagen, or `FEN | score | result` text (.txt, .txt.gz).
        #[arg(long, required = true, num_args = 1..)]
        data: Vec<String>,
        /// The net file to write.
        #[arg(long)]
        out: String,
        /// Hidden layer size.
        #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u32).range(1..=4096))]
        hidden: u32,
        /// Output buckets chosen by the piece count (1: a single output layer).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=32))]
        buckets: u32,
        /// Passes over the data.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=10000))]
        epochs: u32,
        /// Positions per optimiser step.
        #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u32).range(1..=16_777_216))]
        batch: u32,
        /// Starting learning rate (cosine decay to 1 % of it).
        #[arg(long, default_value_t = 0.001)]
        lr: f32,
        /// Weight of the game result in the target (0: score only, 1: result only).
        #[arg(long, default_value_t = 0.5)]
        wdl: f32,
        /// Threads.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// Seed for initialisation, validation split and shuffling.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Continue from a checkpoint (NET.ckpt) with the same data and flags.
        #[arg(long)]
        resume: Option<String>,
        /// Skip malformed data lines or records instead of failing.
        #[arg(long)]
        skip_bad: bool,
        /// Also train on every position mirrored left to right.
        #[arg(long, conflicts_with = "king_mirror")]
        mirror: bool,
        /// King-mirrored inputs: each side's view is mirrored left to right while its king is
        /// on the e–h files (a position and its mirror image then look the same to the net).
        #[arg(long)]
        king_mirror: bool,
    },
    /// Generate training data by self-play (appends whole games; resumes where a run stopped).
    Datagen {
        /// The output file: binary game records, or the text form if it ends in `.txt`.
        #[arg(long, required_unless_present = "stats")]
        out: Option<String>,
        /// Worker threads.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// Nodes searched per move.
        #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
        nodes: u64,
        /// Stop after this many new positions.
        #[arg(long, conflicts_with = "games")]
        positions: Option<u64>,
        /// Stop after this many new games.
        #[arg(long)]
        games: Option<u64>,
        /// Seed: game i of a run is determined by the seed and i.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Random legal plies before the game (default 8; 0 with --openings; 4 after --book).
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=40))]
        random_plies: Option<u32>,
        /// EPD/FEN file of start positions to draw openings from.
        #[arg(long)]
        openings: Option<String>,
        /// A Polyglot book (.bin): each game follows it, moves drawn by weight, until it ends.
        #[arg(long)]
        book: Option<String>,
        /// Transposition table per thread, MiB.
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=4096))]
        hash: u64,
        /// The evaluation the games are played with: `embedded` (the default net), `hce`
        /// (hand-crafted) or a net file.
        #[arg(long, default_value = "embedded")]
        net: String,
        /// Print counts, the result mix and a score histogram of a data file instead.
        #[arg(long, conflicts_with_all = ["convert"])]
        stats: Option<String>,
        /// Convert a data file (binary or text) to the text form in --out.
        #[arg(long)]
        convert: Option<String>,
        /// Skip malformed lines or a torn record instead of failing.
        #[arg(long)]
        skip_bad: bool,
    },
    /// Analyse the games of a PGN file as lichess does: judgements, accuracy, annotated PGN.
    Analyze {
        /// The PGN file (any number of games).
        pgn: std::path::PathBuf,
        /// Think this long per position, milliseconds.
        #[arg(long, conflicts_with_all = ["depth", "nodes"], value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
        movetime: Option<u64>,
        /// Search each position to this depth.
        #[arg(long, conflicts_with = "nodes", value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: Option<u32>,
        /// Search each position this many nodes (1,000,000 when no limit is given).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=u64::MAX))]
        nodes: Option<u64>,
        /// Positions analysed at once, each searcher on its own stretch of the game (default: one
        /// per core).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: Option<u64>,
        /// Lines per position (the extra ones appear in --json).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=16))]
        multipv: u64,
        /// Hash table per searcher, MiB.
        #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..=4096))]
        hash: u64,
        /// Write the annotated PGN here instead of standard output.
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Draw the evaluation graph into FILE.svg or FILE.png.
        #[arg(long)]
        graph: Option<std::path::PathBuf>,
        /// Write per-move results as JSON on standard output.
        #[arg(long)]
        json: bool,
        /// Analyse only the N-th game of the file.
        #[arg(long)]
        game: Option<usize>,
        /// Judge only this side's moves.
        #[arg(long, value_parser = ["white", "black"])]
        side: Option<String>,
        /// The evaluation: `embedded` (the default net), `hce` (hand-crafted) or a net file.
        #[arg(long, default_value = "embedded")]
        net: String,
        /// Syzygy tablebase folders (`:`-separated): positions in the tables are judged by them.
        #[arg(long)]
        syzygy: Option<String>,
    },
}

/// The position of a `--fen` flag, or the start position without one.
fn board_or_start(fen: Option<&str>) -> Result<Board, String> {
    fen.map_or(Ok(Board::startpos()), |f| {
        Board::from_fen(f).map_err(|e| format!("bad FEN: {e}"))
    })
}

fn fail(msg: &str) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

/// `fianchetto syzygy`: answers every line, then fails (exit 1) if any was not a position.
fn syzygy(path: &str, fen: Option<&str>) -> ExitCode {
    let tb = match fianchetto::syzygy::Tablebases::open(path) {
        Ok((tb, warnings)) => {
            for w in warnings {
                eprintln!("warning: {w}");
            }
            tb
        }
        Err(e) => return fail(&e.to_string()),
    };
    let mut stdout = std::io::stdout().lock();
    let mut out = |line: &str| writeln!(stdout, "{line}").is_ok();
    let mut warn = |w: &str| eprintln!("warning: {w}");
    let stdin = std::io::stdin();
    match tools::syzygy::run(&tb, fen, &mut stdin.lock(), &mut out, &mut warn) {
        Ok(s) if s.bad == 0 => ExitCode::SUCCESS,
        Ok(s) => {
            eprintln!(
                "error: {} of {} lines were not positions (each is answered with its error)",
                s.bad,
                s.bad + s.probed
            );
            ExitCode::FAILURE
        }
        Err(e) => fail(&e.to_string()),
    }
}

/// Reads a text file the user named (a regular file, bounded); bytes that are not UTF-8 are
/// replaced, so that a stray Latin-1 comment costs only its line.
fn read_text(path: &str) -> Result<String, String> {
    fianchetto::files::read_bounded(
        std::path::Path::new(path),
        fianchetto::files::TEXT_LIMIT,
        "text file",
    )
    .map(|b| String::from_utf8_lossy(&b).into_owned())
    .map_err(|e| e.to_string())
}

/// Reads start positions, one FEN or EPD record a line (blank lines and `#` comments skipped).
fn read_openings(path: &str) -> Result<Vec<Board>, String> {
    let text = read_text(path)?;
    let mut boards = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let epd = fianchetto::chess::parse_epd(line)
            .map_err(|e| format!("{path}: line {}: {e}", i + 1))?;
        boards.push(epd.board);
    }
    if boards.is_empty() {
        return Err(format!("{path}: no positions"));
    }
    Ok(boards)
}

/// Writes every position of a data file in the text form; returns the count.
fn convert_to_text(input: &str, output: &str, skip_bad: bool) -> Result<u64, String> {
    use std::io::Write;
    let file = std::fs::File::create(output).map_err(|e| format!("{output}: {e}"))?;
    let mut w = std::io::BufWriter::new(file);
    let mut err = None;
    let counts = tools::data::read_samples(input, skip_bad, &mut |s| {
        if err.is_none() {
            if let Err(e) = writeln!(w, "{}", s.to_text()) {
                err = Some(e);
            }
        }
    })
    .map_err(|e| e.to_string())?;
    if let Some(e) = err {
        return Err(format!("{output}: {e}"));
    }
    w.flush().map_err(|e| format!("{output}: {e}"))?;
    Ok(counts.positions)
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
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
            // One clear line, not clap's usage block: scripts and people read the first line.
            let text = e.to_string();
            let first = text
                .lines()
                .next()
                .unwrap_or("bad command line")
                .trim_start_matches("error: ");
            return fail(&format!("{first} (see fianchetto --help)"));
        }
    };
    match cli.command {
        Some(Command::Perft {
            depth,
            fen,
            divide,
            check_hash,
            suite,
            max_nodes,
            threads,
        }) => {
            let args = tools::perft::PerftArgs {
                depth,
                fen,
                divide,
                check_hash,
                suite,
                max_nodes,
                threads: threads.max(1),
            };
            match tools::perft::run(&args, &mut |l| println!("{l}")) {
                Ok(true) => ExitCode::SUCCESS,
                Ok(false) => ExitCode::from(1),
                Err(e) => fail(&e.to_string()),
            }
        }
        Some(Command::Bench {
            depth,
            threads,
            net,
        }) => {
            let net = match fianchetto::eval::nnue::choose(&net) {
                Ok(n) => n,
                Err(e) => return fail(&format!("{net}: {e}")),
            };
            let config = tools::bench::BenchConfig {
                depth: depth.unwrap_or(tools::bench::DEFAULT_DEPTH),
                // `Searcher::set_threads` clamps it.
                threads: threads.unwrap_or(1),
                net,
            };
            tools::bench::run(&config, &mut |l| println!("{l}"));
            ExitCode::SUCCESS
        }
        Some(Command::Eval { fen, net }) => {
            let net = match net {
                Some(path) => match fianchetto::eval::nnue::Network::load(&path) {
                    Ok(n) => std::sync::Arc::new(n),
                    Err(e) => return fail(&format!("{path}: {e}")),
                },
                None => fianchetto::eval::nnue::default_net(),
            };
            let board = match board_or_start(fen.as_deref()) {
                Ok(b) => b,
                Err(e) => return fail(&e),
            };
            print!("{}", tools::eval::report(&board, Some(&net)));
            ExitCode::SUCCESS
        }
        Some(Command::Book { file, fen }) => {
            let book = match fianchetto::chess::polyglot::Book::load(&file) {
                Ok(b) => b,
                Err(e) => return fail(&e.to_string()),
            };
            let board = match board_or_start(fen.as_deref()) {
                Ok(b) => b,
                Err(e) => return fail(&e),
            };
            print!("{}", tools::book::listing(&book, &board));
            ExitCode::SUCCESS
        }
        Some(Command::Serve { host, port, open }) => {
            match fianchetto::web::serve(&host, port, open) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail(&e),
            }
        }
        Some(Command::Syzygy { path, fen }) => syzygy(&path, fen.as_deref()),
        Some(Command::Epd {
            file,
            movetime,
            depth,
            nodes,
            hash,
        }) => {
            use tools::epd::EpdLimit;
            let limit = match (movetime, depth, nodes) {
                (_, Some(d), _) => EpdLimit::Depth(d.clamp(1, 100)),
                (_, _, Some(n)) => EpdLimit::Nodes(n.max(1)),
                (Some(ms), _, _) => EpdLimit::Movetime(ms.max(1)),
                _ => EpdLimit::Movetime(1000),
            };
            let text = match read_text(&file) {
                Ok(t) => t,
                Err(e) => return fail(&e),
            };
            match tools::epd::run(&text, limit, hash.clamp(1, 65536), &mut |l| println!("{l}")) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => fail(&format!("{file}: {e}")),
            }
        }
        Some(Command::Datagen {
            out,
            threads,
            nodes,
            positions,
            games,
            seed,
            random_plies,
            openings,
            book,
            hash,
            net,
            stats,
            convert,
            skip_bad,
        }) => {
            use tools::data;
            if let Some(path) = stats {
                return match data::stats(&path, skip_bad) {
                    Ok(s) => {
                        print!("{s}");
                        ExitCode::SUCCESS
                    }
                    Err(e) => fail(&e.to_string()),
                };
            }
            // clap requires --out unless --stats is given.
            let Some(out) = out else {
                return fail("--out is required");
            };
            if let Some(input) = convert {
                return match convert_to_text(&input, &out, skip_bad) {
                    Ok(n) => {
                        println!("{n} positions written to {out}");
                        ExitCode::SUCCESS
                    }
                    Err(e) => fail(&e),
                };
            }
            let openings = match openings.as_deref().map(read_openings).transpose() {
                Ok(o) => o.unwrap_or_default(),
                Err(e) => return fail(&e),
            };
            let net = match fianchetto::eval::nnue::choose(&net) {
                Ok(n) => n,
                Err(e) => return fail(&format!("{net}: {e}")),
            };
            let book = match book
                .as_deref()
                .map(fianchetto::chess::polyglot::Book::load)
                .transpose()
            {
                Ok(b) => b.map(std::sync::Arc::new),
                Err(e) => return fail(&e.to_string()),
            };
            let default_plies = match (&book, openings.is_empty()) {
                (Some(_), _) => 4,
                (None, true) => 8,
                (None, false) => 0,
            };
            let args = tools::datagen::DatagenArgs {
                out,
                threads: threads as usize,
                nodes,
                positions,
                games,
                seed,
                random_plies: random_plies.unwrap_or(default_plies),
                openings,
                book,
                hash_mib: hash as usize,
                progress: true,
                net,
            };
            let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let flag = stop.clone();
            let _ =
                ctrlc::set_handler(move || flag.store(true, std::sync::atomic::Ordering::Relaxed));
            match tools::datagen::run(&args, stop, &mut |l| println!("{l}")) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => fail(&e),
            }
        }
        Some(Command::Train {
            data,
            out,
            hidden,
            buckets,
            epochs,
            batch,
            lr,
            wdl,
            threads,
            seed,
            resume,
            skip_bad,
            mirror,
            king_mirror,
        }) => {
            use tools::train;
            if !(lr.is_finite() && lr > 0.0 && lr < 1.0) {
                return fail(&format!("--lr {lr} is not in (0, 1)"));
            }
            let args = train::TrainArgs {
                data,
                out,
                hidden: hidden as usize,
                buckets: buckets as usize,
                epochs: epochs as usize,
                batch: batch as usize,
                lr,
                wdl,
                threads: threads as usize,
                seed,
                resume,
                skip_bad,
                progress: true,
                validation: 0.01,
                stop_after: None,
                mirror,
                king_mirror,
            };
            let loaded = match train::load_data(&args.data, args.skip_bad, &mut |l| println!("{l}"))
            {
                Ok(d) => d,
                Err(e) => return fail(&e),
            };
            match train::train(&args, loaded, &mut |l| println!("{l}")) {
                Ok(s) => {
                    println!(
                        "wrote {}: {:.0} positions/s ({:.0} per thread)",
                        args.out,
                        s.positions_per_s,
                        s.positions_per_s / args.threads as f64
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => fail(&e),
            }
        }
        Some(Command::Analyze {
            pgn,
            movetime,
            depth,
            nodes,
            threads,
            multipv,
            hash,
            out,
            graph,
            json,
            game,
            side,
            net,
            syzygy,
        }) => {
            use fianchetto::chess::Color;
            use tools::analyze::{self, run};
            let net = match fianchetto::eval::nnue::choose(&net) {
                Ok(n) => n,
                Err(e) => return fail(&format!("{net}: {e}")),
            };
            let tablebases = match syzygy.as_deref().map(fianchetto::syzygy::Tablebases::open) {
                None => None,
                Some(Ok((tables, warnings))) => {
                    for w in warnings {
                        eprintln!("warning: {w}");
                    }
                    if tables.is_empty() {
                        return fail(&format!(
                            "--syzygy {}: no tables found",
                            syzygy.unwrap_or_default()
                        ));
                    }
                    Some(fianchetto::search::TablebaseConfig::new(
                        std::sync::Arc::new(tables),
                    ))
                }
                Some(Err(e)) => return fail(&format!("--syzygy: {e}")),
            };
            // Without a limit, each position gets DEFAULT_NODES: chosen from the agreement
            // table in README (Stockfish's judgements matched at precision and recall 0.85, a
            // 90-move game in about a minute on two cores).
            let nodes = nodes.or(if movetime.is_none() && depth.is_none() {
                Some(analyze::DEFAULT_NODES)
            } else {
                None
            });
            let limits = fianchetto::search::Limits {
                depth,
                nodes,
                movetime,
                multipv: multipv as usize,
                ..Default::default()
            };
            let args = run::RunArgs {
                pgn,
                options: analyze::Options {
                    limits,
                    threads: threads
                        .map_or_else(fianchetto::tools::analyze::default_threads, |t| t as usize),
                    hash_mib: hash as usize,
                    net,
                    tablebases,
                },
                out,
                graph,
                json,
                game,
                side: side.map(|s| {
                    if s == "white" {
                        Color::White
                    } else {
                        Color::Black
                    }
                }),
                progress: std::io::stderr().is_terminal(),
            };
            let interrupt = run::Interrupt::default();
            let handler = interrupt.clone();
            let _ = ctrlc::set_handler(move || handler.trigger());
            match run::run(&args, &interrupt, &mut |l| println!("{l}"), &mut |l| {
                eprintln!("{l}")
            }) {
                Ok(true) => ExitCode::SUCCESS,
                Ok(false) => ExitCode::from(1),
                Err(e) => fail(&e.to_string()),
            }
        }
        Some(Command::Uci) => {
            fianchetto::uci::run();
            ExitCode::SUCCESS
        }
        Some(Command::Play {
            side,
            depth,
            movetime,
            elo,
            fen,
            chess960,
            ascii,
            resume,
            book,
            clock,
            plain,
        }) => {
            use fianchetto::tui::{Human, Resume, Strength};
            let fen = match chess960 {
                Some(n) => {
                    // Any of the 960 will do without a number.
                    let n = n.unwrap_or_else(|| {
                        let count = u64::from(fianchetto::chess::chess960::POSITIONS);
                        (tools::clock_random() % count) as u16
                    });
                    println!("Chess960 start position {n}");
                    // clap has checked the range, so the position exists.
                    match fianchetto::chess::chess960::start_fen(n) {
                        Ok(f) => Some(f),
                        Err(e) => return fail(&e.to_string()),
                    }
                }
                None => fen,
            };
            let human = side.map(|s| match s.as_str() {
                "white" => Human::White,
                "black" => Human::Black,
                _ => Human::Nobody,
            });
            let strength = depth
                .map(Strength::Depth)
                .or(movetime.map(Strength::Movetime))
                .or(elo.map(Strength::Elo));
            let opts = fianchetto::tui::PlayOptions {
                human,
                strength,
                fen,
                ascii,
                resume: resume.map(|p| p.map_or(Resume::Last, Resume::File)),
                book,
                time_control: clock,
                plain,
            };
            match fianchetto::tui::run(opts) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail(&e),
            }
        }
        None => {
            // GUIs start engines with a pipe on stdin; a person starts us in a terminal.
            if std::io::stdin().is_terminal() {
                match fianchetto::tui::run(fianchetto::tui::PlayOptions::default()) {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(e) => fail(&e),
                }
            } else {
                fianchetto::uci::run();
                ExitCode::SUCCESS
            }
        }
    }
}
