//! Saves written off the player's turn, each fingerprint computed once.
//!
//! The player's thread does only what must be done while the game stands
//! still: it copies the state, the log and the transcript (and the undo
//! states no save has fingerprinted yet, usually the one of the last
//! command) and hands them to a writer thread, which converts, fingerprints,
//! serialises and writes atomically (temp file, rename), so a kill at
//! any moment leaves every slot whole, as before. Autosaves between turns
//! are synced at most once a second ([`SYNC_EVERY`]): at a player's pace
//! each as it is written, piped turns a second's worth at a time. The writer keeps the
//! fingerprints from one save to the next: the state before command `k`
//! follows from the log's first `k` commands, so a fingerprint holds as long
//! as the log up to it does (an undo and another command change only what
//! follows).
//!
//! A failure (a full disk) is reported at the next save or when the writer
//! is waited for; `save` and the save on leaving wait for their own file.
//! Should the thread be refused, saves are written on the caller's thread.

use super::journal::{self, Journal};
use super::{
    Header, MAX_TRANSCRIPT_BYTES, SaveError, SavedCommand, SavedState, bounded_transcript, file_of,
    fingerprint_by_ids, now, slot_path, to_text_spliced,
};
use crate::story::{Command, Game, Policy, Snapshot};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What a session has shown, as plain text: its last part (at most twice
/// what a save keeps), and how many bytes were ever added, so that a save
/// is handed only what is new since the last one.
#[derive(Debug, Clone)]
pub struct Transcript {
    text: String,
    total: u64,
    /// Tells one transcript from another (a load starts a new one).
    id: u64,
}

impl Default for Transcript {
    fn default() -> Self {
        Transcript::new(String::new())
    }
}

impl Transcript {
    /// A transcript that starts with `text` (a loaded save's).
    pub fn new(text: String) -> Transcript {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Transcript {
            total: text.len() as u64,
            text,
            id: NEXT.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// Adds a line (a line break is put after it).
    pub fn push_line(&mut self, line: &str) {
        self.text.push_str(line);
        self.text.push('\n');
        self.total += line.len() as u64 + 1;
        if self.text.len() > 2 * MAX_TRANSCRIPT_BYTES {
            self.text = bounded_transcript(&self.text, MAX_TRANSCRIPT_BYTES);
        }
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// What was added since `total` bytes, when this transcript still holds
    /// it all.
    fn since(&self, total: u64) -> Option<&str> {
        let added = usize::try_from(self.total.checked_sub(total)?).ok()?;
        let start = self.text.len().checked_sub(added)?;
        self.text.get(start..)
    }
}

/// The transcript as a job hands it on.
#[derive(Debug)]
enum Said {
    /// Added since the last job.
    Since(String),
    /// The whole of it (a new game, or one the writer does not know).
    Whole(String),
}

/// One save to write.
struct Job {
    id: u64,
    dir: PathBuf,
    path: PathBuf,
    header: Header,
    /// Shared with the player's side, which compares the next job's first
    /// undo state with it (see `Job::last_is_fresh`).
    state: Arc<Snapshot>,
    /// The writer's log keeps its first `keep` commands, then these follow.
    keep: usize,
    more: Vec<Command>,
    /// The fingerprints of the states before commands `0..valid` still hold.
    valid: usize,
    /// Undo states to fingerprint: those of commands `valid..`, but for
    /// the first when `last_is_fresh`.
    fresh: Vec<Snapshot>,
    /// The first undo state to fingerprint is the last job's `state` (the
    /// same state: the game after one command is the state before the
    /// next), not copied again.
    last_is_fresh: bool,
    /// The command the undo history starts at (its first state's log length).
    first: usize,
    said: Said,
    /// An autosave between turns: its log and transcript go to the game's
    /// journal and the file names them. Otherwise (`save`, the resume point
    /// on leaving) the file holds them itself.
    journaled: bool,
    /// The resume point, written as the session ends: once it is written,
    /// the game's autosave waiting for its checkpoint is not (see
    /// `Writer::run`).
    leaving: bool,
    /// The game's state is what its log gives from its start (its undo
    /// history goes back to the first command): a journal made for it now
    /// begins with a head and holds the whole game.
    from_start: bool,
}

/// A job's outcome.
struct Done {
    id: u64,
    result: Result<PathBuf, SaveError>,
}

/// The writer's side: the game's log and transcript as the jobs gave them,
/// the fingerprints it keeps, the journal and what it still lacks.
#[derive(Default)]
struct Writer {
    /// In the file's words: named once, when taken in.
    log: Vec<SavedCommand>,
    said: String,
    /// Fingerprint of the state before command `k`, where known.
    prints: Vec<Option<u64>>,
    journal: Option<Journal>,
    /// Of the log, the journal's records still give the first `kept`
    /// commands (the rest changed since its last records).
    kept: usize,
    /// The transcript started afresh since the journal's last records.
    restart: bool,
    /// Transcript added since the journal's last records.
    unsaid: String,
    /// The journal has the fingerprints of states before commands `0..printed`.
    printed: usize,
    /// The journal of this folder and game was full or refused a write:
    /// the rest of the session's saves hold their own commands (opening it
    /// again would read it whole at every save).
    given_up: Option<(PathBuf, String)>,
    /// Autosaves between turns are synced at most once per [`SYNC_EVERY`]
    /// (the writer thread's); otherwise every save is synced as written.
    group: bool,
    /// When the journal and the slots were last all synced.
    last_sync: Option<Instant>,
    /// The newest autosave whose records are in the journal and whose slot
    /// waits for the next checkpoint (the writer thread's).
    pending: Option<Job>,
    /// Autosaves between turns since the last checkpoint.
    since: usize,
    /// The last [`Writer::journal`] opened the journal (a game loaded,
    /// played on in a new session): its first autosave is a checkpoint.
    /// Not when it made the journal, with a head, for a game from its
    /// start: the journal is the game until its first checkpoint.
    opened_now: bool,
    /// The game (folder, name) whose journal, made with a head this
    /// session, stands for it: no slot of it was written since. The idle
    /// second writes no slot for it (see [`Writer::idle`]).
    journal_only: Option<(PathBuf, String)>,
    /// A checkpoint written late that failed, not yet told.
    deferred: Option<SaveError>,
    /// The state of the last job taken in.
    last_state: Option<Arc<Snapshot>>,
    /// Slots written since then without a sync.
    unsynced: Vec<PathBuf>,
    /// The state of the last slot written and its text there (see
    /// [`to_text_spliced`]).
    state_text: Option<(SavedState, String)>,
}

/// How long an autosave written as the player plays on may wait for its
/// sync. A player at the keyboard takes longer than this over a turn, so
/// each of their autosaves is synced as it is written; turns piped in (a
/// script, a test) share one sync for all the autosaves of a second, and
/// the writer syncs what waits once it has had no job for that long, and
/// before `save`, the resume point and the end of the session (on leaving,
/// once the resume point is written, not the game's own: it holds them
/// whole, see `Writer::leave`). A sync costs
/// some 0.2 ms of the system's CPU on an ext4 disk, each of the three an
/// autosave needs (journal, file, folder): more than the turn itself.
pub const SYNC_EVERY: Duration = Duration::from_secs(1);

/// On the writer thread, autosaves between turns write their slot (the
/// whole state) once in this many turns; the others write only their
/// journal records. A player at the keyboard, slower than [`SYNC_EVERY`],
/// still has every turn's slot written within a second of it.
pub const CHECKPOINT_EVERY: usize = 16;

impl Writer {
    /// Takes a job's log, transcript and fingerprints in.
    fn take(&mut self, job: &Job) {
        self.log.truncate(job.keep);
        let scene = &job.header.scene;
        (self.log).extend(job.more.iter().map(|c| SavedCommand::of(c, scene)));
        self.kept = self.kept.min(job.keep);
        match &job.said {
            Said::Since(text) => {
                self.said.push_str(text);
                self.unsaid.push_str(text);
            }
            Said::Whole(text) => {
                self.said = text.clone();
                self.unsaid = text.clone();
                self.restart = true;
            }
        }
        if self.said.len() > 2 * MAX_TRANSCRIPT_BYTES {
            self.said = bounded_transcript(&self.said, MAX_TRANSCRIPT_BYTES);
        }
        self.prints.truncate(job.valid);
        self.printed = self.printed.min(job.valid);
        self.prints.resize(self.log.len(), None);
        let last = (self.last_state.as_deref()).filter(|_| job.last_is_fresh);
        for snapshot in last.into_iter().chain(&job.fresh) {
            if let Some(slot) = self.prints.get_mut(snapshot.log_len) {
                *slot = Some(fingerprint_by_ids(snapshot, scene));
            }
        }
        self.last_state = Some(Arc::clone(&job.state));
    }

    /// The journal brought up to the log and transcript, and where the
    /// save's part of it ends; None when there is no usable journal (it
    /// cannot be opened, or it is full), and the save holds them itself.
    fn journal(&mut self, job: &Job, sync: bool) -> Option<journal::JournalRef> {
        let open = self
            .journal
            .as_ref()
            .is_some_and(|j| j.is_of(&job.dir, &job.header.game));
        let this = (job.dir.clone(), job.header.game.clone());
        if self.given_up.as_ref() == Some(&this) {
            return None;
        }
        if !open {
            // Another game's journal is closed synced, as the slots it is
            // named by will be.
            if let Some(old) = self.journal.as_mut() {
                let _ = old.sync();
            }
            // On the writer thread a new journal is synced with the rest.
            // A game from its start gets a journal with a head, if one is
            // made now.
            let head = job.from_start.then(|| journal::Head::of(&job.header));
            let (dir, game) = (&job.dir, &job.header.game);
            self.journal = Journal::open_headed(dir, game, !self.group, head.as_ref()).ok();
            // The journal is the game until its first checkpoint when it
            // was made now, with a head; otherwise the first autosave
            // after opening it is a checkpoint.
            let alone = (self.journal.as_ref()).is_some_and(Journal::is_new_with_head);
            self.opened_now = !alone;
            self.journal_only = alone.then(|| this.clone());
            if alone {
                self.since = 0;
            }
            // The journal keeps what of its records agrees with the log
            // and transcript (a game played on in a new session), and cuts
            // the rest at its first append.
            self.kept = 0;
            self.printed = 0;
            self.restart = true;
            self.unsaid = self.said.clone();
        }
        let journal = self.journal.as_mut()?;
        let prints: Vec<(usize, u64)> = (self.printed..self.log.len())
            .filter_map(|k| self.prints.get(k).copied().flatten().map(|p| (k, p)))
            .collect();
        match journal.append_synced(
            &self.log,
            self.kept,
            &prints,
            self.restart,
            &self.unsaid,
            sync,
        ) {
            Ok(Some(at)) => {
                self.kept = self.log.len();
                self.printed = self.log.len();
                self.restart = false;
                self.unsaid.clear();
                Some(at)
            }
            // Full, or the disk refused it: the saves of this game hold
            // their own commands for the rest of the session.
            _ => {
                let _ = journal.sync();
                self.journal = None;
                self.given_up = Some(this);
                None
            }
        }
    }

    fn write(&mut self, job: &Job) -> Result<PathBuf, SaveError> {
        // `save` and the resume point are synced as they are written, and
        // so is an autosave when none was for a while; before them, what
        // was written unsynced (but for what the resume point holds whole
        // on leaving: see `Writer::leave`).
        let sync = !self.group
            || !job.journaled
            || self.last_sync.is_none_or(|at| at.elapsed() >= SYNC_EVERY);
        if sync {
            self.sync_pending();
        }
        let named = if job.journaled {
            self.journal(job, sync)
        } else {
            None
        };
        self.write_slot(job, named, sync)
    }

    /// An autosave between turns on the writer thread: the turn's records
    /// go to the journal, and the slot is written only for the first turn
    /// after the journal is opened and every [`CHECKPOINT_EVERY`] turns;
    /// the others wait as `pending` for the next checkpoint, or for the
    /// writer to be idle, a flush, `save` or the end of the session. Until
    /// then the game's newest slot reads on through the records past it
    /// (see [`journal`]), so a kill loses no turn whose records were written.
    fn autosave(&mut self, job: Job) -> Result<PathBuf, SaveError> {
        let sync = self.last_sync.is_none_or(|at| at.elapsed() >= SYNC_EVERY);
        if sync {
            self.sync_pending();
        }
        self.opened_now = false;
        let named = self.journal(&job, sync);
        self.since += 1;
        match named {
            Some(_) if !self.opened_now && self.since < CHECKPOINT_EVERY => {
                if sync {
                    self.last_sync = Some(Instant::now());
                }
                let path = job.path.clone();
                self.pending = Some(job);
                Ok(path)
            }
            named => {
                self.since = 0;
                self.write_slot(&job, named, sync)
            }
        }
    }

    /// Writes the slot of the autosave waiting for its checkpoint, if any
    /// (its records are in the journal already). A failure is told with the
    /// next autosave's outcome.
    fn write_pending(&mut self, sync: bool) {
        let Some(job) = self.pending.take() else {
            return;
        };
        if sync {
            self.sync_pending();
        }
        let named = self.journal(&job, sync);
        self.since = 0;
        if let Err(err) = self.write_slot(&job, named, sync) {
            self.deferred.get_or_insert(err);
        }
    }

    /// Writes the job's slot: naming the journal at `named`, or holding
    /// its commands and transcript itself.
    fn write_slot(
        &mut self,
        job: &Job,
        named: Option<journal::JournalRef>,
        sync: bool,
    ) -> Result<PathBuf, SaveError> {
        let shown = || job.path.display().to_string();
        let state = SavedState::of(&job.state, &job.header.scene)
            .map_err(|err| SaveError::Write(shown(), err))?;
        // The state's text from the last slot written, when its state was
        // this one: equal, and then its hash by ids the same too (which
        // tells 0.0 from -0.0, equal but written apart).
        let state_text = (self.state_text.take())
            .filter(|(saved, _)| {
                *saved == state && saved.fingerprint_by_ids() == state.fingerprint_by_ids()
            })
            .map(|(_, text)| text);
        let marked = named.is_some();
        let file = match named {
            Some(named) => {
                // The fingerprints are in the journal too.
                let mut file = file_of(&job.header, state, &[], Vec::new(), "");
                file.format = super::FOLLOW_FORMAT;
                file.journal = Some(named);
                file
            }
            None => {
                let checkpoints = (job.first..self.log.len())
                    .filter_map(|k| self.prints.get(k).copied().flatten().map(|p| (k, p)))
                    .collect();
                file_of(&job.header, state, &self.log, checkpoints, &self.said)
            }
        };
        let super::SaveText {
            text,
            state_at,
            state_text: spliced,
        } = to_text_spliced(&file, state_text).map_err(|err| SaveError::Write(shown(), err))?;
        // Checked in memory and read back byte for byte, not parsed again
        // (see `write_checked`): an autosave between turns, `save` and the
        // resume point alike.
        let scene = &job.header.scene;
        super::write_checked(&job.dir, &job.path, &file, &text, scene, sync)?;
        if (self.journal_only.as_ref())
            .is_some_and(|(dir, game)| *dir == job.dir && *game == job.header.game)
        {
            // A slot of the game is written: listed and loaded by it now.
            self.journal_only = None;
        }
        if marked && let Some(journal) = self.journal.as_mut() {
            // Older slots stop reading on where this one's turn starts.
            let from = journal.turn_start();
            let _ = journal.mark(from);
        }
        if sync {
            self.last_sync = Some(Instant::now());
        } else if !self.unsynced.contains(&job.path) {
            self.unsynced.push(job.path.clone());
        }
        // Kept for the next slot: the text given (the same state), or
        // this one's.
        let state_text =
            spliced.or_else(|| state_at.and_then(|at| text.get(at)).map(str::to_string));
        self.state_text = state_text.map(|text| (file.state, text));
        Ok(job.path.clone())
    }

    /// The game's resume point as the session ends, in place of the slot
    /// of its last autosave, which waits for its checkpoint (`pending`):
    /// the resume point holds that turn whole. Written and synced first;
    /// if it fails, what waits is synced and the autosave's slot written
    /// as before. Once it is written, what waits unsynced (the journal's
    /// last records, the session's autosave slots written since the last
    /// sync) is left to the system to write: a kill loses nothing either
    /// way, and a power cut before the system writes them can only cost
    /// those copies of turns the synced resume point holds. Two syncs
    /// fewer on leaving, some 0.5 ms of the system's CPU on ext4.
    fn leave(&mut self, job: &Job) -> Result<PathBuf, SaveError> {
        let result = self.write_slot(job, None, true);
        if result.is_ok() {
            self.pending = None;
            self.since = 0;
            // Another game's slots (one played earlier in the session) are
            // still synced.
            let game = &job.header.game;
            let of_game = |path: &PathBuf| {
                path.parent() == Some(job.dir.as_path())
                    && (path.file_stem().and_then(|stem| stem.to_str()))
                        .is_some_and(|slot| super::load::own_slot(game, slot))
            };
            self.unsynced.retain(|path| !of_game(path));
            // The game's journal (the writer's journal is the game's: another
            // game's was synced as it closed), closed unsynced; a later save
            // of the game opens it again.
            if (self.journal.as_ref()).is_some_and(|j| j.is_of(&job.dir, game)) {
                self.journal = None;
            }
        } else {
            self.write_pending(true);
        }
        result
    }

    /// Whether autosaves wait for their sync (or a slot for its
    /// checkpoint, but for a game its journal stands for).
    fn waiting(&self) -> bool {
        !self.unsynced.is_empty()
            || (self.pending.is_some() && !self.journal_stands_for_pending())
            || self.journal.as_ref().is_some_and(Journal::is_unsynced)
    }

    /// The autosave waiting for its checkpoint is of the game whose journal
    /// stands for it (made with a head this session, no slot since).
    fn journal_stands_for_pending(&self) -> bool {
        (self.pending.as_ref()).is_some_and(|p| {
            (self.journal_only.as_ref())
                .is_some_and(|(dir, game)| *dir == p.dir && *game == p.header.game)
        })
    }

    /// The writer has had no job for [`SYNC_EVERY`], or the session ends:
    /// the slot waiting for its checkpoint is written and everything
    /// synced. Not the slot of a game whose journal stands for it (a new
    /// game before its first checkpoint): the journal, synced here, is
    /// already the whole game from its head, listed and loaded as a slot
    /// at the game's start would be, and a load replays the game's
    /// commands from its seed either way. The slot would cost the writer
    /// what a checkpoint does (most of a short game's writing) and change
    /// nothing a load gives; it comes at the checkpoint that is due (every
    /// [`CHECKPOINT_EVERY`] turns), before `save`, or as the resume point.
    fn idle(&mut self) {
        if !self.journal_stands_for_pending() {
            self.write_pending(true);
        }
        self.sync_pending();
    }

    /// Syncs the journal's records and the slots written without a sync
    /// (best effort: a slot that cannot be synced now is one the next save
    /// replaces, and a failed write was told when it happened).
    fn sync_pending(&mut self) {
        if let Some(journal) = self.journal.as_mut() {
            let _ = journal.sync();
        }
        for path in std::mem::take(&mut self.unsynced) {
            let _ = crate::files::sync_file(&path);
        }
        self.last_sync = Some(Instant::now());
    }

    /// Works through a batch in order; a job a later one of the batch
    /// overwrites (the same slot, or on the writer thread an autosave of
    /// the same game, whose records cover this one's) is not written, but
    /// its log and transcript are taken in.
    fn run(&mut self, jobs: Vec<Job>, done: &mut dyn FnMut(Done)) {
        let keys: Vec<(PathBuf, bool, PathBuf, String)> = (jobs.iter())
            .map(|j| {
                let game = (j.dir.clone(), j.header.game.clone());
                (j.path.clone(), j.journaled, game.0, game.1)
            })
            .collect();
        for (i, job) in jobs.into_iter().enumerate() {
            // An autosave waiting for its checkpoint is written before a
            // save of another kind (`save`, the resume point) or another
            // game's: after those every slot of the game is whole.
            let other = self.pending.as_ref().is_some_and(|p| {
                !job.journaled || p.dir != job.dir || p.header.game != job.header.game
            });
            // But not before the game's resume point on leaving: its
            // records are in the journal, synced before the resume point
            // is written, and the resume point holds the same turn whole.
            // The checkpoint would add a slot at the same turn that no
            // load needs (the game's older checkpoint reads on through
            // the same records); it is written only if the resume point
            // fails.
            let replaces = job.leaving
                && (self.pending.as_ref())
                    .is_some_and(|p| p.dir == job.dir && p.header.game == job.header.game);
            if other && !replaces {
                // Synced with what waits before a save of another kind.
                self.write_pending(false);
            }
            self.take(&job);
            // The game's first autosave after its journal is opened is
            // written whatever follows it: its slot is the one the turns
            // after it are read on from.
            let covered = |this: &Self| {
                this.group
                    && job.journaled
                    && (this.journal.as_ref()).is_some_and(|j| j.is_of(&job.dir, &job.header.game))
            };
            let superseded = keys[i + 1..].iter().any(|(path, journaled, dir, game)| {
                *path == job.path
                    || ((*journaled && *dir == job.dir && *game == job.header.game)
                        && covered(self))
            });
            let (id, journaled) = (job.id, job.journaled);
            let result = if superseded {
                if journaled && self.group {
                    self.since += 1;
                }
                Ok(job.path.clone())
            } else if journaled && self.group {
                self.autosave(job)
            } else if replaces {
                self.leave(&job)
            } else {
                self.write(&job)
            };
            // A checkpoint written late that failed is told with the next
            // autosave.
            let result = match (result, journaled.then(|| self.deferred.take()).flatten()) {
                (Ok(_), Some(err)) => Err(err),
                (result, _) => result,
            };
            done(Done { id, result });
        }
        // Idle now: a checkpoint that is due is written.
        if self.since >= CHECKPOINT_EVERY {
            self.write_pending(false);
        }
    }
}

/// What the writer thread is handed.
enum Msg {
    Job(Box<Job>),
    /// Write what waits for its checkpoint, then say so (done `id`).
    Flush(u64),
}

struct Worker {
    jobs: Sender<Msg>,
    done: Receiver<Done>,
    thread: JoinHandle<()>,
}

impl Worker {
    fn start() -> Option<Worker> {
        let (jobs, inbox) = channel::<Msg>();
        let (outbox, done) = channel::<Done>();
        let thread = std::thread::Builder::new()
            .name("xiaoling-autosave".into())
            .spawn(move || {
                let mut writer = Writer {
                    group: true,
                    // The session's first autosave waits for its sync like
                    // the others (within a second): piped turns share it.
                    last_sync: Some(Instant::now()),
                    ..Writer::default()
                };
                loop {
                    // With autosaves waiting for their sync or checkpoint,
                    // a job is waited for only until it is due.
                    let next = if writer.waiting() {
                        let due = (writer.last_sync)
                            .map_or(Duration::ZERO, |at| SYNC_EVERY.saturating_sub(at.elapsed()));
                        match inbox.recv_timeout(due) {
                            Ok(msg) => Some(msg),
                            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                                writer.idle();
                                continue;
                            }
                            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => None,
                        }
                    } else {
                        inbox.recv().ok()
                    };
                    let Some(msg) = next else {
                        writer.idle();
                        break;
                    };
                    let mut batch = Vec::new();
                    let mut flushes = Vec::new();
                    for msg in std::iter::once(msg).chain(inbox.try_iter()) {
                        match msg {
                            Msg::Job(job) => batch.push(*job),
                            Msg::Flush(id) => flushes.push(id),
                        }
                    }
                    writer.run(batch, &mut |d| {
                        let _ = outbox.send(d);
                    });
                    if !flushes.is_empty() {
                        writer.write_pending(false);
                    }
                    for id in flushes {
                        let result = writer.deferred.take().map_or(Ok(PathBuf::new()), Err);
                        let _ = outbox.send(Done { id, result });
                    }
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
    game: Option<GameKey>,
    log: Vec<Command>,
    /// The game's log epoch when `log` was taken: while it holds, the game's
    /// log begins with `log` and need not be compared.
    epoch: u64,
    /// The writer has fingerprints for commands `0..known` (where the undo
    /// history has states).
    known: usize,
    /// The transcript the writer has, by id, and how much of it.
    said: Option<(u64, u64)>,
    /// The state the last job handed over (the writer keeps it too).
    state: Option<Arc<Snapshot>>,
}

/// Which game [`Sent`]'s fingerprints are of: its scene (by address), role,
/// seed, policies and name, and where its undo history starts.
struct GameKey {
    scene: usize,
    role: String,
    seed: u64,
    policies: (Policy, Option<Policy>),
    name: String,
    first: usize,
}

impl GameKey {
    fn of(game: &Game, first: usize) -> GameKey {
        GameKey {
            scene: Arc::as_ptr(&game.scene_arc()) as usize,
            role: game.role().to_string(),
            seed: game.seed(),
            policies: game.policies(),
            name: game.name().to_string(),
            first,
        }
    }

    /// The key of `game` with its undo history from `first` (compared
    /// field by field, nothing copied).
    fn is_of(&self, game: &Game, first: usize) -> bool {
        self.scene == Arc::as_ptr(&game.scene_arc()) as usize
            && self.role == game.role()
            && self.seed == game.seed()
            && self.policies == game.policies()
            && self.name == game.name()
            && self.first == first
    }
}

/// What [`Autosaver::outcome`] knows.
#[derive(Debug)]
pub enum Outcome {
    /// Nothing finished since the last call.
    Quiet,
    /// An autosave was written (and none failed).
    Written,
    Failed(SaveError),
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
    /// An autosave was written since [`Autosaver::outcome`] last said so.
    wrote: bool,
    /// The folder last found usable.
    folder: Option<PathBuf>,
    /// The paths of the slots jobs were made for, in the folder named first
    /// (a game cycles through a few autosave slots: each checked and joined
    /// once, not at every command).
    paths: Option<(PathBuf, Vec<(String, PathBuf)>)>,
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
            wrote: false,
            folder: None,
            paths: None,
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
            wrote: false,
            folder: None,
            paths: None,
        }
    }

    /// The game was replaced (a load): fingerprints start afresh.
    pub fn forget(&mut self) {
        self.sent = Sent::default();
    }

    /// [`slot_path`], kept for the folder's slots already met.
    fn slot_path(&mut self, dir: &Path, slot: &str) -> Result<PathBuf, SaveError> {
        /// More slots than a game's autosaves and resume point.
        const KEPT: usize = 16;
        let paths = match &mut self.paths {
            Some((kept_dir, paths)) if kept_dir.as_os_str() == dir.as_os_str() => paths,
            paths => &mut paths.insert((dir.to_path_buf(), Vec::new())).1,
        };
        if let Some((_, path)) = paths.iter().find(|(name, _)| name == slot) {
            return Ok(path.clone());
        }
        let path = slot_path(dir, slot)?;
        if paths.len() >= KEPT {
            paths.clear();
        }
        paths.push((slot.to_string(), path.clone()));
        Ok(path)
    }

    /// The job for saving `game` to `slot`: only what the writer lacks.
    fn job(
        &mut self,
        dir: &Path,
        slot: &str,
        game: &mut Game,
        transcript: &Transcript,
        journaled: bool,
    ) -> Result<Job, SaveError> {
        let path = self.slot_path(dir, slot)?;
        // The writer reads no picture: none is copied for it.
        let state = Arc::new(game.saved_snapshot());
        let undo = game.undo_history();
        let first = undo.first().map_or(game.log().len(), |s| s.log_len);
        let known_game = (self.sent.game.as_ref()).is_some_and(|key| key.is_of(game, first));
        let log = game.log();
        let same = if !known_game {
            self.sent = Sent::default();
            0
        } else if self.sent.epoch == game.log_epoch() && self.sent.log.len() <= log.len() {
            // Only added to since: no need to compare (the cost would grow
            // with the game).
            self.sent.log.len()
        } else {
            self.sent
                .log
                .iter()
                .zip(log)
                .take_while(|(a, b)| a == b)
                .count()
        };
        // The state before command k follows from commands 0..k.
        let valid = if self.sent.game.is_some() {
            self.sent.known.min(same + 1)
        } else {
            0
        };
        // The undo history is in log order: the fresh ones are its tail.
        let from = undo.partition_point(|s| s.log_len < valid);
        // The first of them is most often the state the last job handed
        // over (the game after one command, before the next): the writer
        // has it, and it is not copied again. Compared, not assumed: a
        // change between the two (none is known) only costs the copy.
        let last_is_fresh = self.sent.game.is_some()
            && (self.sent.state.as_deref())
                .zip(undo.get(from))
                .is_some_and(|(last, first)| {
                    first.log_len == last.log_len
                        && (Arc::ptr_eq(&first.world, &last.world) || first.world == last.world)
                        && first.story == last.story
                        && first.policy_rng == last.policy_rng
                });
        let from = from + usize::from(last_is_fresh);
        let fresh: Vec<Snapshot> = (undo[from..].iter())
            .map(|s| Snapshot {
                world: Arc::clone(&s.world),
                story: s.story.clone(),
                policy_rng: s.policy_rng.clone(),
                log_len: s.log_len,
                picture: Arc::default(),
            })
            .collect();
        let said = match self.sent.said {
            Some((id, total)) if id == transcript.id => transcript.since(total).map(str::to_string),
            _ => None,
        }
        .map_or_else(|| Said::Whole(transcript.as_str().to_string()), Said::Since);
        self.sent.said = Some((transcript.id, transcript.total));
        let more = log[same..].to_vec();
        self.sent.log.truncate(same);
        self.sent.log.extend_from_slice(&more);
        self.sent.known = log.len();
        self.sent.epoch = game.log_epoch();
        if !known_game {
            self.sent.game = Some(GameKey::of(game, first));
        }
        self.sent.state = Some(Arc::clone(&state));
        self.next_id += 1;
        Ok(Job {
            id: self.next_id,
            dir: dir.to_path_buf(),
            path,
            header: Header::of(game, now()),
            state,
            keep: same,
            more,
            valid,
            fresh,
            last_is_fresh,
            first,
            said,
            journaled,
            leaving: false,
            from_start: undo.first().is_some_and(|s| s.log_len == 0),
        })
    }

    /// Hands a job to the writer; runs it here when there is none.
    fn dispatch(&mut self, job: Job) -> Option<Done> {
        if let Some(worker) = &self.worker {
            match worker.jobs.send(Msg::Job(Box::new(job))) {
                Ok(()) => {
                    self.in_flight += 1;
                    return None;
                }
                Err(std::sync::mpsc::SendError(msg)) => {
                    let Msg::Job(returned) = msg else {
                        return None;
                    };
                    // The thread is gone: write here from now on. This job
                    // was made for the lost writer (only what it lacked), so
                    // it fails, and the next one, made for this thread's
                    // writer, is whole.
                    self.stop();
                    return Some(Done {
                        id: returned.id,
                        result: Err(SaveError::Write(
                            returned.path.display().to_string(),
                            "the save writer stopped; the next save will be written".into(),
                        )),
                    });
                }
            }
        }
        let mut out = None;
        self.inline.run(vec![job], &mut |d| out = Some(d));
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
            } else {
                match done.result {
                    Ok(_) => self.wrote = true,
                    Err(err) => {
                        self.failure.get_or_insert(err);
                    }
                }
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
        transcript: &Transcript,
    ) -> Result<(), SaveError> {
        if self.folder.as_deref() != Some(dir) {
            std::fs::create_dir_all(dir)
                .map_err(|err| SaveError::Folder(dir.display().to_string(), err.to_string()))?;
            self.folder = Some(dir.to_path_buf());
        }
        self.collect(None, false);
        let job = self.job(dir, slot, game, transcript, true)?;
        match self.dispatch(job) {
            Some(Done {
                result: Err(err), ..
            }) => {
                self.failure.get_or_insert(err);
            }
            Some(Done { result: Ok(_), .. }) => self.wrote = true,
            None => {}
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
        transcript: &Transcript,
    ) -> Result<PathBuf, SaveError> {
        self.save_waited(dir, slot, game, transcript, false)
    }

    /// Writes the game's resume point (`slot`, its name) as the session
    /// ends, and waits for it: as [`Autosaver::save_now`], but the game's
    /// last autosave, whose turn the resume point holds whole, gets no slot
    /// of its own at the same turn once the resume point is written (its
    /// records are in the journal, read on through from the game's older
    /// autosave).
    pub fn leave_now(
        &mut self,
        dir: &Path,
        slot: &str,
        game: &mut Game,
        transcript: &Transcript,
    ) -> Result<PathBuf, SaveError> {
        self.save_waited(dir, slot, game, transcript, true)
    }

    fn save_waited(
        &mut self,
        dir: &Path,
        slot: &str,
        game: &mut Game,
        transcript: &Transcript,
        leaving: bool,
    ) -> Result<PathBuf, SaveError> {
        let mut job = self.job(dir, slot, game, transcript, false)?;
        job.leaving = leaving && slot == game.name();
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
        if let Some(worker) = &self.worker {
            self.next_id += 1;
            if worker.jobs.send(Msg::Flush(self.next_id)).is_ok() {
                self.in_flight += 1;
            }
        }
        self.collect(None, true);
    }

    /// What became of the autosaves handed over, as far as is known now
    /// (without waiting): a failure, or that one was written since the last
    /// call. The REPL asks before each prompt, so a failure is told at the
    /// turn it happens, and a success after it ends the failure's run.
    pub fn outcome(&mut self) -> Outcome {
        self.collect(None, false);
        if let Some(err) = self.failure.take() {
            self.wrote = false;
            Outcome::Failed(err)
        } else if std::mem::take(&mut self.wrote) {
            Outcome::Written
        } else {
            Outcome::Quiet
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_slot_paths_are_the_paths_checked_afresh() {
        let mut saver = Autosaver::inline();
        let (a, b) = (Path::new("/tmp/saves-a"), Path::new("/tmp/saves-b"));
        // More slots than are kept, each asked for twice, in two folders
        // taken in turn: each path is the one checked and joined afresh.
        for round in 0..2 {
            for k in 0..40 {
                let slot = format!("game-auto-{}", k % 23);
                for dir in [a, b] {
                    let kept = saver.slot_path(dir, &slot).expect("a good slot");
                    assert_eq!(kept, slot_path(dir, &slot).expect("a good slot"), "{round}");
                }
            }
        }
        // A bad slot is refused each time it is asked for, kept or not.
        for _ in 0..3 {
            let err = saver.slot_path(a, "../away").expect_err("a bad slot");
            assert_eq!(
                err.to_string(),
                slot_path(a, "../away").expect_err("a bad slot").to_string()
            );
        }
    }
}
