//! Save files: a versioned RON format of its own, written atomically.
//!
//! A save holds the format version, the engine version, the scene id and
//! hashes of the scene's text and rules, the role, seed and policies, the
//! positions of both random streams, the whole world and story, the command
//! log since the start, a fingerprint of the state before every command, and
//! the transcript.
//!
//! The undo history is *not* stored: the simulation is deterministic, so
//! loading replays the command log from the seed, which rebuilds the history
//! and proves the save at the same time (the fingerprints say where a replay
//! parts from the saved game). If the replay does not reach the saved state
//! (a different engine, a hand-edited file), the saved state wins and undo
//! starts from there. The save format is its own type: the random streams
//! are stored as seed, stream and word position (RON has no 128-bit
//! integers), and the world is copied field by field, so a change to the
//! simulation's state is a compile error here rather than a silent change of
//! format.
//!
//! Writing goes to a temporary file in the same folder, synced, then renamed
//! over the slot, so a crash mid-save leaves the old slot whole. Slot names
//! are plain names and cannot leave the folder.
//!
//! Fingerprints are a binary hash of the saved state ([`hash`]), each
//! computed once: [`Autosaver`] keeps them from one save to the next and
//! writes autosaves on a thread of its own, off the player's turn.
//!
//! Format 2 differs from format 1 only in its fingerprints (format 1 hashed
//! the state's text): a format-1 save is read as it is, its fingerprints set
//! aside, and proven by its final state alone.

mod autosave;
pub mod hash;
pub mod journal;
mod lock;
mod slots;
pub mod types;

pub use autosave::{Autosaver, Outcome, Transcript};
pub use journal::JournalRef;
pub use lock::{FolderLock, LOCK_FILE, LockError};
pub use slots::{SlotInfo, SlotSummary, check_slot, list, slot_names, slot_path, timestamp};
pub use types::*;

use crate::scene::Scene;
use crate::sim::WorldState;
use crate::sim::morale::{MAX_LAST, MAX_NOTED};
use crate::sim::movement::UnitOrder;
use crate::sim::rng::BattleRng;
use crate::story::{Command, Game, Snapshot};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The save format this engine writes. Format 4 added the journal: an
/// autosave between turns may keep its commands and transcript in the
/// game's journal ([`journal`]) instead of in the file.
pub const FORMAT: u32 = 4;
/// The oldest format this engine still reads.
pub const MIN_FORMAT: u32 = 1;
/// Autosaves rotate over this many slots.
pub const AUTOSAVE_SLOTS: usize = 3;
/// Longest slot name, in characters.
pub const MAX_SLOT_CHARS: usize = 64;
/// Longest slot name, in bytes of UTF-8 (64 Chinese characters take 192).
pub const MAX_SLOT_BYTES: usize = 200;
/// Most file systems allow 255 bytes in a name: the slot, `.ron` and the
/// temp file's extra must fit.
const _: () = assert!(MAX_SLOT_BYTES + ".ron".len() + crate::files::TEMP_NAME_EXTRA <= 255);
/// Larger files are refused unread: no real save comes near this.
pub const MAX_SAVE_BYTES: u64 = 16 * 1024 * 1024;
/// A game's journal grows to this at most; past it, autosaves hold their
/// commands and transcript themselves, as `save` does.
pub const MAX_JOURNAL_BYTES: u64 = 64 * 1024 * 1024;
/// A save keeps at most the last this many bytes of the transcript (the
/// command log, not the transcript, is what rebuilds the game).
pub const MAX_TRANSCRIPT_BYTES: usize = 256 * 1024;
/// Commands in a save's log at most: the game keeps its log within it
/// ([`crate::story::order_room`]).
pub const MAX_LOG: usize = crate::story::MAX_LOG;
/// Words a random stream has drawn at most: a game draws far fewer (2^62
/// words take a century at ten billion a second), and a stream loaded at it
/// can still draw three times as many before its position passes what a
/// save can hold (2^64).
pub const MAX_WORD_POS: u64 = 1 << 62;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveFile {
    pub format: u32,
    pub engine: String,
    pub scene: String,
    /// FNV-1a of the scene file's text.
    pub scene_hash: u64,
    /// FNV-1a of the rules the scene plays by (shared rules and overrides).
    pub rules_hash: u64,
    pub role: String,
    pub seed: u64,
    /// Seconds since the Unix epoch.
    pub saved_at: u64,
    pub turn: u32,
    pub policies: SavedPolicies,
    pub state: SavedState,
    pub log: Vec<SavedCommand>,
    /// (command index, fingerprint of the state just before that command).
    pub checkpoints: Vec<(usize, u64)>,
    pub transcript: String,
    /// The player's setting to see which option the novel (or history) took
    /// before deciding. Written only when on, so saves without it (older
    /// ones too) read as off and write back the same.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub show_sources: bool,
    /// The game's name in its folder (its resume point's slot). Older saves
    /// have none: theirs is made from battle, role and seed when read.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub game: String,
    /// An autosave between turns (format 4 on): its log and transcript are
    /// the first bytes of the game's journal, named here, and the file's own
    /// are empty. [`read`] fills them in and clears this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub journal: Option<JournalRef>,
    /// Set when read: the file's checksum line does not match its contents
    /// (or a format-3 save has none). Not part of the file.
    #[serde(skip)]
    pub damaged: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedPolicies {
    /// The side nobody plays.
    pub others: SavedPolicy,
    /// The player's own role, when an auto-player plays it.
    pub player: Option<SavedPolicy>,
}

/// A ChaCha8 stream's position: enough to continue it exactly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RngPosition {
    /// The 32-byte key, in hex.
    pub key: String,
    pub stream: u64,
    /// 32-bit words drawn so far.
    pub word_pos: u64,
}

/// World, story and the policy stream: what undo rewinds, in the save's own shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedState {
    pub world: SavedWorld,
    pub story: SavedStory,
    pub policy_rng: RngPosition,
}

/// The simulation's [`WorldState`], with its random stream as a position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedWorld {
    pub turn: u32,
    pub weather: SavedWeather,
    pub rng: RngPosition,
    pub units: Vec<SavedUnit>,
    pub commanders: Vec<SavedCommander>,
    pub zones: Vec<SavedZone>,
    pub rumors: SavedRumors,
    pub vision: SavedVision,
    pub wet_cloth: Vec<bool>,
}

/// The first field of a save, read leniently to tell a newer format or a
/// foreign file from a damaged save.
#[derive(Debug, Clone, Deserialize)]
struct Version {
    format: u32,
}

#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    #[error(
        "`{0}` is not a valid slot name: {1}. Use letters, digits, - and _ (at most {MAX_SLOT_CHARS})"
    )]
    BadSlot(String, &'static str),
    #[error("no save in slot `{0}` ({1})")]
    Missing(String, String),
    #[error("cannot use the save folder {0}: {1}")]
    Folder(String, String),
    #[error("cannot save to {0}: {1} (the old save, if any, is untouched)")]
    Write(String, String),
    #[error(
        "not saved to {0}: read back, this save would be refused when loaded ({1}); the slot keeps its last good save"
    )]
    Refused(String, String),
    #[error("cannot read {0}: {1}")]
    Read(String, String),
    #[error("{0} is not a usable xiaoling save: {1}")]
    Damaged(String, String),
    #[error(
        "{0} is from a newer version of xiaoling (save format {1}; this one reads {2} to {3}): update xiaoling to load it"
    )]
    TooNew(String, u32, u32, u32),
    #[error("{0} is an old save (format {1}) that this version no longer reads ({2} to {3})")]
    TooOld(String, u32, u32, u32),
    #[error("{0} is a save of the battle `{1}`, which is not loaded (battles here: {2})")]
    UnknownScene(String, String, String),
}

/// The hash of the rules a scene plays by (worked out once per scene).
pub fn rules_hash(scene: &Scene) -> u64 {
    scene.rules_hash()
}

impl RngPosition {
    pub fn of(rng: &ChaCha8Rng) -> Result<RngPosition, String> {
        let word_pos = u64::try_from(rng.get_word_pos())
            .map_err(|_| "a random stream is past 2^64 draws".to_string())?;
        Ok(RngPosition {
            key: rng.get_seed().iter().map(|b| format!("{b:02x}")).collect(),
            stream: rng.get_stream(),
            word_pos,
        })
    }

    pub fn to_rng(&self) -> Result<ChaCha8Rng, String> {
        let bad = || format!("the random-stream key `{}` is not 64 hex digits", self.key);
        if self.key.len() != 64 || !self.key.is_ascii() {
            return Err(bad());
        }
        let mut key = [0_u8; 32];
        for (i, byte) in key.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&self.key[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
        }
        let mut rng = ChaCha8Rng::from_seed(key);
        rng.set_stream(self.stream);
        rng.set_word_pos(u128::from(self.word_pos));
        Ok(rng)
    }
}

impl SavedState {
    pub fn of(snapshot: &Snapshot) -> Result<SavedState, String> {
        let WorldState {
            turn,
            weather,
            rng,
            units,
            commanders,
            zones,
            rumors,
            vision,
            wet_cloth,
        } = &snapshot.world;
        Ok(SavedState {
            world: SavedWorld {
                turn: *turn,
                weather: weather.into(),
                rng: RngPosition::of(&rng.0)?,
                units: units.iter().map(Into::into).collect(),
                commanders: commanders.iter().map(Into::into).collect(),
                zones: zones.iter().map(Into::into).collect(),
                rumors: rumors.into(),
                vision: vision.into(),
                wet_cloth: wet_cloth.clone(),
            },
            story: (&snapshot.story).into(),
            policy_rng: RngPosition::of(&snapshot.policy_rng.0)?,
        })
    }

    pub fn to_snapshot(&self, log_len: usize) -> Result<Snapshot, String> {
        let SavedWorld {
            turn,
            weather,
            rng,
            units,
            commanders,
            zones,
            rumors,
            vision,
            wet_cloth,
        } = &self.world;
        Ok(Snapshot {
            world: WorldState {
                turn: *turn,
                weather: weather.into(),
                rng: BattleRng::new(rng.to_rng()?),
                units: units.iter().map(Into::into).collect(),
                commanders: commanders.iter().map(Into::into).collect(),
                zones: zones.iter().map(Into::into).collect(),
                rumors: rumors.into(),
                vision: vision.into(),
                wet_cloth: wet_cloth.clone(),
            },
            story: (&self.story).into(),
            policy_rng: BattleRng::new(self.policy_rng.to_rng()?),
            log_len,
            // Not in the file: rebuilt from the world when restored.
            picture: crate::picture::Picture::default(),
        })
    }

    /// The state as text, for comparisons (text compares NaN equal to
    /// itself, which `PartialEq` does not) and messages.
    pub fn text(&self) -> String {
        // Unescaped, as saves are written (see [`to_text`]): the same text
        // for the same state, without the cost of escaping every character.
        let config = ron::ser::PrettyConfig::default()
            .compact_arrays(true)
            .compact_structs(true)
            .compact_maps(true)
            .new_line("")
            .indentor("")
            .escape_strings(false);
        ron::ser::to_string_pretty(self, config).unwrap_or_default()
    }

    /// The state's fingerprint, as a save's checkpoints hold it.
    pub fn fingerprint(&self) -> u64 {
        hash::fingerprint(self)
    }
}

/// The fingerprint of a game state, as a save's checkpoints hold it.
pub fn fingerprint(snapshot: &Snapshot) -> u64 {
    SavedState::of(snapshot)
        .map(|s| s.fingerprint())
        .unwrap_or(0)
}

/// Seconds since the Unix epoch.
pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// The save of a game as it stands.
pub fn save_file(game: &mut Game, transcript: &str) -> Result<SaveFile, String> {
    let state = SavedState::of(&game.snapshot())?;
    let checkpoints = game
        .undo_history()
        .iter()
        .map(|s| (s.log_len, fingerprint(s)))
        .collect();
    Ok(file_of(
        &Header::of(game, now()),
        state,
        game.log(),
        checkpoints,
        transcript,
    ))
}

/// What a save says of the game besides its state: scene, role, seed,
/// policies, turn and time.
#[derive(Debug, Clone)]
pub(crate) struct Header {
    pub scene: Arc<Scene>,
    pub role: String,
    pub seed: u64,
    pub policies: SavedPolicies,
    pub show_sources: bool,
    pub game: String,
    pub turn: u32,
    pub saved_at: u64,
}

impl Header {
    pub fn of(game: &Game, saved_at: u64) -> Header {
        let (others, player) = game.policies();
        Header {
            scene: game.scene_arc(),
            role: game.role().to_string(),
            seed: game.seed(),
            policies: SavedPolicies {
                others: others.into(),
                player: player.map(Into::into),
            },
            show_sources: game.shows_sources(),
            game: game.name().to_string(),
            turn: game.turn(),
            saved_at,
        }
    }
}

/// A save file from its parts.
pub(crate) fn file_of(
    header: &Header,
    state: SavedState,
    log: &[Command],
    checkpoints: Vec<(usize, u64)>,
    transcript: &str,
) -> SaveFile {
    let scene = &header.scene;
    SaveFile {
        format: FORMAT,
        engine: env!("CARGO_PKG_VERSION").to_string(),
        scene: scene.id().to_string(),
        scene_hash: scene.content_hash,
        rules_hash: rules_hash(scene),
        role: header.role.clone(),
        seed: header.seed,
        saved_at: header.saved_at,
        turn: header.turn,
        policies: header.policies,
        state,
        log: log.iter().map(Into::into).collect(),
        checkpoints,
        transcript: bounded_transcript(transcript, MAX_TRANSCRIPT_BYTES),
        show_sources: header.show_sources,
        game: header.game.clone(),
        journal: None,
        damaged: false,
    }
}

/// The save as RON text.
///
/// Strings are written as they are, not escaped character by character
/// (ron's escaping runs `char::escape_debug` on every character, some 1,500
/// instructions for each Chinese one): a string with no `"` or `\\` goes
/// between quotes unchanged, line breaks and all, and one with either is
/// written as a raw string (`r#"…"#`, with as many `#` as it needs). RON
/// reads both back to the same string, and reads the escaped strings of
/// older saves as before.
pub fn to_text(file: &SaveFile) -> Result<String, String> {
    // Pretty at the top so a person can read the header; the bulky state on few lines.
    let config = ron::ser::PrettyConfig::default()
        .depth_limit(2)
        .escape_strings(false);
    let mut text = ron::ser::to_string_pretty(file, config).map_err(|err| err.to_string())?;
    seal(&mut text);
    Ok(text)
}

/// The last line of a save (format 3 on): FNV-1a of every byte before it.
const CHECKSUM: &str = "// checksum fnv1a-64 ";

/// Ends `text` with its checksum line (a RON comment, so any RON reader
/// still reads the file).
fn seal(text: &mut String) {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let sum = crate::scene::content_hash(text);
    text.push_str(&format!("{CHECKSUM}{sum:016x}\n"));
}

/// `text` (a save's RON, with or without its checksum line) sealed with the
/// checksum of what it says now: for a save edited by hand on purpose (a
/// tool, a test), which would otherwise load as damaged.
pub fn reseal(text: &str) -> String {
    let mut body = unseal(text).0.to_string();
    seal(&mut body);
    body
}

/// A save's text without its checksum line, and whether that line matches
/// what comes before it (None when there is no such line: older saves).
fn unseal(text: &str) -> (&str, Option<bool>) {
    let trimmed = text.strip_suffix('\n').unwrap_or(text);
    let start = trimmed.rfind('\n').map_or(0, |i| i + 1);
    match trimmed[start..].strip_prefix(CHECKSUM) {
        Some(hex) => {
            let body = &text[..start];
            let holds = u64::from_str_radix(hex.trim(), 16)
                .is_ok_and(|sum| sum == crate::scene::content_hash(body));
            (body, Some(holds))
        }
        None => (text, None),
    }
}

/// Writes the game to `slot` atomically.
pub fn save(
    dir: &Path,
    slot: &str,
    game: &mut Game,
    transcript: &str,
) -> Result<PathBuf, SaveError> {
    let path = slot_path(dir, slot)?;
    let shown = || path.display().to_string();
    let file = save_file(game, transcript).map_err(|err| SaveError::Write(shown(), err))?;
    let text = to_text(&file).map_err(|err| SaveError::Write(shown(), err))?;
    write_verified(dir, &path, text.as_bytes(), game.scene())?;
    Ok(path)
}

/// The slot an autosave goes to. Each game has its own: its resume point
/// (on leaving) is the slot of the game's name, and after each turn it
/// rotates over `NAME-auto-1` to `NAME-auto-3`, so another game in the
/// folder never writes over them.
pub fn autosave_slot(game: &Game, why: &str) -> String {
    if why == "quit" {
        game.name().to_string()
    } else {
        format!(
            "{}-auto-{}",
            game.name(),
            game.log().len() % AUTOSAVE_SLOTS + 1
        )
    }
}

/// A name for a new game in `dir`: `base`, or `base-2`, `base-3`… the
/// first that no slot of the folder uses, as a resume point or as the stem
/// of autosaves, so the new game writes over none of an older one's.
pub fn unused_name(dir: &Path, base: &str) -> String {
    let slots = slot_names(dir);
    let taken = |name: &str| slots.iter().any(|slot| own_slot(name, slot));
    if !taken(base) {
        return base.to_string();
    }
    (2u32..)
        .map(|n| format!("{base}-{n}"))
        .find(|name| !taken(name))
        .unwrap_or_else(|| base.to_string())
}

/// The games one can go on with in `dir`, newest first: for each game not
/// over, the newest of the slots it wrote itself — its resume point, or an
/// autosave when it was left without one (a closed terminal, a kill) or
/// played on after it. Saves made with `save NAME` are not offered.
pub fn resume_points(dir: &Path) -> Vec<SlotInfo> {
    let mut newest: std::collections::BTreeMap<String, SlotInfo> = Default::default();
    for info in list(dir).unwrap_or_default() {
        let Ok(summary) = &info.summary else { continue };
        if !own_slot(&summary.game, &info.slot) {
            continue;
        }
        let game = summary.game.clone();
        // Saves of one second: the resume point, written on leaving, is the
        // later.
        let newer = newest.get(&game).is_none_or(|best| {
            let at = best.summary.as_ref().map_or(0, |b| b.saved_at);
            at < summary.saved_at || (at == summary.saved_at && info.slot == game)
        });
        if newer {
            newest.insert(game, info);
        }
    }
    let mut points: Vec<SlotInfo> = newest
        .into_values()
        .filter(|info| info.summary.as_ref().is_ok_and(|s| !s.over))
        .collect();
    points.sort_by_key(|info| std::cmp::Reverse(info.summary.as_ref().map_or(0, |s| s.saved_at)));
    points
}

/// After every turn (rotating over `AUTOSAVE_SLOTS` slots) and on quit.
pub fn autosave(
    dir: &Path,
    game: &mut Game,
    transcript: &str,
    why: &str,
) -> Result<PathBuf, SaveError> {
    let slot = autosave_slot(game, why);
    save(dir, &slot, game, transcript)
}

/// Writes a save as [`write_atomic`] does, but reads the temp file back and
/// runs the loader's own checks on it ([`verify`]) before it replaces the
/// slot: a save that loading would refuse is never written over a good one.
pub fn write_verified(
    dir: &Path,
    path: &Path,
    bytes: &[u8],
    scene: &Scene,
) -> Result<(), SaveError> {
    use crate::files::WriteError;
    if let Err(err) = std::fs::create_dir_all(dir) {
        return Err(SaveError::Folder(
            dir.display().to_string(),
            err.to_string(),
        ));
    }
    let shown = path.display().to_string();
    crate::files::write_atomic_checked(dir, path, bytes, &|temp| verify(temp, scene)).map_err(
        |err| match err {
            WriteError::Io(err) => SaveError::Write(shown.clone(), err.to_string()),
            WriteError::Refused(why) => SaveError::Refused(shown.clone(), why),
        },
    )
}

/// What loading the save at `path` in `scene` would refuse before its replay:
/// the file's size, text and shape, every bound ([`check_bounds`]) and its
/// fit to the battle ([`check_fits`]). Cheap beside a load: no replay.
pub fn verify(path: &Path, scene: &Scene) -> Result<(), String> {
    let file = read_file(path, Journal::Look).map_err(|err| match err {
        SaveError::Damaged(_, why) => why,
        other => other.to_string(),
    })?;
    if file.damaged {
        return Err("its checksum does not match what was written".to_string());
    }
    if file.scene != scene.id() {
        return Err(format!(
            "it names the battle `{}`, not `{}`",
            file.scene,
            scene.id()
        ));
    }
    check_fits(scene, &file)
}

/// Temp file in the same folder, fsync, rename, fsync the folder.
pub fn write_atomic(dir: &Path, path: &Path, bytes: &[u8]) -> Result<(), SaveError> {
    if let Err(err) = std::fs::create_dir_all(dir) {
        return Err(SaveError::Folder(
            dir.display().to_string(),
            err.to_string(),
        ));
    }
    crate::files::write_atomic(dir, path, bytes)
        .map_err(|err| SaveError::Write(path.display().to_string(), err.to_string()))
}

/// The last `max` bytes of a transcript at most, cut at a line start, with a
/// line saying that the beginning was left out.
pub fn bounded_transcript(transcript: &str, max: usize) -> String {
    if transcript.len() <= max {
        return transcript.to_string();
    }
    let mut start = transcript.len() - max;
    while !transcript.is_char_boundary(start) {
        start += 1;
    }
    let tail = &transcript[start..];
    let tail = match tail.find('\n') {
        Some(i) => &tail[i + 1..],
        None => tail,
    };
    format!("[… the transcript's beginning is not kept …]\n{tail}")
}

/// "line 3, column 7: expected …" from a RON error.
fn ron_problem(err: &ron::error::SpannedError) -> String {
    // RON's own words are for developers where they name its options (the
    // recursion limit's advice to raise it): a player gets what is wrong.
    let what = match &err.code {
        ron::Error::ExceededRecursionLimit => {
            "its brackets are nested deeper than any save's".to_string()
        }
        code => code.to_string(),
    };
    format!(
        "{what} (line {}, column {})",
        err.span.start.line, err.span.start.col
    )
}

/// Reads a save file and checks its shape (no scene needed). An autosave
/// whose commands and transcript are in the game's journal gets them from
/// there: the file returned holds them itself (its `journal` is None).
pub fn read(path: &Path) -> Result<SaveFile, SaveError> {
    read_file(path, Journal::Read)
}

/// What to do with a save's journal when reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Journal {
    /// Read the commands and transcript it names (a load).
    Read,
    /// See only that it is there and long enough (the `saves` table, and a
    /// save just written, whose journal the writer has just synced).
    Look,
}

pub(crate) fn read_file(path: &Path, journal: Journal) -> Result<SaveFile, SaveError> {
    let shown = path.display().to_string();
    let text = read_text(path)?;
    let (text, sealed) = unseal(&text);
    // The whole file is parsed once; only a file that does not parse as a
    // save is read again for its header, to tell a newer or older format,
    // or a foreign file, from a damaged save (the same answers as reading
    // the header first: a file that parses whole has the same header).
    let mut file: SaveFile = match ron::from_str(text) {
        Ok(file) => file,
        Err(err) => {
            header(&shown, text)?;
            return Err(SaveError::Damaged(
                shown,
                format!("its contents are damaged: {}", ron_problem(&err)),
            ));
        }
    };
    check_format(&shown, file.format)?;
    // Format 3 seals every save; older ones have no checksum to check.
    file.damaged = match sealed {
        Some(holds) => !holds,
        None => file.format >= 3,
    };
    if let Some(named) = &file.journal {
        let damaged = |why: String| SaveError::Damaged(shown.clone(), why);
        if file.format < 4 || !file.log.is_empty() || !file.transcript.is_empty() {
            return Err(damaged(
                "it names a journal and holds commands of its own".into(),
            ));
        }
        let dir = path.parent().unwrap_or(Path::new("."));
        match journal {
            Journal::Look => {
                journal::looks_whole(dir, named).map_err(damaged)?;
            }
            Journal::Read => {
                let replayed = journal::read_ref(dir, named).map_err(damaged)?;
                if !file.checkpoints.is_empty() {
                    return Err(damaged(
                        "it names a journal and holds fingerprints of its own".into(),
                    ));
                }
                file.log = replayed.log;
                file.checkpoints = replayed.checkpoints;
                file.transcript = replayed.transcript;
                file.journal = None;
            }
        }
    }
    check_bounds(&file).map_err(|why| SaveError::Damaged(shown, why))?;
    file.transcript = bounded_transcript(&file.transcript, MAX_TRANSCRIPT_BYTES);
    if file.format < 2 {
        // Format 1 hashed the state's text: its fingerprints cannot be
        // checked here, and its final state proves the replay alone.
        file.checkpoints.clear();
    }
    Ok(file)
}

/// The most men a unit has (the scene checker's bound).
pub const MAX_MEN: u32 = 1_000_000;

/// The highest turn any battle reaches (scenes have at most 1,000 turns).
pub const MAX_TURN: u32 = 1_000;

/// Bounds every number in a save that does not need the scene to judge, so
/// that no hand-edited value can overflow a counter later.
pub fn check_bounds(file: &SaveFile) -> Result<(), String> {
    let world = &file.state.world;
    if file.turn > MAX_TURN || world.turn > MAX_TURN {
        return Err(format!(
            "its turn ({}) is past the last turn any battle has ({MAX_TURN})",
            file.turn.max(world.turn)
        ));
    }
    // The header is what `saves` lists and `play` offers: it must say what
    // the state holds.
    if file.turn != world.turn {
        return Err(format!(
            "its header says turn {} but the game it holds is at turn {}",
            file.turn, world.turn
        ));
    }
    // A save looked at, not read, has its commands still in its journal.
    let commands = file.journal.as_ref().map_or(file.log.len(), |j| j.commands);
    if commands > MAX_LOG {
        return Err(format!(
            "its command log holds {commands} commands, more than any battle takes ({MAX_LOG})"
        ));
    }
    if file.checkpoints.len() > commands + 1 {
        return Err("it holds more checkpoints than commands".into());
    }
    let in_unit = |x: f64| x.is_finite() && (0.0..=1.0).contains(&x);
    let finite = |x: f64| x.is_finite() && x.abs() <= 1e12;
    if !finite(world.weather.wind) {
        return Err(format!(
            "its wind ({}) is not a usable number",
            world.weather.wind
        ));
    }
    for (idx, unit) in world.units.iter().enumerate() {
        let m = &unit.morale;
        let ok = m.value.is_finite()
            && (0.0..=100.0).contains(&m.value)
            && finite(unit.orders.progress)
            && unit.orders.progress >= 0.0
            && finite(m.fear)
            && m.last.iter().all(|(_, d)| d.abs() <= MAX_NOTED)
            && m.last.len() <= MAX_LAST;
        if !ok {
            return Err(format!(
                "unit #{} has a morale or progress out of range",
                idx + 1
            ));
        }
    }
    for (idx, unit) in world.units.iter().enumerate() {
        if unit.men > MAX_MEN || unit.lost_this_turn > MAX_MEN {
            return Err(format!(
                "unit #{} has {} men, more than a unit can have ({MAX_MEN})",
                idx + 1,
                unit.men.max(unit.lost_this_turn)
            ));
        }
    }
    for zone in &world.zones {
        let b = &zone.burning;
        if ![b.fire, b.fuel, b.smoke].into_iter().all(finite)
            || !zone.haze.levels.iter().copied().all(finite)
        {
            // Crossing counts are sums over the game, kept within u32 by the
            // engine (saturating); the battle bounds them (`check_fits`).
            return Err("a zone's fire or smoke is out of range".into());
        }
    }
    for commander in &world.commanders {
        if !finite(commander.leadership) || commander.drums_left > MAX_MEN {
            return Err("a commander's leadership is not a usable number".into());
        }
    }
    for rumor in &world.rumors.active {
        if !in_unit(rumor.credibility) {
            return Err("a rumor's credibility is out of range".into());
        }
    }
    for (what, rng) in [
        ("battle's", &world.rng),
        ("policy's", &file.state.policy_rng),
    ] {
        if rng.word_pos > MAX_WORD_POS {
            return Err(format!(
                "the {what} random stream is at draw {}, past any game's ({MAX_WORD_POS})",
                rng.word_pos
            ));
        }
    }
    if world.rumors.active.len() > crate::sim::rumor::MAX_RUMORS {
        return Err("it holds more rumors than any battle spreads".into());
    }
    Ok(())
}

fn read_text(path: &Path) -> Result<String, SaveError> {
    use crate::files::ReadError;
    let shown = path.display().to_string();
    let bytes = crate::files::read_capped(path, MAX_SAVE_BYTES).map_err(|err| match err {
        ReadError::Missing => SaveError::Missing(
            path.file_stem()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_default(),
            shown.clone(),
        ),
        ReadError::Io(err) => SaveError::Read(shown.clone(), err.to_string()),
        other => SaveError::Damaged(shown.clone(), other.to_string()),
    })?;
    let text = String::from_utf8(bytes)
        .map_err(|_| SaveError::Damaged(shown.clone(), "it is not text (not UTF-8)".into()))?;
    if text.trim().is_empty() {
        return Err(SaveError::Damaged(shown, "the file is empty".into()));
    }
    Ok(text)
}

/// A format this engine reads, or why not.
fn check_format(shown: &str, format: u32) -> Result<(), SaveError> {
    if format > FORMAT {
        Err(SaveError::TooNew(
            shown.to_string(),
            format,
            MIN_FORMAT,
            FORMAT,
        ))
    } else if format < MIN_FORMAT {
        Err(SaveError::TooOld(
            shown.to_string(),
            format,
            MIN_FORMAT,
            FORMAT,
        ))
    } else {
        Ok(())
    }
}

/// The header, or the clearest account of why there is none.
fn header(shown: &str, text: &str) -> Result<Version, SaveError> {
    match ron::from_str::<Version>(text) {
        Ok(header) => check_format(shown, header.format).map(|()| header),
        Err(err) => {
            let why = match ron::from_str::<ron::Value>(text) {
                Ok(_) => format!(
                    "it is RON, but not a save file: {}",
                    ron_problem(&err).replace("Unexpected missing field", "no field")
                ),
                Err(syntax) => format!("it is damaged or cut short: {}", ron_problem(&syntax)),
            };
            Err(SaveError::Damaged(shown.to_string(), why))
        }
    }
}

/// A loaded game, its transcript, and a notice if the scene had changed.
pub struct Loaded {
    pub game: Game,
    pub transcript: String,
    pub notice: Option<String>,
}

pub fn load(dir: &Path, slot: &str, scenes: &[Arc<Scene>]) -> Result<Loaded, SaveError> {
    let path = slot_path(dir, slot)?;
    let file = read(&path)?;
    let mut loaded = restore(&path.display().to_string(), file, scenes)?;
    // A game goes on under its name from its own resume point or autosaves.
    // From any other save (one made with `save NAME`) it goes on as a game
    // of its own, so its saves never write over the later ones of the game
    // it was saved from.
    let name = loaded.game.name().to_string();
    if !own_slot(&name, slot) && slot_names(dir).iter().any(|s| own_slot(&name, s)) {
        loaded.game.set_name(unused_name(dir, &name));
    }
    Ok(loaded)
}

/// Whether `slot` is one the game `name` writes itself: its resume point or
/// one of its autosaves.
fn own_slot(name: &str, slot: &str) -> bool {
    slot == name
        || slot
            .strip_prefix(name)
            .and_then(|rest| rest.strip_prefix("-auto-"))
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// A fresh game for a save: its scene, role, seed and policies.
fn fresh(shown: &str, scene: &Arc<Scene>, file: &SaveFile) -> Result<Game, SaveError> {
    let (game, _) = Game::with_policies(
        Arc::clone(scene),
        &file.role,
        file.seed,
        file.policies.others.into(),
        file.policies.player.map(Into::into),
    )
    .map_err(|err| SaveError::Damaged(shown.to_string(), err.to_string()))?;
    let mut game = game;
    game.show_sources(file.show_sources);
    if check_slot(&file.game).is_ok() {
        game.set_name(file.game.clone());
    }
    Ok(game)
}

/// Rebuilds the game a save describes by replaying its log from the seed
/// (which restores the undo history too). When the scene changed since the
/// save, the replay on the current scene is the game, and the notice says
/// where it parts from the saved one. When the scene is the same but the
/// replay does not reach the saved state, the saved state is restored without
/// undo history, and the notice says so.
pub fn restore(shown: &str, file: SaveFile, scenes: &[Arc<Scene>]) -> Result<Loaded, SaveError> {
    if file.journal.is_some() {
        return Err(SaveError::Damaged(
            shown.to_string(),
            "its commands are in a journal that was not read".into(),
        ));
    }
    check_bounds(&file).map_err(|why| SaveError::Damaged(shown.to_string(), why))?;
    let scene = scenes
        .iter()
        .find(|s| s.id() == file.scene)
        .cloned()
        .ok_or_else(|| {
            let ids: Vec<&str> = scenes.iter().map(|s| s.id()).collect();
            SaveError::UnknownScene(shown.to_string(), file.scene.clone(), ids.join(", "))
        })?;
    let mut game = fresh(shown, &scene, &file)?;
    let report = replay(&mut game, &file);
    if file.damaged {
        return damaged(shown, game, &report, file);
    }
    let changed = match (
        scene.content_hash == file.scene_hash,
        rules_hash(&scene) == file.rules_hash,
    ) {
        (true, true) => None,
        (false, true) => Some("battle"),
        (true, false) => Some("rules of the battle"),
        (false, false) => Some("battle and its rules"),
    };
    if let Some(what) = changed {
        let n = file.log.len();
        let outcome = if report.reproduces() {
            "they reach the same state, so nothing is lost.".to_string()
        } else {
            report.describe()
        };
        let notice = format!(
            "{shown}: the {what} `{}` changed since this save was made. Your {n} command(s) were replayed on the current version: {outcome}",
            file.scene
        );
        return Ok(Loaded {
            game,
            transcript: file.transcript,
            notice: Some(notice),
        });
    }
    if report.reproduces() {
        return Ok(Loaded {
            game,
            transcript: file.transcript,
            notice: None,
        });
    }
    check_fits(&scene, &file).map_err(|why| SaveError::Damaged(shown.to_string(), why))?;
    let snapshot = file
        .state
        .to_snapshot(file.log.len())
        .map_err(|why| SaveError::Damaged(shown.to_string(), why))?;
    let mut game = fresh(shown, &scene, &file)?;
    let log = file.log.iter().map(Into::into).collect();
    game.restore_saved(&snapshot, log, Vec::new());
    let notice = format!(
        "{shown}: this save's commands do not lead to its saved state on this version of xiaoling ({}) The game goes on from the saved state; undo cannot go back before it.",
        report.describe()
    );
    Ok(Loaded {
        game,
        transcript: file.transcript,
        notice: Some(notice),
    })
}

/// A save whose checksum does not hold: something changed it after it was
/// written (a disk, a hand). Its saved state cannot be trusted, so the game
/// is what its commands give when replayed from its seed, and the player is
/// told so; when they no longer run, the save is refused.
fn damaged(
    shown: &str,
    game: Game,
    report: &ReplayReport,
    file: SaveFile,
) -> Result<Loaded, SaveError> {
    if let Some((i, why)) = &report.failed {
        return Err(SaveError::Damaged(
            shown.to_string(),
            format!(
                "it was changed after it was written (its checksum does not match), and its commands no longer replay (command {}: {why})",
                i + 1
            ),
        ));
    }
    let reached = if report.reproduces() {
        "which is where the save says it was"
    } else {
        "and the state written in the file is not used"
    };
    let n = file.log.len();
    let commands = if n == 1 {
        "command was"
    } else {
        "commands were"
    };
    let notice = format!(
        "{shown} was changed after it was written (its checksum does not match). Its {n} {commands} replayed from its seed: the game goes on at turn {}, {reached}.",
        game.turn()
    );
    Ok(Loaded {
        game,
        transcript: file.transcript,
        notice: Some(notice),
    })
}

/// Whether a saved state fits the scene it names: counts and every index in
/// range, so a hand-edited or foreign state cannot reach code that indexes.
pub fn check_fits(scene: &Scene, file: &SaveFile) -> Result<(), String> {
    let world = &file.state.world;
    let story = &file.state.story;
    let (n_units, n_zones, n_sides) = (
        scene.units().len(),
        scene.zones().len(),
        scene.sides().len(),
    );
    let n_commanders = scene.commanders().len();
    let count = |what: &str, saved: usize, scene_has: usize| {
        if saved == scene_has {
            Ok(())
        } else {
            Err(format!(
                "it holds {saved} {what} but the battle `{}` has {scene_has}",
                scene.id()
            ))
        }
    };
    let max_turn = scene.meta().max_turns.saturating_add(1);
    if world.turn > max_turn || file.turn > max_turn {
        return Err(format!(
            "its turn ({}) is past the battle's last ({})",
            world.turn.max(file.turn),
            scene.meta().max_turns
        ));
    }
    count("units", world.units.len(), n_units)?;
    count("commanders", world.commanders.len(), n_commanders)?;
    count("zones", world.zones.len(), n_zones)?;
    count("sides' wet-cloth orders", world.wet_cloth.len(), n_sides)?;
    let zone_ok = |z: usize| z < n_zones;
    for (idx, unit) in world.units.iter().enumerate() {
        let bad = !zone_ok(unit.location.zone)
            || unit.side.is_some_and(|side| side >= n_sides)
            || unit.orders.came_from.is_some_and(|z| !zone_ok(z))
            || match unit.orders.order.into() {
                UnitOrder::MoveTo(z) => !zone_ok(z),
                UnitOrder::RallyTo(c) => c >= n_commanders,
                UnitOrder::Hold | UnitOrder::Pursue => false,
            };
        if bad {
            return Err(format!(
                "unit `{}` is placed, ordered or sided outside the battle's zones and sides",
                scene.units()[idx].id
            ));
        }
    }
    for (idx, commander) in world.commanders.iter().enumerate() {
        if commander.idx != idx || commander.side >= n_sides || !zone_ok(commander.zone) {
            return Err(format!(
                "commander `{}` does not fit the battle",
                scene.commanders()[idx].id
            ));
        }
    }
    if world
        .zones
        .iter()
        .any(|z| z.passage.crossed.len() != n_sides)
    {
        return Err("a zone's crossing counts do not match the sides".into());
    }
    // A unit crosses at most once a turn, and no unit gains men.
    let most_crossed = scene
        .units()
        .iter()
        .map(|u| u64::from(u.men))
        .sum::<u64>()
        .saturating_mul(u64::from(max_turn));
    if let Some((idx, n)) = world.zones.iter().enumerate().find_map(|(idx, z)| {
        z.passage
            .crossed
            .iter()
            .find(|&&n| u64::from(n) > most_crossed)
            .map(|&n| (idx, n))
    }) {
        return Err(format!(
            "it says {n} men crossed at `{}`, more than the battle's men could in its turns ({most_crossed})",
            scene.zones()[idx].id
        ));
    }
    for rumor in &world.rumors.active {
        if rumor.about >= n_sides
            || rumor.reached.len() != n_zones
            || rumor.believers.iter().any(|&u| u >= n_units)
        {
            return Err("a rumor names sides, zones or units the battle does not have".into());
        }
    }
    let vision = &world.vision;
    if vision.blind.len() != n_zones
        || vision.sees.len() != n_sides
        || vision.sees.iter().any(|z| z.len() != n_zones)
    {
        return Err("its sight lines do not match the battle's zones".into());
    }
    for (tp, option) in &story.chosen {
        let known = scene
            .turning_point(tp)
            .is_some_and(|t| t.options.iter().any(|o| &o.id == option));
        if !known {
            return Err(format!(
                "it records the choice `{tp}`/`{option}`, which the battle does not have"
            ));
        }
    }
    if let Some(tp) = &story.pending
        && scene.turning_point(tp).is_none()
    {
        return Err(format!(
            "it waits on a turning point `{tp}` that does not exist"
        ));
    }
    if let Some(ending) = &story.ended
        && scene.ending(ending).is_none()
    {
        return Err(format!(
            "it ended with `{ending}`, which the battle does not have"
        ));
    }
    Ok(())
}

/// What replaying a save's command log found.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayReport {
    /// Commands that ran.
    pub ran: usize,
    /// The command (index) that could not run, with why.
    pub failed: Option<(usize, String)>,
    /// The first command before which the state differs from the saved
    /// game's, with the turn it was: (command index, turn).
    pub diverged_at: Option<(usize, u32)>,
    /// The final state equals the saved one.
    pub same_end: bool,
    /// The first difference in the final state, when there is one.
    pub end_difference: Option<String>,
}

impl ReplayReport {
    /// The log reproduces the saved game exactly.
    pub fn reproduces(&self) -> bool {
        self.failed.is_none() && self.diverged_at.is_none() && self.same_end
    }

    pub fn describe(&self) -> String {
        let end = self
            .end_difference
            .as_deref()
            .map(|d| format!(" At the end, {d}."))
            .unwrap_or_default();
        match (&self.failed, self.diverged_at) {
            (Some((n, why)), _) => format!(
                "command {} could not run there ({why}); the game stops before it.",
                n + 1
            ),
            (None, Some((n, turn))) => format!(
                "the replay parts from the saved game at turn {turn} (before command {}).{end}",
                n + 1
            ),
            (None, None) if self.same_end => {
                "the replay reaches the saved state exactly.".to_string()
            }
            (None, None) => format!("the final state differs from the saved one.{end}"),
        }
    }
}

/// Re-runs a save's commands from its seed on `game` (fresh, with the save's
/// policies), comparing the state before each command with the save's
/// fingerprints, and the end with its saved state.
pub fn replay(game: &mut Game, file: &SaveFile) -> ReplayReport {
    let mut report = ReplayReport {
        ran: 0,
        failed: None,
        diverged_at: None,
        same_end: false,
        end_difference: None,
    };
    let mut checkpoints = file.checkpoints.iter().peekable();
    for (i, command) in file.log.iter().enumerate() {
        while checkpoints.next_if(|(at, _)| *at < i).is_some() {}
        if let Some((_, saved)) = checkpoints.next_if(|(at, _)| *at == i)
            && report.diverged_at.is_none()
            && fingerprint(&game.snapshot()) != *saved
        {
            report.diverged_at = Some((i, game.turn()));
        }
        if let Err(err) = game.run(&command.into()) {
            report.failed = Some((i, err.to_string()));
            return report;
        }
        report.ran += 1;
    }
    match SavedState::of(&game.snapshot()) {
        Ok(end) => {
            report.same_end = if file.format < 2 {
                // Format 1 kept the zh-Hant made from zh-Hans in the texts
                // it told; this engine makes it when read.
                without_made_hant(&end).text() == without_made_hant(&file.state).text()
            } else {
                end.text() == file.state.text()
            };
            if !report.same_end {
                report.end_difference = Some(first_difference(game.scene(), &file.state, &end));
            }
        }
        Err(why) => report.end_difference = Some(why),
    }
    report
}

/// The state with every told text's zh-Hant left out where it has zh-Hans
/// (which format 1 stored converted, and this engine converts when read).
fn without_made_hant(state: &SavedState) -> SavedState {
    let mut state = state.clone();
    let strip = |text: &mut SavedText| {
        if let SavedText::Localized(map) = text
            && map.contains_key("zh-Hans")
        {
            map.remove("zh-Hant");
        }
    };
    for (_, told) in &mut state.story.journal {
        strip(&mut told.text);
        for (_, arg) in &mut told.args {
            if let SavedArg::Name(text) = arg {
                strip(text);
            }
        }
    }
    state
}

/// Names the first thing that differs between a saved and a replayed state.
pub fn first_difference(scene: &Scene, saved: &SavedState, replayed: &SavedState) -> String {
    let text = |v: &dyn erased::Ron| v.ron();
    let (a, b) = (&saved.world, &replayed.world);
    let differ = |what: String, x: String, y: String| {
        format!("{what} is {x} in the save but {y} in the replay")
    };
    if a.turn != b.turn {
        return differ("the turn".into(), a.turn.to_string(), b.turn.to_string());
    }
    for (idx, (x, y)) in a.units.iter().zip(&b.units).enumerate() {
        let name = scene
            .units()
            .get(idx)
            .map(|u| u.id.clone())
            .unwrap_or_else(|| format!("#{idx}"));
        if x.men != y.men {
            return differ(
                format!("unit `{name}`'s strength"),
                x.men.to_string(),
                y.men.to_string(),
            );
        }
        for (part, xs, ys) in [
            ("morale", text(&x.morale), text(&y.morale)),
            ("place", text(&x.location), text(&y.location)),
            ("orders", text(&x.orders), text(&y.orders)),
            (
                "losses this turn",
                x.lost_this_turn.to_string(),
                y.lost_this_turn.to_string(),
            ),
        ] {
            if xs != ys {
                return differ(format!("unit `{name}`'s {part}"), xs, ys);
            }
        }
    }
    let parts: [(&str, String, String); 11] = [
        (
            "the number of units",
            a.units.len().to_string(),
            b.units.len().to_string(),
        ),
        ("the weather", text(&a.weather), text(&b.weather)),
        ("the battle's random stream", text(&a.rng), text(&b.rng)),
        ("the commanders", text(&a.commanders), text(&b.commanders)),
        ("the zones", text(&a.zones), text(&b.zones)),
        ("the rumors", text(&a.rumors), text(&b.rumors)),
        ("what each side sees", text(&a.vision), text(&b.vision)),
        (
            "the wet-cloth orders",
            text(&a.wet_cloth),
            text(&b.wet_cloth),
        ),
        (
            "the choices made",
            text(&saved.story.chosen),
            text(&replayed.story.chosen),
        ),
        (
            "the rest of the story (events, flags, pending choice, ending)",
            text(&saved.story),
            text(&replayed.story),
        ),
        (
            "the policy's random stream",
            text(&saved.policy_rng),
            text(&replayed.policy_rng),
        ),
    ];
    for (what, x, y) in parts {
        if x != y {
            return differ(what.to_string(), x, y);
        }
    }
    "the states differ".to_string()
}

/// RON text of any serializable value, for messages.
mod erased {
    pub trait Ron {
        fn ron(&self) -> String;
    }
    impl<T: serde::Serialize> Ron for T {
        fn ron(&self) -> String {
            ron::to_string(self).unwrap_or_default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_positions_round_trip() {
        use rand::Rng;
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..13 {
            let _ = rng.next_u32();
        }
        let position = RngPosition::of(&rng).expect("position");
        let mut back = position.to_rng().expect("rng");
        assert_eq!(back.next_u64(), rng.next_u64());
        let bad = RngPosition {
            key: "zz".into(),
            ..position
        };
        assert!(bad.to_rng().is_err());
    }
}
