//! The bot's thinking on its own thread, so that the full-screen game keeps drawing, running
//! the clocks and reading keys while it searches.

use crate::chess::{Game, Move};
use crate::search::skill::hint_limits;
use crate::search::{Limits, Report, Score, SearchControl, SearchResult, Searcher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;

/// What a judgement is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The person asked for a hint.
    Hint,
    /// The person offered a draw.
    DrawOffer,
}

/// Work for the bot's thread.
#[derive(Debug)]
pub enum Job {
    /// Choose a move in the current position of `game` within `limits`.
    Move {
        /// The job's number: replies carry it, and stale ones are dropped.
        id: u64,
        /// The game so far.
        game: Game,
        /// The bot's limits (its strength, its clock).
        limits: Limits,
    },
    /// A full-strength search with a fixed budget and a fresh hash (`skill::hint_limits`).
    Judge {
        /// The job's number.
        id: u64,
        /// The game so far.
        game: Game,
        /// Why.
        purpose: Purpose,
    },
}

/// What the bot's thread sends back.
#[derive(Debug)]
pub enum Reply {
    /// An iteration of the move search finished.
    Progress {
        /// The job.
        id: u64,
        /// Its depth.
        depth: u32,
        /// Its score, from the side to move's view.
        score: Score,
    },
    /// The move search ended.
    Moved {
        /// The job.
        id: u64,
        /// What it found.
        result: SearchResult,
    },
    /// A judgement ended.
    Judged {
        /// The job.
        id: u64,
        /// Why it was asked.
        purpose: Purpose,
        /// The best move (none when the game is over).
        best: Option<Move>,
        /// Its score, from the side to move's view.
        score: Score,
    },
}

/// The handle of the bot's thread: send jobs, read replies, stop the running search.
pub struct Bot {
    jobs: Option<Sender<Job>>,
    /// Replies, read by the game loop without blocking.
    pub replies: Receiver<Reply>,
    control: Arc<SearchControl>,
    /// Jobs numbered below this are dropped unstarted (`cancel`).
    floor: Arc<AtomicU64>,
    thread: Option<JoinHandle<()>>,
}

impl Bot {
    /// Starts the thread with its own searchers (16 MiB for play, 16 MiB for judgements).
    pub fn spawn() -> Bot {
        let (jobs, job_rx) = channel::<Job>();
        let (reply_tx, replies) = channel();
        let control = Arc::new(SearchControl::default());
        let floor = Arc::new(AtomicU64::new(0));
        let thread = {
            let control = Arc::clone(&control);
            let floor = Arc::clone(&floor);
            std::thread::spawn(move || work(&job_rx, &reply_tx, &control, &floor))
        };
        Bot {
            jobs: Some(jobs),
            replies,
            control,
            floor,
            thread: Some(thread),
        }
    }

    /// Queues a job.
    pub fn send(&self, job: Job) {
        if let Some(jobs) = &self.jobs {
            // The thread ends only when this handle drops, so the channel is open here.
            let _ = jobs.send(job);
        }
    }

    /// Stops the running search and drops every queued job numbered below `next_id`: an undo,
    /// a new game or a flag fall makes them moot.
    pub fn cancel(&self, next_id: u64) {
        self.floor.store(next_id, Ordering::SeqCst);
        self.control.stop();
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        self.floor.store(u64::MAX, Ordering::SeqCst);
        self.control.stop();
        // Closing the channel ends the thread's loop.
        self.jobs = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn work(
    jobs: &Receiver<Job>,
    replies: &Sender<Reply>,
    control: &Arc<SearchControl>,
    floor: &AtomicU64,
) {
    let mut player = Searcher::with_control(16, Arc::clone(control));
    let mut judge = Searcher::with_control(16, Arc::clone(control));
    while let Ok(job) = jobs.recv() {
        let id = match &job {
            Job::Move { id, .. } | Job::Judge { id, .. } => *id,
        };
        if id < floor.load(Ordering::SeqCst) {
            continue;
        }
        control.reset();
        // A cancel that came between the check and the reset must still stop this job.
        if id < floor.load(Ordering::SeqCst) {
            continue;
        }
        let reply = match job {
            Job::Move { id, game, limits } => {
                let result = player.search(&game, &limits, &mut |rep| {
                    if let Report::Iteration(info) = rep {
                        if info.bound.is_none() {
                            let _ = replies.send(Reply::Progress {
                                id,
                                depth: info.depth,
                                score: info.score,
                            });
                        }
                    }
                });
                Reply::Moved { id, result }
            }
            Job::Judge { id, game, purpose } => {
                judge.clear();
                let r = judge.search(&game, &hint_limits(), &mut |_| {});
                Reply::Judged {
                    id,
                    purpose,
                    best: r.best,
                    score: r.score,
                }
            }
        };
        if replies.send(reply).is_err() {
            return;
        }
    }
}
