//! Saves written off the player's turn, each fingerprint computed once.
//!
//! The player's thread does only what must be done while the game stands
//! still: it copies the state, the log and the transcript (and the undo
//! states no save has fingerprinted yet, usually the one of the last
//! command) and hands them to a writer thread, which converts, fingerprints,
//! serialises and writes atomically (temp file, fsync, rename), so a kill at
//! any moment leaves every slot whole, as before. The writer keeps the
//! fingerprints from one save to the next: the state before command `k`
//! follows from the log's first `k` commands, so a fingerprint holds as long
//! as the log up to it does (an undo and another command change only what
//! follows).
//!
//! A failure (a full disk) is reported at the next save or when the writer
//! is waited for; `save` and the save on leaving wait for their own file.
//! Should the thread be refused, saves are written on the caller's thread.

use super::{Header, SaveError, SavedState, file_of, fingerprint, now, slot_path, to_text};
use crate::story::{Command, Game, Snapshot};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

/// One save to write.
struct Job {
    id: u64,
    dir: PathBuf,
    path: PathBuf,
    header: Header,
    state: Snapshot,
    log: Vec<Command>,
    /// The fingerprints of the states before commands `0..valid` still hold.
    valid: usize,
    /// Undo states to fingerprint: those of commands `valid..`.
    fresh: Vec<Snapshot>,
    /// The command the undo history starts at (its first state's log length).
    first: usize,
    transcript: String,
}

/// A job's outcome.
struct Done {
    id: u64,
    result: Result<PathBuf, SaveError>,
}

/// The writer's side: the fingerprints it keeps, and the work of a job.
#[derive(Default)]
struct Writer {
    /// Fingerprint of the state before command `k`, where known.
    prints: Vec<Option<u64>>,
}

impl Writer {
    /// Takes a job's fingerprints in; the save file when `write` is asked.
    fn take(&mut self, job: &Job) {
        self.prints.truncate(job.valid);
        self.prints.resize(job.log.len(), None);
        for snapshot in &job.fresh {
            if let Some(slot) = self.prints.get_mut(snapshot.log_len) {
                *slot = Some(fingerprint(snapshot));
            }
        }
    }

    fn write(&self, job: &Job) -> Result<PathBuf, SaveError> {
        let shown = || job.path.display().to_string();
        let state = SavedState::of(&job.state).map_err(|err| SaveError::Write(shown(), err))?;
        let checkpoints = (job.first..job.log.len())
            .filter_map(|k| self.prints.get(k).copied().flatten().map(|p| (k, p)))
            .collect();
        let file = file_of(&job.header, state, &job.log, checkpoints, &job.transcript);
        let text = to_text(&file).map_err(|err| SaveError::Write(shown(), err))?;
        super::write_verified(&job.dir, &job.path, text.as_bytes(), &job.header.scene)?;
        Ok(job.path.clone())
    }

    /// Works through a batch in order; a job a later one of the batch
    /// overwrites (the same slot) is not written.
    fn run(&mut self, jobs: &[Job], done: &mut dyn FnMut(Done)) {
        for (i, job) in jobs.iter().enumerate() {
            self.take(job);
            let superseded = jobs[i + 1..].iter().any(|later| later.path == job.path);
            let result = if superseded {
                Ok(job.path.clone())
            } else {
                self.write(job)
            };
            done(Done { id: job.id, result });
        }
    }
}

struct Worker {
    jobs: Sender<Job>,
    done: Receiver<Done>,
    thread: JoinHandle<()>,
}

impl Worker {
    fn start() -> Option<Worker> {
        let (jobs, inbox) = channel::<Job>();
        let (outbox, done) = channel::<Done>();
        let thread = std::thread::Builder::new()
            .name("xiaoling-autosave".into())
            .spawn(move || {
                let mut writer = Writer::default();
                while let Ok(job) = inbox.recv() {
                    let mut batch = vec![job];
                    batch.extend(inbox.try_iter());
                    writer.run(&batch, &mut |d| {
                        let _ = outbox.send(d);
                    });
                }
            })
            .ok()?;
        Some(Worker { jobs, done, thread })
    }
}

/// What the writer was last told, so that the next job sends only what it
/// does not know.
#[derive(Default)]
struct Sent {
    /// Scene, role, seed, policies and the undo history's start of the game
    /// the fingerprints are of.
    game: Option<(usize, String, u64, String, usize)>,
    log: Vec<Command>,
    /// The writer has fingerprints for commands `0..known` (where the undo
    /// history has states).
    known: usize,
}

/// Writes a session's saves: autosaves in the background, `save` and the
/// save on leaving waited for.
pub struct Autosaver {
    worker: Option<Worker>,
    /// Used when there is no worker thread.
    inline: Writer,
    sent: Sent,
    next_id: u64,
    in_flight: usize,
    /// A background failure not yet reported.
    failure: Option<SaveError>,
    /// The folder last found usable.
    folder: Option<PathBuf>,
}

impl Default for Autosaver {
    fn default() -> Self {
        Autosaver::new()
    }
}

impl Autosaver {
    /// Starts the writer thread (or, if the system refuses one, writes on
    /// the caller's thread).
    pub fn new() -> Autosaver {
        Autosaver {
            worker: Worker::start(),
            inline: Writer::default(),
            sent: Sent::default(),
            next_id: 0,
            in_flight: 0,
            failure: None,
            folder: None,
        }
    }

    /// Writes on the caller's thread only (tests, and what a refused thread
    /// falls back to).
    pub fn inline() -> Autosaver {
        Autosaver {
            worker: None,
            inline: Writer::default(),
            sent: Sent::default(),
            next_id: 0,
            in_flight: 0,
            failure: None,
            folder: None,
        }
    }

    /// The game was replaced (a load): fingerprints start afresh.
    pub fn forget(&mut self) {
        self.sent = Sent::default();
    }

    /// The job for saving `game` to `slot`: only what the writer lacks.
    fn job(
        &mut self,
        dir: &Path,
        slot: &str,
        game: &mut Game,
        transcript: &str,
    ) -> Result<Job, SaveError> {
        let path = slot_path(dir, slot)?;
        let state = game.snapshot();
        let undo = game.undo_history();
        let first = undo.first().map_or(game.log().len(), |s| s.log_len);
        let (others, player) = game.policies();
        let key = (
            std::sync::Arc::as_ptr(&game.scene_arc()) as usize,
            game.role().to_string(),
            game.seed(),
            format!("{others:?}/{player:?}"),
            first,
        );
        let log = game.log();
        let same = if self.sent.game.as_ref() == Some(&key) {
            self.sent
                .log
                .iter()
                .zip(log)
                .take_while(|(a, b)| a == b)
                .count()
        } else {
            self.sent = Sent::default();
            0
        };
        // The state before command k follows from commands 0..k.
        let valid = if self.sent.game.is_some() {
            self.sent.known.min(same + 1)
        } else {
            0
        };
        let fresh: Vec<Snapshot> = undo
            .iter()
            .filter(|s| s.log_len >= valid)
            .cloned()
            .collect();
        self.sent.log.truncate(same);
        self.sent.log.extend_from_slice(&log[same..]);
        self.sent.known = log.len();
        self.sent.game = Some(key);
        self.next_id += 1;
        Ok(Job {
            id: self.next_id,
            dir: dir.to_path_buf(),
            path,
            header: Header::of(game, now()),
            state,
            log: log.to_vec(),
            valid,
            fresh,
            first,
            transcript: transcript.to_string(),
        })
    }

    /// Hands a job to the writer; runs it here when there is none.
    fn dispatch(&mut self, job: Job) -> Option<Done> {
        if let Some(worker) = &self.worker {
            match worker.jobs.send(job) {
                Ok(()) => {
                    self.in_flight += 1;
                    return None;
                }
                Err(returned) => {
                    // The thread is gone: write here from now on.
                    self.stop();
                    let mut out = None;
                    self.inline.run(&[returned.0], &mut |d| out = Some(d));
                    return out;
                }
            }
        }
        let mut out = None;
        self.inline.run(&[job], &mut |d| out = Some(d));
        out
    }

    /// Collects finished jobs' outcomes; waits for job `until` if given.
    fn collect(&mut self, until: Option<u64>, wait_all: bool) -> Option<Done> {
        let mut found = None;
        while self.in_flight > 0 {
            let Some(worker) = &self.worker else { break };
            let waiting = wait_all || (until.is_some() && found.is_none());
            let next = if waiting {
                worker.done.recv().ok()
            } else {
                worker.done.try_recv().ok()
            };
            let Some(done) = next else {
                if waiting {
                    // The thread died with jobs in hand.
                    self.in_flight = 0;
                    self.stop();
                    self.failure.get_or_insert(SaveError::Write(
                        "the autosave".into(),
                        "the save writer stopped".into(),
                    ));
                }
                break;
            };
            self.in_flight -= 1;
            if Some(done.id) == until {
                found = Some(done);
            } else if let Err(err) = done.result {
                self.failure.get_or_insert(err);
            }
        }
        found
    }

    fn stop(&mut self) {
        if let Some(worker) = self.worker.take() {
            drop(worker.jobs);
            let _ = worker.thread.join();
        }
        // The new writer knows no fingerprints.
        self.forget();
    }

    /// Autosaves `game` to `slot` in the background. Err when the folder is
    /// unusable, or an earlier background save failed (each failure is
    /// reported once); Ok says the save is on its way.
    pub fn submit(
        &mut self,
        dir: &Path,
        slot: &str,
        game: &mut Game,
        transcript: &str,
    ) -> Result<(), SaveError> {
        if self.folder.as_deref() != Some(dir) {
            std::fs::create_dir_all(dir)
                .map_err(|err| SaveError::Folder(dir.display().to_string(), err.to_string()))?;
            self.folder = Some(dir.to_path_buf());
        }
        self.collect(None, false);
        let job = self.job(dir, slot, game, transcript)?;
        if let Some(Done {
            result: Err(err), ..
        }) = self.dispatch(job)
        {
            self.failure.get_or_insert(err);
        }
        match self.failure.take() {
            Some(err) => {
                // The folder may be the trouble: look at it again next time.
                self.folder = None;
                Err(err)
            }
            None => Ok(()),
        }
    }

    /// Saves `game` to `slot` and waits for the file to be written.
    pub fn save_now(
        &mut self,
        dir: &Path,
        slot: &str,
        game: &mut Game,
        transcript: &str,
    ) -> Result<PathBuf, SaveError> {
        let job = self.job(dir, slot, game, transcript)?;
        let id = job.id;
        let done = match self.dispatch(job) {
            Some(done) => Some(done),
            None => self.collect(Some(id), false),
        };
        match done {
            Some(done) => done.result,
            None => Err(self.failure.take().unwrap_or_else(|| {
                SaveError::Write(dir.display().to_string(), "the save writer stopped".into())
            })),
        }
    }

    /// Waits until every save handed over is written (before reading the
    /// folder). A failure meanwhile is kept for the next [`Autosaver::submit`].
    pub fn flush(&mut self) {
        self.collect(None, true);
    }

    /// Saves handed over and not yet written.
    pub fn pending(&self) -> usize {
        self.in_flight
    }
}

impl Drop for Autosaver {
    /// Writes what is pending before the session ends.
    fn drop(&mut self) {
        if let Some(worker) = self.worker.take() {
            drop(worker.jobs);
            let _ = worker.thread.join();
        }
    }
}
