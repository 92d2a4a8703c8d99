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
mod bounds;
mod damage;
pub mod hash;
pub mod journal;
mod load;
mod lock;
pub mod print;
pub mod ron_text;
mod slots;
pub mod types;

pub use autosave::{Autosaver, CHECKPOINT_EVERY, Outcome, SYNC_EVERY, Transcript};
pub use bounds::*;
pub use damage::{At, Damage, Flaw, JournalError, JournalFault, Part};
pub use journal::JournalRef;
pub use load::*;
pub use lock::{FolderLock, LOCK_FILE, LockError};
pub use slots::{
    Others, SlotInfo, SlotProblem, SlotSummary, check_slot, list, others_of_game, reached,
    readable_slots, short_reason, slot_names, slot_path, timestamp,
};
pub use types::*;

use crate::scene::Scene;
use crate::sim::WorldState;
use crate::sim::morale::{MAX_LAST, MAX_NOTED};
use crate::sim::movement::UnitOrder;
use crate::sim::rng::BattleRng;
use crate::story::{Game, Snapshot};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The save format this engine writes. Format 4 added the journal: an
/// autosave between turns may keep its commands and transcript in the
/// game's journal ([`journal`]) instead of in the file. Format 6 writes the
/// story's journal by the scene's ids ([`SavedTelling`]) where 4 and 5
/// wrote each text told in every language. Format 8 holds fingerprints by
/// ids ([`SaveFile::prints`], [`fingerprint_by_ids`]) where 2 to 7 held
/// them by texts ([`SaveFile::checkpoints`]).
pub const FORMAT: u32 = 8;
/// The format of an autosave between turns that names a journal whose
/// records past its own point are the turns played since (this engine
/// writes it on the autosave writer's thread, and reads on through those
/// turns when it loads one; see [`journal`]). A format-8 (or -6) autosave
/// stops at its own point. Otherwise the same as [`FORMAT`]; an older engine says
/// it is too new rather than mistaking the journal's new records. Format 5
/// is the same with the story's journal in texts (as format 4's), and
/// format 7 with its fingerprints by texts (as format 6's):
/// [`reads_on`] says which formats read on.
pub const FOLLOW_FORMAT: u32 = 9;
/// Whether an autosave of `format` that names a journal reads on through
/// the turns it holds past the save's own point: formats 5 (the story's
/// journal in texts), 7 (by ids) and 9 (fingerprints by ids too), each
/// one past the format of a save that stops at its point.
pub fn reads_on(format: u32) -> bool {
    format >= 5 && format % 2 == 1
}
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
    /// (command index, fingerprint of the state just before that command),
    /// by [`fingerprint`]: what formats 2 to 7 hold (format 1's are set
    /// aside when read). This engine writes `prints` instead, and these
    /// empty.
    pub checkpoints: Vec<(usize, u64)>,
    /// (command index, fingerprint by ids of the state just before that
    /// command, [`fingerprint_by_ids`]): what this engine writes (format 8
    /// on). Written only when there are any, after `checkpoints`. Loading
    /// checks a state against either kind a save (or its journal) holds
    /// for it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prints: Vec<(usize, u64)>,
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
    /// Set when read: the turns played after this autosave (format 5), from
    /// its journal, which loading goes on to. Not part of the file.
    #[serde(skip)]
    pub later: Option<Later>,
}

/// The game as the turns after an autosave left it (format 5): its whole
/// log, the fingerprints the journal holds, and its transcript.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Later {
    pub log: Vec<SavedCommand>,
    pub checkpoints: Vec<(usize, u64)>,
    /// Fingerprints by ids (see [`SaveFile::prints`]).
    pub prints: Vec<(usize, u64)>,
    pub transcript: String,
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

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SaveError {
    #[error(
        "`{0}` is not a valid slot name: {1}. Use letters, digits, - and _ (at most {MAX_SLOT_CHARS})"
    )]
    BadSlot(String, SlotProblem),
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
    Damaged(String, Damage),
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

/// Whether a save's (or journal head's) `hash` of the rules is of `scene`'s
/// rules as they are: by [`rules_hash`], or by the hash of their text that
/// saves and journals held before it.
pub fn rules_match(scene: &Scene, hash: u64) -> bool {
    scene.rules_hash() == hash || scene.rules_text_hash() == hash
}

/// `bytes` in lower-case hex, two digits a byte (as `{:02x}` writes each).
fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(2 * bytes.len());
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0xf)]));
    }
    out
}

impl RngPosition {
    pub fn of(rng: &ChaCha8Rng) -> Result<RngPosition, String> {
        let word_pos = u64::try_from(rng.get_word_pos())
            .map_err(|_| "a random stream is past 2^64 draws".to_string())?;
        Ok(RngPosition {
            key: hex(&rng.get_seed()),
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
    /// The state as this engine saves it (its story's journal by ids).
    pub fn of(snapshot: &Snapshot, scene: &Scene) -> Result<SavedState, String> {
        SavedState::of_form(snapshot, scene, JournalForm::Ids)
    }

    /// The state with its story's journal in `form`: as a save of that
    /// form holds it ([`JournalForm::Texts`] is also what a fingerprint
    /// hashes).
    pub fn of_form(
        snapshot: &Snapshot,
        scene: &Scene,
        form: JournalForm,
    ) -> Result<SavedState, String> {
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
        } = &*snapshot.world;
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
            story: SavedStory::of_form(&snapshot.story, scene, form),
            policy_rng: RngPosition::of(&snapshot.policy_rng.0)?,
        })
    }

    pub fn to_snapshot(&self, log_len: usize, scene: &Scene) -> Result<Snapshot, String> {
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
            world: Arc::new(WorldState {
                turn: *turn,
                weather: weather.into(),
                rng: BattleRng::new(rng.to_rng()?),
                units: units.iter().map(Into::into).collect(),
                commanders: commanders.iter().map(Into::into).collect(),
                zones: zones.iter().map(Into::into).collect(),
                rumors: rumors.into(),
                vision: vision.into(),
                wet_cloth: wet_cloth.clone(),
            }),
            story: self.story.to_story(scene)?,
            policy_rng: BattleRng::new(self.policy_rng.to_rng()?),
            log_len,
            // Not in the file: rebuilt from the world when restored.
            picture: Arc::default(),
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

    /// The state's hash. A save's checkpoints hold the hash of the state
    /// with its journal in texts ([`JournalForm::Texts`], as formats 1 to 5
    /// saved it, so their fingerprints still check): [`fingerprint`] of the
    /// game's snapshot, which is this of `SavedState::of_form(.., Texts)`.
    pub fn fingerprint(&self) -> u64 {
        hash::fingerprint(self)
    }

    /// The state's hash by ids, as a save's `prints` hold it (format 8
    /// on): [`hash::by_words`] of the state as saved (its journal by ids);
    /// [`fingerprint_by_ids`] of the game's snapshot is this of
    /// `SavedState::of(..)`.
    pub fn fingerprint_by_ids(&self) -> u64 {
        hash::by_words(self)
    }
}

/// The fingerprint of a game state, as a save's checkpoints (formats 2
/// to 7) hold it. Walked in place ([`mod@print`]): the same number as
/// converting the state and hashing that, without the conversion.
pub fn fingerprint(snapshot: &Snapshot, scene: &Scene) -> u64 {
    print::state(snapshot, scene)
}

/// The fingerprint by ids of a game state, as a save's `prints` (format 8
/// on) and a journal's `g` records hold it: what this engine writes. Its
/// story's journal is hashed by the scene's ids rather than by the texts
/// told in every language, and the rest a number a step: some 4 times
/// less work than [`fingerprint`], and no more as the story grows.
pub fn fingerprint_by_ids(snapshot: &Snapshot, scene: &Scene) -> u64 {
    print::state_by_ids(snapshot, scene)
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
    let state = SavedState::of(&game.snapshot(), game.scene())?;
    let prints = game
        .undo_history()
        .iter()
        .map(|s| (s.log_len, fingerprint_by_ids(s, game.scene())))
        .collect();
    let log: Vec<SavedCommand> = (game.log().iter())
        .map(|c| SavedCommand::of(c, game.scene()))
        .collect();
    Ok(file_of(
        &Header::of(game, now()),
        state,
        &log,
        prints,
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
    log: &[SavedCommand],
    prints: Vec<(usize, u64)>,
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
        log: log.to_vec(),
        checkpoints: Vec::new(),
        prints,
        transcript: bounded_transcript(transcript, MAX_TRANSCRIPT_BYTES),
        show_sources: header.show_sources,
        game: header.game.clone(),
        journal: None,
        damaged: false,
        later: None,
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
    to_text_spliced(file, None).map(|made| made.text)
}

/// A save's text as [`to_text_spliced`] makes it.
#[derive(Debug)]
pub struct SaveText {
    /// The save's text, sealed.
    pub text: String,
    /// Where its `state`'s text is in it (when its own writer wrote it).
    pub state_at: Option<std::ops::Range<usize>>,
    /// The state's text it was given, handed back.
    pub state_text: Option<String>,
}

/// [`to_text`], its `state` written as `state_text` when given: the text
/// of the `state` of a save whose state was equal (as the range returned
/// says where it is in its text), handed back as given. The save writer
/// keeps the last one, so a save of the state it last wrote (the resume
/// point after the checkpoint of the same turn, or after the idle second
/// wrote the turn's slot) does not write the world again. The same bytes
/// as [`to_text`] when the states are equal; a test holds it to that.
pub fn to_text_spliced(file: &SaveFile, state_text: Option<String>) -> Result<SaveText, String> {
    // Pretty at the top so a person can read the header; the bulky state on few lines.
    // The same bytes as `ron` writes (see [`ron_text`]), for a fraction of
    // its work; `ron` itself for what that writer leaves to it.
    // Made as long as the last save's text at once (with room for its
    // checksum line), rather than doubled to it from 4 KB.
    static LAST: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(4096);
    let room = LAST.load(std::sync::atomic::Ordering::Relaxed);
    let buffer = String::with_capacity(room.min(MAX_SAVE_BYTES as usize));
    let splice = ron_text::Splice {
        name: "SavedState",
        text: state_text,
    };
    let (mut text, state_at, back) =
        match ron_text::to_string_spliced(file, SAVE_DEPTH, buffer, splice) {
            Ok((text, at, splice)) => (text, at, splice.text),
            Err(_) => (to_text_by_ron(file)?, None, None),
        };
    seal(&mut text);
    LAST.store(text.len() + 128, std::sync::atomic::Ordering::Relaxed);
    Ok(SaveText {
        text,
        state_at,
        state_text: back,
    })
}

/// How deep a save's RON is laid out a field a line.
const SAVE_DEPTH: usize = 2;

/// A save's RON as `ron` itself writes it, unsealed: what [`to_text`]'s
/// own writer is held to, byte for byte (the tests), and its fallback.
pub fn to_text_by_ron(file: &SaveFile) -> Result<String, String> {
    let config = ron::ser::PrettyConfig::default()
        .depth_limit(SAVE_DEPTH)
        .escape_strings(false);
    ron::ser::to_string_pretty(file, config).map_err(|err| err.to_string())
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
    write_checked(dir, &path, &file, &text, game.scene(), true)?;
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
/// of autosaves, and no journal (a game its journal alone stands for, see
/// [`journal_only`], has no slot yet), so the new game writes over none of
/// an older one's.
pub fn unused_name(dir: &Path, base: &str) -> String {
    let slots = slot_names(dir);
    let taken = |name: &str| {
        slots.iter().any(|slot| own_slot(name, slot))
            || std::fs::symlink_metadata(dir.join(journal::journal_file(name))).is_ok()
    };
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
/// For text made elsewhere: the saves this engine makes take
/// `write_checked`'s way, the same checks without the parse.
pub fn write_verified(
    dir: &Path,
    path: &Path,
    bytes: &[u8],
    scene: &Scene,
) -> Result<(), SaveError> {
    use crate::files::WriteError;
    make_folder(dir)?;
    let shown = path.display().to_string();
    crate::files::write_atomic_checked(dir, path, bytes, &|temp| verify(temp, scene)).map_err(
        |err| match err {
            WriteError::Io(err) => SaveError::Write(shown.clone(), err.to_string()),
            WriteError::Refused(why) => SaveError::Refused(shown.clone(), why),
        },
    )
}

/// The saves' folder, made if missing.
fn make_folder(dir: &Path) -> Result<(), SaveError> {
    std::fs::create_dir_all(dir)
        .map_err(|err| SaveError::Folder(dir.display().to_string(), err.to_string()))
}

/// What loading the save at `path` in `scene` would refuse before its replay:
/// the file's size, text and shape, every bound ([`check_bounds`]) and its
/// fit to the battle ([`check_fits`]). Cheap beside a load: no replay.
pub fn verify(path: &Path, scene: &Scene) -> Result<(), String> {
    let file = read_file(path, Journal::Look).map_err(|err| match err {
        SaveError::Damaged(_, why) => why.to_string(),
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

/// [`write_verified`] for a save made here, whose parts are at hand: the
/// loader's checks ([`check_bounds`], [`check_fits`], the journal it names
/// there and long enough) run on `file` itself, and the temp file is read
/// back and must hold `text` byte for byte, instead of being parsed again.
/// Every save this engine makes takes this way (autosaves, `save`, the
/// resume point): parsing back each one's text was two thirds of the
/// writer's work, and what it could find beyond these checks is a text the
/// parser reads otherwise than the serialiser wrote it, the same for every
/// save and proved by the round-trip tests (whole saves of every battle
/// and role, their log, fingerprints and transcript, and strings of every
/// kind) and the save fuzzer. The size cap, the text's being UTF-8 and its
/// checksum are the bytes read back. Unless `sync`, the file and its
/// folder are left for the writer to sync
/// ([`crate::files::write_atomic_checked_synced`]).
pub(crate) fn write_checked(
    dir: &Path,
    path: &Path,
    file: &SaveFile,
    text: &str,
    scene: &Scene,
    sync: bool,
) -> Result<(), SaveError> {
    use crate::files::WriteError;
    make_folder(dir)?;
    let shown = path.display().to_string();
    let refused = |why: String| SaveError::Refused(shown.clone(), why);
    check_made(file, scene).map_err(refused)?;
    let check = |temp: &Path| -> Result<(), String> {
        let back = crate::files::read_capped(temp, MAX_SAVE_BYTES)
            .map_err(|err| format!("it could not be read back: {err}"))?;
        if back != text.as_bytes() {
            return Err("it did not read back as it was written".to_string());
        }
        if let Some(named) = &file.journal {
            let folder = temp.parent().unwrap_or(Path::new("."));
            journal::looks_whole(folder, named)?;
        }
        Ok(())
    };
    let bytes = text.as_bytes();
    crate::files::write_atomic_checked_synced(dir, path, bytes, &check, sync).map_err(|err| {
        match err {
            WriteError::Io(err) => SaveError::Write(shown.clone(), err.to_string()),
            WriteError::Refused(why) => refused(why),
        }
    })
}

/// What [`verify`] would refuse in a save made in memory, before its text
/// is written: the same checks, on the same values.
fn check_made(file: &SaveFile, scene: &Scene) -> Result<(), String> {
    if file.scene != scene.id() {
        return Err(format!(
            "it names the battle `{}`, not `{}`",
            file.scene,
            scene.id()
        ));
    }
    check_bounds(file)?;
    check_fits(scene, file)
}

/// Temp file in the same folder, fsync, rename, fsync the folder.
pub fn write_atomic(dir: &Path, path: &Path, bytes: &[u8]) -> Result<(), SaveError> {
    make_folder(dir)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_is_what_format_writes() {
        let bytes: Vec<u8> = (0..=255).collect();
        let by_format: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex(&bytes), by_format);
    }

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
