//! `train`: fits the (768 → H) × 2 → 1 SCReLU network (with B output buckets chosen by the
//! piece count) to self-play data on the CPU.
//!
//! Target `λ·result + (1−λ)·σ(score/400)`, loss `(σ(output) − target)²` (the output times 400
//! is centipawns), AdamW with a cosine learning-rate decay to 1 % of the start, weights clipped
//! to ±1.98 so that the quantised net cannot overflow (see `eval::nnue`). Batches are split over
//! threads, each with its own gradient, summed in thread order, so a run is reproducible for the
//! same data, flags and thread count.
//!
//! The parts: `packed` (positions and their input features), `model` (the float net and its
//! quantisation), `batch` (forward and backward passes), `optim` (AdamW and the schedule),
//! `checkpoint` (resumable state and the net file); this file holds the loop.

mod batch;
mod checkpoint;
mod model;
mod optim;
mod packed;

pub use batch::loss;
pub use checkpoint::write_net;
pub use model::{FloatNet, WEIGHT_CLIP};
pub use packed::Packed;

use super::data::read_samples;
use crate::command::{Outcome, Progress};
use crate::eval::nnue::{shape_problem, Network};
use crate::rand::SplitMix;
use batch::{parallel_batch, Scratch};
use checkpoint::{load_checkpoint, save_checkpoint};
use optim::Adam;
use std::time::Instant;

/// What a training run does.
#[derive(Clone, Debug)]
pub struct TrainArgs {
    /// Data files (binary games, text or gzipped text).
    pub data: Vec<String>,
    /// Where the quantised net goes (and `<out>.ckpt`, the checkpoint).
    pub out: String,
    /// Hidden layer size.
    pub hidden: usize,
    /// Output buckets by piece count (1: one output layer).
    pub buckets: usize,
    /// Passes over the training set.
    pub epochs: usize,
    /// Positions per optimiser step.
    pub batch: usize,
    /// Starting learning rate.
    pub lr: f32,
    /// λ: the weight of the game result in the target (the rest is the search score).
    pub wdl: f32,
    /// Threads that split each batch.
    pub threads: usize,
    /// Seed for initialisation, the validation split and shuffling.
    pub seed: u64,
    /// A checkpoint to continue from.
    pub resume: Option<String>,
    /// A net file whose weights training starts from instead of random ones (a fine-tune).
    pub init: Option<String>,
    /// Skip malformed data instead of failing.
    pub skip_bad: bool,
    /// Fraction of the data held out for validation.
    pub validation: f64,
    /// End this call after this many epochs (as an interruption would); `None`: run them all.
    pub stop_after: Option<usize>,
    /// Add every training position mirrored left to right.
    pub mirror: bool,
    /// King-mirrored inputs: each side's view is mirrored left to right while its king is on
    /// the e–h files (see `eval::nnue`).
    pub king_mirror: bool,
}

/// Reads and packs every position of the data files.
pub fn load_data(
    files: &[String],
    skip_bad: bool,
    out: &mut dyn FnMut(&str),
) -> Result<Vec<Packed>, TrainError> {
    let mut all = Vec::new();
    for f in files {
        let before = all.len();
        let counts = read_samples(f, skip_bad, &mut |s| all.push(Packed::new(&s)))?;
        out(&format!(
            "{f}: {} positions{}",
            all.len() - before,
            if counts.skipped > 0 {
                format!(" ({} bad skipped)", counts.skipped)
            } else {
                String::new()
            }
        ));
    }
    Ok(all)
}

/// Consecutive positions held out together for validation. A game's positions sit next to each
/// other in every data file and are so alike that a set drawn position by position measures how
/// well the net remembers the games it trained on more than how it judges new ones: its
/// neighbours were trained on. Whole blocks leave only the games cut by a block's two edges
/// shared with training (a block is about eleven games at datagen's ~90 positions a game).
const VALIDATION_BLOCK: usize = 1024;

/// The fewest blocks a validation set is made of, so that a small one is not a stretch of one
/// or two games (in tests' random-play sets, one block of 150 positions was one random game).
const VALIDATION_MIN_BLOCKS: usize = 64;

/// The block size for a validation set of `n_val` positions: [`VALIDATION_BLOCK`], smaller
/// when needed to make [`VALIDATION_MIN_BLOCKS`] of them.
fn validation_block(n_val: usize) -> usize {
    (n_val / VALIDATION_MIN_BLOCKS).clamp(1, VALIDATION_BLOCK)
}

/// Moves `n_val` positions out of `data` for validation: whole blocks of consecutive positions
/// ([`validation_block`]), picked by `rng`, the last one cut to size. The rest keep their order
/// (each epoch shuffles its own).
fn hold_out_blocks<T: Copy>(data: &mut Vec<T>, n_val: usize, rng: &mut SplitMix) -> Vec<T> {
    let block = validation_block(n_val);
    let mut blocks: Vec<usize> = (0..data.len().div_ceil(block)).collect();
    shuffle(&mut blocks, rng);
    // How many of each block's positions (from its start) are held out.
    let mut take = vec![0usize; blocks.len()];
    let mut left = n_val;
    for &b in &blocks {
        if left == 0 {
            break;
        }
        let size = block.min(data.len() - b * block);
        take[b] = size.min(left);
        left -= take[b];
    }
    let mut val = Vec::with_capacity(n_val);
    let mut i = 0;
    data.retain(|p| {
        let held = i % block < take[i / block];
        if held {
            val.push(*p);
        }
        i += 1;
        !held
    });
    val
}

/// The training and validation sets: blocks of consecutive positions held out by the seed
/// ([`hold_out_blocks`]), then the training positions' mirror images if asked for.
fn split_data(
    args: &TrainArgs,
    mut data: Vec<Packed>,
) -> Result<(Vec<Packed>, Vec<Packed>), TrainError> {
    let mut rng = SplitMix::new(args.seed ^ 0x5EED_DA7A);
    let n_val = (data.len() as f64 * args.validation).floor() as usize;
    if n_val == 0 {
        return Err(TrainError::NoValidation {
            positions: data.len(),
            fraction: args.validation,
        });
    }
    let val = hold_out_blocks(&mut data, n_val, &mut rng);
    if args.mirror {
        // After the split, so that no mirror image of a validation position is trained on.
        let mirrored: Vec<Packed> = data.iter().map(Packed::mirrored).collect();
        data.extend(mirrored);
    }
    if data.len() < args.batch {
        return Err(TrainError::TooFew {
            positions: data.len(),
            batch: args.batch,
        });
    }
    Ok((data, val))
}

/// How a net to go on from differs from the flags' shape (`None`: it matches).
fn shape_mismatch(net: &FloatNet, args: &TrainArgs) -> Option<String> {
    if net.hidden != args.hidden {
        return Some(format!(
            "hidden size {}, but --hidden {}",
            net.hidden, args.hidden
        ));
    }
    kind_mismatch(net, args)
}

/// How `net` differs from what `args` asks for in what widening cannot change: the output
/// buckets and the king mirroring of the inputs.
fn kind_mismatch(net: &FloatNet, args: &TrainArgs) -> Option<String> {
    if net.buckets != args.buckets {
        return Some(format!(
            "output buckets {}, but --buckets {}",
            net.buckets, args.buckets
        ));
    }
    if net.king_mirror != args.king_mirror {
        return Some(format!(
            "{} inputs, but --king-mirror {}",
            if net.king_mirror {
                "king-mirrored"
            } else {
                "plain"
            },
            if args.king_mirror {
                "given"
            } else {
                "not given"
            }
        ));
    }
    None
}

/// A new net and optimiser, the checkpoint's when resuming (refused when it belongs to
/// another run's shape, inputs or seed), or a fresh optimiser on a net file's weights
/// (`--init`, widened when it is narrower than `--hidden`, refused when its shape differs
/// otherwise); and the epochs already done.
fn start_or_resume(
    args: &TrainArgs,
    out: &mut dyn FnMut(&str),
) -> Result<(FloatNet, Adam, usize), TrainError> {
    if let Some(path) = &args.resume {
        let (net, adam, done, seed) = load_checkpoint(path)?;
        let mismatch = |what: String| TrainError::Resume {
            path: path.clone(),
            what,
        };
        if let Some(what) = shape_mismatch(&net, args) {
            return Err(mismatch(what));
        }
        if seed != args.seed {
            return Err(mismatch(format!(
                "made with --seed {seed}, not {}",
                args.seed
            )));
        }
        out(&format!("resuming from {path} after epoch {done}"));
        return Ok((net, adam, done));
    }
    if let Some(path) = &args.init {
        let init_error = |what: String| TrainError::Init {
            path: path.clone(),
            what,
        };
        let loaded = Network::load(path).map_err(|e| init_error(e.to_string()))?;
        let mut net = FloatNet::from_network(&loaded);
        if net.hidden < args.hidden {
            // A narrower net of the same kind is widened (its function unchanged) rather than
            // refused: a wider net starts where the narrow one stands. One of another kind is
            // refused before anything is said about widening it.
            if let Some(what) = kind_mismatch(&net, args) {
                return Err(init_error(what));
            }
            out(&format!(
                "widening {path} from hidden size {} to {}: the new neurons start silent",
                net.hidden, args.hidden
            ));
            net = net.widened(args.hidden, args.seed);
        }
        if let Some(what) = shape_mismatch(&net, args) {
            return Err(init_error(what));
        }
        out(&format!("starting from the weights of {path}"));
        return Ok((net, Adam::new(args.hidden, args.buckets), 0));
    }
    Ok((
        FloatNet {
            king_mirror: args.king_mirror,
            ..FloatNet::new(args.hidden, args.buckets, args.seed)
        },
        Adam::new(args.hidden, args.buckets),
        0,
    ))
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct TrainSummary {
    /// The trained net (floating point).
    pub net: FloatNet,
    /// Validation loss after each epoch run by this call.
    pub validation: Vec<f64>,
    /// Training positions per second (all threads).
    pub positions_per_s: f64,
}

/// Trains on `data` (already loaded); writes the net and checkpoint after every epoch.
pub fn train(
    args: &TrainArgs,
    data: Vec<Packed>,
    out: &mut dyn FnMut(&str),
    progress: &dyn Progress,
) -> Result<TrainSummary, TrainError> {
    if let Some(why) = shape_problem(args.hidden, args.buckets) {
        return Err(TrainError::Shape {
            hidden: args.hidden,
            buckets: args.buckets,
            why,
        });
    }
    if args.batch == 0 || args.epochs == 0 {
        return Err(TrainError::Zero);
    }
    if !(0.0..=1.0).contains(&args.wdl) {
        return Err(TrainError::Wdl(args.wdl));
    }
    let (data, val) = split_data(args, data)?;
    let (mut net, mut adam, done) = start_or_resume(args, out)?;
    let threads = args.threads.clamp(1, 256);
    let mut scratch: Vec<Scratch> = (0..threads)
        .map(|_| Scratch::new(args.hidden, args.buckets))
        .collect();
    let batches_per_epoch = data.len() / args.batch;
    let total_steps = (batches_per_epoch * args.epochs) as f64;
    out(&format!(
        "{} training positions, {} validation; hidden {}, {} output buckets, {} epochs of {} batches of {}, {} threads",
        data.len(),
        val.len(),
        args.hidden,
        args.buckets,
        args.epochs,
        batches_per_epoch,
        args.batch,
        threads
    ));
    let mut summary = TrainSummary {
        net: net.clone(),
        validation: Vec::new(),
        positions_per_s: 0.0,
    };
    let (mut seen, start) = (0u64, Instant::now());
    let ckpt = format!("{}.ckpt", args.out);
    let last = args
        .stop_after
        .map_or(args.epochs, |n| (done + n).min(args.epochs));
    for epoch in done..last {
        // Each epoch's order depends on the seed and the epoch alone, so a resumed run repeats
        // it. The indices are shuffled, not the data: the same order as shuffling a copy of the
        // data set (the same swaps), without the copy.
        let mut order: Vec<u32> = (0..data.len() as u32).collect();
        shuffle(
            &mut order,
            &mut SplitMix::new(args.seed.wrapping_add(epoch as u64 + 1)),
        );
        progress.start(
            &format!("{}/{}", epoch + 1, args.epochs),
            batches_per_epoch as u64,
        );
        let epoch_start = Instant::now();
        let mut train_loss = 0.0;
        let mut batch = Vec::with_capacity(args.batch);
        for (i, indices) in order.chunks_exact(args.batch).enumerate() {
            batch.clear();
            batch.extend(indices.iter().map(|&j| data[j as usize]));
            let step = (epoch * batches_per_epoch + i) as f64;
            let lr = optim::learning_rate(args.lr, step, total_steps);
            train_loss += parallel_batch(&net, &batch, args.wdl, &mut scratch, true);
            adam.update(&mut net, &scratch[0].grad, lr, 1.0 / batch.len() as f32);
            seen += batch.len() as u64;
            if i % 16 == 0 {
                let rate = ((i + 1) * args.batch) as f64 / epoch_start.elapsed().as_secs_f64();
                progress.note(&format!("{rate:.0} pos/s"));
            }
            progress.advance(1);
        }
        progress.finish();
        let train_loss = train_loss / (batches_per_epoch * args.batch) as f64;
        let val_loss = loss(&net, &val, args.wdl, threads);
        summary.validation.push(val_loss);
        let rate = (batches_per_epoch * args.batch) as f64 / epoch_start.elapsed().as_secs_f64();
        out(&format!(
            "epoch {:>3}/{}  train loss {train_loss:.6}  validation loss {val_loss:.6}  {rate:.0} pos/s ({:.0} per thread)",
            epoch + 1,
            args.epochs,
            rate / threads as f64
        ));
        save_checkpoint(&ckpt, &net, &adam, epoch + 1, args.seed)?;
        write_net(&args.out, &net.quantise())?;
    }
    summary.positions_per_s = seen as f64 / start.elapsed().as_secs_f64().max(1e-9);
    summary.net = net;
    Ok(summary)
}

fn shuffle<T>(v: &mut [T], rng: &mut SplitMix) {
    for i in (1..v.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        v.swap(i, j);
    }
}

/// Why training could not run or stopped.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A data file could not be read.
    #[error(transparent)]
    Data(#[from] crate::tools::data::DataError),
    /// The network's shape is not one the engine can load.
    #[error("--hidden {hidden} --buckets {buckets}: {why}")]
    Shape {
        /// Hidden layer size asked for.
        hidden: usize,
        /// Output buckets asked for.
        buckets: usize,
        /// What is wrong with it.
        why: String,
    },
    /// A batch or epoch count of zero.
    #[error("--batch and --epochs must be at least 1")]
    Zero,
    /// A result weight outside 0..1.
    #[error("--wdl {0} is outside 0..1")]
    Wdl(f32),
    /// A learning rate outside (0, 1).
    #[error("--lr {0} is not in (0, 1)")]
    LearningRate(f32),
    /// Too little data for a validation set.
    #[error("{positions} positions give an empty validation split ({:.1} %): more data is needed", .fraction * 100.0)]
    NoValidation {
        /// Positions loaded.
        positions: usize,
        /// The fraction held out.
        fraction: f64,
    },
    /// Fewer positions than one batch.
    #[error("{positions} training positions are fewer than one batch of {batch}")]
    TooFew {
        /// Training positions.
        positions: usize,
        /// The batch size.
        batch: usize,
    },
    /// The checkpoint does not belong to this run.
    #[error("{path}: {what}")]
    Resume {
        /// The checkpoint.
        path: String,
        /// How it differs from the flags.
        what: String,
    },
    /// The net to start from (`--init`) could not be read or has another shape.
    #[error("--init {path}: {what}")]
    Init {
        /// The net file.
        path: String,
        /// What is wrong with it.
        what: String,
    },
    /// The checkpoint file is not one this build reads.
    #[error("{path}: {what}")]
    Checkpoint {
        /// The file.
        path: String,
        /// What is wrong with it.
        what: String,
    },
    /// The checkpoint could not be read.
    #[error(transparent)]
    Read(#[from] crate::files::FileError),
    /// Writing the net or the checkpoint failed.
    #[error("{path}: {source}")]
    Write {
        /// The file.
        path: String,
        /// The system's error.
        source: std::io::Error,
    },
}

/// The `train` command's flags.
#[derive(Debug, Clone, clap::Args)]
pub struct TrainFlags {
    /// Data files: binary games from datagen, or `FEN | score | result` text (.txt, .txt.gz).
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<String>,
    /// The net file to write.
    #[arg(long)]
    pub out: String,
    /// Hidden layer size.
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub hidden: u32,
    /// Output buckets chosen by the piece count (1: a single output layer).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=32))]
    pub buckets: u32,
    /// Passes over the data.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=10000))]
    pub epochs: u32,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u32).range(1..=16_777_216))]
    pub batch: u32,
    /// Starting learning rate (cosine decay to 1 % of it).
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// Weight of the game result in the target (0: score only, 1: result only).
    #[arg(long, default_value_t = 0.5)]
    pub wdl: f32,
    /// Threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Seed for initialisation, validation split and shuffling.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Continue from a checkpoint (NET.ckpt) with the same data and flags.
    #[arg(long)]
    pub resume: Option<String>,
    /// Start from this net's weights instead of random ones (a fine-tune on new data; the
    /// shape flags must match the net's, except that a larger --hidden widens it, the new
    /// neurons starting silent). Usually with a lower --lr.
    #[arg(long, conflicts_with = "resume")]
    pub init: Option<String>,
    /// Skip malformed data lines or records instead of failing.
    #[arg(long)]
    pub skip_bad: bool,
    /// Also train on every position mirrored left to right.
    #[arg(long, conflicts_with = "king_mirror")]
    pub mirror: bool,
    /// King-mirrored inputs: each side's view is mirrored left to right while its king is
    /// on the e–h files (a position and its mirror image then look the same to the net).
    #[arg(long)]
    pub king_mirror: bool,
}

/// The `train` command: loads the data, trains, and says what it wrote.
pub fn command(
    flags: TrainFlags,
    out: &mut dyn FnMut(&str),
    progress: &dyn Progress,
) -> Result<Outcome, TrainError> {
    let lr = flags.lr;
    if !(lr.is_finite() && lr > 0.0 && lr < 1.0) {
        return Err(TrainError::LearningRate(lr));
    }
    let args = TrainArgs {
        data: flags.data,
        out: flags.out,
        hidden: flags.hidden as usize,
        buckets: flags.buckets as usize,
        epochs: flags.epochs as usize,
        batch: flags.batch as usize,
        lr,
        wdl: flags.wdl,
        threads: flags.threads as usize,
        seed: flags.seed,
        resume: flags.resume,
        init: flags.init,
        skip_bad: flags.skip_bad,
        validation: 0.01,
        stop_after: None,
        mirror: flags.mirror,
        king_mirror: flags.king_mirror,
    };
    let loaded = load_data(&args.data, args.skip_bad, out)?;
    let s = train(&args, loaded, out, progress)?;
    out(&format!(
        "wrote {}: {:.0} positions/s ({:.0} per thread)",
        args.out,
        s.positions_per_s,
        s.positions_per_s / args.threads as f64
    ));
    Ok(Outcome::Success)
}

#[cfg(test)]
mod tests {
    use super::checkpoint::{CKPT2_MAGIC, CKPT_HEADER, OLD_CKPT_MAGIC};
    use super::*;
    use crate::chess::PieceKind;
    use crate::chess::{Board, Color};
    use crate::command::NoProgress;
    use crate::tools::data::Sample;
    use crate::tools::data::WhiteResult;

    #[test]
    fn validation_is_whole_blocks_of_neighbours() {
        let n = 10_000u32;
        for (n_val, seed) in [(100, 1), (2_500, 2), (3_000, 3), (9_999, 4)] {
            let mut data: Vec<u32> = (0..n).collect();
            let val = hold_out_blocks(&mut data, n_val, &mut SplitMix::new(seed));
            assert_eq!(val.len(), n_val);
            assert_eq!(data.len() + val.len(), n as usize);
            // Training keeps its order, and no position is in both sets.
            assert!(data.windows(2).all(|w| w[0] < w[1]));
            let mut all: Vec<u32> = data.iter().chain(&val).copied().collect();
            all.sort_unstable();
            assert!(all.iter().copied().eq(0..n));
            // Held out in runs: at most one block is cut, so the validation positions form
            // about n_val / block runs, never one run per position.
            let block = validation_block(n_val);
            let mut held = val.clone();
            held.sort_unstable();
            let runs = 1 + held.windows(2).filter(|w| w[1] != w[0] + 1).count();
            assert!(runs <= n_val.div_ceil(block) + 1, "{runs} runs for {n_val}");
        }
    }

    /// Random positions from random play, labelled by material alone (pawn 1, minor 3, rook 5,
    /// queen 9, in units of 100 cp, White's view).
    fn material_set(n: usize, seed: u64) -> Vec<Packed> {
        let mut rng = SplitMix::new(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let mut b = Board::startpos();
            for _ in 0..(20 + rng.below(100)) {
                let moves = b.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Prefer captures, so that material varies.
                let caps: Vec<_> = moves.iter().filter(|m| m.is_capture()).copied().collect();
                let m = if !caps.is_empty() && rng.below(3) > 0 {
                    caps[rng.below(caps.len() as u64) as usize]
                } else {
                    moves.as_slice()[rng.below(moves.len() as u64) as usize]
                };
                b.play(m);
                let value = |c: Color| {
                    [1, 3, 3, 5, 9]
                        .iter()
                        .zip([
                            PieceKind::Pawn,
                            PieceKind::Knight,
                            PieceKind::Bishop,
                            PieceKind::Rook,
                            PieceKind::Queen,
                        ])
                        .map(|(v, k)| v * b.pieces_of(c, k).count() as i32)
                        .sum::<i32>()
                };
                let score = 100 * (value(Color::White) - value(Color::Black));
                out.push(Packed::new(&Sample {
                    board: b,
                    score: score as i16,
                    result: WhiteResult::Draw,
                }));
            }
        }
        out.truncate(n);
        out
    }

    fn args(hidden: usize, epochs: usize) -> TrainArgs {
        TrainArgs {
            data: Vec::new(),
            out: std::env::temp_dir()
                .join(format!("fian-train-{}-{hidden}.fnn", std::process::id()))
                .to_string_lossy()
                .to_string(),
            hidden,
            buckets: 1,
            epochs,
            batch: 256,
            lr: 0.01,
            wdl: 0.0,
            threads: 2,
            seed: 3,
            resume: None,
            init: None,
            skip_bad: false,
            validation: 0.05,
            stop_after: None,
            mirror: false,
            king_mirror: false,
        }
    }

    #[test]
    fn mirroring_is_an_involution_that_mirrors_features() {
        for p in material_set(200, 8) {
            let m = p.mirrored();
            assert_eq!(m.mirrored(), p);
            let (mut a, mut b, mut c, mut d) = ([0u16; 32], [0u16; 32], [0u16; 32], [0u16; 32]);
            let n = p.features(&mut a, &mut b, false);
            assert_eq!(m.features(&mut c, &mut d, false), n);
            let mut want: Vec<u16> = a[..n].iter().map(|f| f ^ 7).collect();
            let mut got = c[..n].to_vec();
            want.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, want);
            // King-mirrored inputs cannot tell a position from its mirror image at all.
            let sorted = |x: &[u16]| {
                let mut v = x.to_vec();
                v.sort_unstable();
                v
            };
            p.features(&mut a, &mut b, true);
            m.features(&mut c, &mut d, true);
            assert_eq!(sorted(&a[..n]), sorted(&c[..n]));
            assert_eq!(sorted(&b[..n]), sorted(&d[..n]));
        }
    }

    #[test]
    fn a_tiny_net_learns_material_values() {
        let data = material_set(20_000, 1);
        let a = args(16, 12);
        let s = train(&a, data, &mut |_| {}, &NoProgress).unwrap();
        assert!(
            s.validation.last() < s.validation.first(),
            "{:?}",
            s.validation
        );
        let q = s.net.quantise();
        // The start position without one of Black's pieces: the bigger the piece, the better
        // for White.
        let without = |fen: &str| q.evaluate(&Board::from_fen(fen).unwrap());
        let queen = without("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let rook = without("1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk - 0 1");
        let knight = without("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let pawn = without("rnbqkbnr/pppp1ppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(
            queen > rook && rook > knight && knight > pawn && pawn > 0,
            "Q {queen} R {rook} N {knight} P {pawn}"
        );
        let _ = std::fs::remove_file(&a.out);
        let _ = std::fs::remove_file(format!("{}.ckpt", a.out));
    }

    #[test]
    fn quantised_output_agrees_with_the_float_net() {
        // King-mirrored inputs too: the trainer's features and the engine's must agree.
        for (buckets, king_mirror) in [(1, false), (4, false), (4, true)] {
            quantised_agrees(buckets, king_mirror);
        }
    }

    fn quantised_agrees(buckets: usize, king_mirror: bool) {
        let data = material_set(4_000, 2);
        let mut a = args(32, 3);
        a.buckets = buckets;
        a.king_mirror = king_mirror;
        a.out = format!("{}-q{buckets}{king_mirror}.fnn", a.out);
        let net = train(&a, data, &mut |_| {}, &NoProgress).unwrap().net;
        assert_eq!(net.out_b.len(), buckets);
        let q = net.quantise();
        assert_eq!(q.king_mirrored(), king_mirror);
        // The float net with every weight on the quantisation grid (1/255 in the first layer,
        // 1/64 at the output), read back from the quantised net: the integer pipeline must
        // reproduce it up to its integer divisions, 2 cp.
        let grid = FloatNet::from_network(&q);
        let (mut worst_grid, mut total, mut n) = (0.0f32, 0.0f32, 0);
        let mut rng = SplitMix::new(5);
        let mut b = Board::startpos();
        for _ in 0..400 {
            let moves = b.legal_moves();
            if moves.is_empty() {
                b = Board::startpos();
                continue;
            }
            b.play(moves.as_slice()[rng.below(moves.len() as u64) as usize]);
            let i = q.evaluate(&b) as f32;
            worst_grid = worst_grid.max((grid.evaluate(&b) - i).abs());
            total += (net.evaluate(&b) - i).abs();
            n += 1;
        }
        assert!(worst_grid <= 2.0, "integer pipeline off by {worst_grid} cp");
        // Against the unrounded net the rounding errors add up over the hidden layer with no
        // useful hard bound (the derived check is the grid one above); this is a sanity
        // tolerance, measured rather than derived: 4.6, 8.0 and 10.9 cp on average for the
        // three settings tried here (2026-12-06), 12 allowed.
        let mean = total / n as f32;
        assert!(mean <= 12.0, "mean quantisation error {mean} cp");
        let _ = std::fs::remove_file(&a.out);
        let _ = std::fs::remove_file(format!("{}.ckpt", a.out));
    }

    #[test]
    fn init_starts_from_a_net_file() {
        let data = material_set(3_000, 5);
        let mut a = args(8, 3);
        a.out = format!("{}-init.fnn", a.out);
        let trained = train(&a, data.clone(), &mut |_| {}, &NoProgress).unwrap();
        // The float net read back from the file quantises to the very same file.
        let file = Network::load(&a.out).unwrap();
        let back = FloatNet::from_network(&file);
        assert_eq!(back.quantise(), file);
        assert_eq!(trained.net.quantise(), file);
        // One epoch from the trained weights ends far below one epoch from random ones.
        let base = format!("{}.base", a.out);
        std::fs::copy(&a.out, &base).unwrap();
        let mut fine = a.clone();
        fine.epochs = 1;
        fine.init = Some(base.clone());
        let from_file = train(&fine, data.clone(), &mut |_| {}, &NoProgress).unwrap();
        let mut fresh = fine.clone();
        fresh.init = None;
        let from_scratch = train(&fresh, data.clone(), &mut |_| {}, &NoProgress).unwrap();
        let starts_ahead = |warm: &TrainSummary, cold: &TrainSummary| {
            assert!(
                warm.validation[0] < cold.validation[0] * 0.8,
                "{:?} vs {:?}",
                warm.validation,
                cold.validation
            );
        };
        starts_ahead(&from_file, &from_scratch);
        // A run's result together with every line it said.
        let train_saying = |args: &TrainArgs| {
            let mut said = Vec::new();
            let result = train(
                args,
                data.clone(),
                &mut |l| said.push(l.to_string()),
                &NoProgress,
            );
            (result, said)
        };
        // A wider --hidden widens the net: it starts where the narrow net stands, so its first
        // epoch also ends far below one from random weights of that width.
        let mut wider = fine.clone();
        wider.hidden = 16;
        let (widened, said) = train_saying(&wider);
        let widened = widened.unwrap();
        assert!(
            said.iter().any(|l| l.contains("from hidden size 8 to 16")),
            "{said:?}"
        );
        assert_eq!(widened.net.hidden, 16);
        let mut wide_fresh = wider.clone();
        wide_fresh.init = None;
        let wide_scratch = train(&wide_fresh, data.clone(), &mut |_| {}, &NoProgress).unwrap();
        starts_ahead(&widened, &wide_scratch);
        // A narrower --hidden, another bucket count, or a file that is no net, is refused with
        // the flag's name.
        let mut other = fine.clone();
        other.hidden = 4;
        let e = train(&other, data.clone(), &mut |_| {}, &NoProgress).unwrap_err();
        assert!(
            e.to_string().starts_with("--init") && e.to_string().contains("hidden size 8"),
            "{e}"
        );
        let mut buckets = fine.clone();
        buckets.buckets = 2;
        let e = train(&buckets, data.clone(), &mut |_| {}, &NoProgress).unwrap_err();
        assert!(e.to_string().starts_with("--init"), "{e}");
        let mut mirrored = fine.clone();
        mirrored.king_mirror = true;
        assert!(train(&mirrored, data.clone(), &mut |_| {}, &NoProgress).is_err());
        // A wider net of another kind is refused before any word about widening it.
        let mut wider_other = wider.clone();
        wider_other.buckets = 2;
        let (refused, said) = train_saying(&wider_other);
        let e = refused.unwrap_err();
        assert!(
            e.to_string().contains("output buckets 1, but --buckets 2"),
            "{e}"
        );
        assert!(!said.iter().any(|l| l.contains("widening")), "{said:?}");
        std::fs::write(&base, b"not a net").unwrap();
        let e = train(&fine, data, &mut |_| {}, &NoProgress).unwrap_err();
        assert!(e.to_string().contains("bad magic"), "{e}");
        for f in [a.out.clone(), format!("{}.ckpt", a.out), base] {
            let _ = std::fs::remove_file(f);
        }
    }

    #[test]
    fn same_seed_same_net_and_resume_continues() {
        let data = material_set(3_000, 4);
        let mut a = args(8, 2);
        a.out = format!("{}-det.fnn", a.out);
        let n1 = train(&a, data.clone(), &mut |_| {}, &NoProgress)
            .unwrap()
            .net;
        let n2 = train(&a, data.clone(), &mut |_| {}, &NoProgress)
            .unwrap()
            .net;
        assert_eq!(n1, n2);
        // Interrupted after one epoch, then resumed: the same net as two epochs straight.
        let mut first = a.clone();
        first.stop_after = Some(1);
        let ckpt = format!("{}.ckpt", a.out);
        let half = train(&first, data.clone(), &mut |_| {}, &NoProgress)
            .unwrap()
            .net;
        assert_ne!(half, n1);
        let mut resumed = a.clone();
        resumed.resume = Some(ckpt.clone());
        let n3 = train(&resumed, data.clone(), &mut |_| {}, &NoProgress)
            .unwrap()
            .net;
        assert_eq!(n3, n1);
        // A checkpoint of another size or bucket count is refused.
        let mut other = resumed.clone();
        other.hidden = 16;
        assert!(train(&other, data.clone(), &mut |_| {}, &NoProgress).is_err());
        let mut other = resumed.clone();
        other.buckets = 2;
        assert!(train(&other, data.clone(), &mut |_| {}, &NoProgress).is_err());
        let mut other = resumed.clone();
        other.king_mirror = true;
        let e = train(&other, data.clone(), &mut |_| {}, &NoProgress).unwrap_err();
        assert!(e.to_string().contains("--king-mirror"), "{e}");
        // A checkpoint of the format before king mirroring is read as plain inputs.
        let older = format!("{ckpt}.v2");
        let bytes = std::fs::read(&ckpt).unwrap();
        let mut v2 = CKPT2_MAGIC.to_vec();
        v2.extend_from_slice(&bytes[8..CKPT_HEADER - 8]);
        v2.extend_from_slice(&bytes[CKPT_HEADER..]);
        std::fs::write(&older, &v2).unwrap();
        let (net, _, epochs, _) = load_checkpoint(&older).unwrap();
        let (now, _, now_epochs, _) = load_checkpoint(&ckpt).unwrap();
        assert_eq!((net, epochs), (now, now_epochs));
        let _ = std::fs::remove_file(&older);
        // So is a checkpoint from before output buckets, with a message that says so.
        let old = format!("{ckpt}.old");
        let mut bytes = std::fs::read(&ckpt).unwrap();
        bytes[..8].copy_from_slice(OLD_CKPT_MAGIC);
        std::fs::write(&old, &bytes).unwrap();
        let mut before = resumed.clone();
        before.resume = Some(old.clone());
        let e = train(&before, data.clone(), &mut |_| {}, &NoProgress).unwrap_err();
        assert!(e.to_string().contains("before output buckets"), "{e}");
        let _ = std::fs::remove_file(&old);
        let mut none = a.clone();
        none.buckets = 0;
        assert!(train(&none, data.clone(), &mut |_| {}, &NoProgress).is_err());
        // Too little data, or an empty validation split, is an error.
        let mut big = a.clone();
        big.batch = 10_000;
        assert!(train(&big, data.clone(), &mut |_| {}, &NoProgress).is_err());
        let mut noval = a.clone();
        noval.validation = 0.0;
        assert!(train(&noval, data, &mut |_| {}, &NoProgress).is_err());
        let _ = std::fs::remove_file(&a.out);
        let _ = std::fs::remove_file(&ckpt);
    }
}
