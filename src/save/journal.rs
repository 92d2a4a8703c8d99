//! A game's journal: its commands and transcript, appended as they come, so
//! that an autosave writes only the state and where the journal stood.
//!
//! An autosave made at command 20,000 would otherwise write (and read back)
//! the whole log and transcript each time; with the journal it appends the
//! few records since the last one and writes a slot of the same size as at
//! turn 5. The slot names the journal, how many bytes of it are the game's
//! (`bytes`), the FNV-1a of those bytes (`sum`, kept as the file grows) and
//! how many commands they give (`commands`).
//!
//! The file (`NAME.journal`, beside the game's slots) is a line of header,
//! then records, each `KIND LEN SUM` on a line, `LEN` bytes of payload and a
//! line break. Kinds: `c` a command (its RON), `k` the log cut back to the
//! first N commands (an undo, or a game started again under the name), `f`
//! the fingerprint of the state before command N (`N HEX`; `g` the same by
//! ids, [`super::fingerprint_by_ids`], what this engine writes: a journal
//! an older engine began may hold both, `f` for its turns), `t` text added
//! to the transcript, `r` the transcript started afresh, `s` a checkpoint
//! (a slot that names the journal) was written for the turn whose records
//! start at byte N, `h` the journal's head (below). Records
//! are only ever appended: what a slot names is never rewritten, so every
//! autosave stays loadable while the game goes on, and a game that goes on
//! from an older autosave appends `k` and `r` records and its own commands
//! after the rest. A record cut short by a kill has no line break, or a sum
//! that does not hold; it is past what any slot names (a slot is written
//! only after its records are synced), and the next session cuts it off.
//!
//! Between checkpoints (save format 5) the writer appends a turn's records
//! and writes no slot: the newest slot of the game names the journal as it
//! stood at its own turn, and the records after that are the turns played
//! since. Loading such a slot reads on past its point ([`read_following`]),
//! through every whole record, up to the turn of the next checkpoint (the
//! first `s` record naming a start at or after the slot's point) or to the
//! first record cut short, so a kill between checkpoints loses no turn
//! whose records were written, and an older slot still stops where the
//! next one takes over. The `s` record goes in after its slot is written:
//! a kill between the two leaves the older slot reading on to the end.
//!
//! A journal made for a new game (header `xiaoling journal 2`) starts with
//! a head record (`h`, its [`Head`]: battle and its hashes, role, seed,
//! policies, the game's name), and its records hold every command from the
//! game's start: the journal alone is the game, as a slot at its start that
//! names it would be. The writer writes no slot at the new game's first
//! autosave (see `autosave.rs`); until its first checkpoint the game is
//! listed, found and loaded through its journal ([`read_game`]), read
//! through every whole record to the last. A journal of header
//! `xiaoling journal 1` has no head and is read as before.

use super::SavedCommand;
use super::damage::{JournalError, JournalFault};
use super::hash::Fnv;
use crate::stdx::decimal;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first line of a journal without a head.
const HEADER: &str = "xiaoling journal 1\n";
/// The first line of a journal whose first record is its [`Head`].
const HEADER_2: &str = "xiaoling journal 2\n";
/// A head record longer than this is refused unread (a real one is some
/// 300 bytes).
const MAX_HEAD_BYTES: usize = 16 * 1024;

/// What a journal's head holds: what a slot's header holds to rebuild the
/// game from its start (a fresh game of the battle, role, seed and
/// policies, as replay makes), and the game's name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Head {
    /// The engine that began the journal.
    pub engine: String,
    pub scene: String,
    /// FNV-1a of the scene file's text, as a save's `scene_hash`.
    pub scene_hash: u64,
    /// As a save's `rules_hash`.
    pub rules_hash: u64,
    pub role: String,
    pub seed: u64,
    pub policies: super::SavedPolicies,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub show_sources: bool,
    /// The game's name in its folder (the journal's is `NAME.journal`).
    pub game: String,
    /// Seconds since the Unix epoch when the journal was begun.
    pub started_at: u64,
}

impl Head {
    /// The head of the game a save's header describes.
    pub(crate) fn of(header: &super::Header) -> Head {
        let scene = &header.scene;
        Head {
            engine: env!("CARGO_PKG_VERSION").to_string(),
            scene: scene.id().to_string(),
            scene_hash: scene.content_hash,
            rules_hash: super::rules_hash(scene),
            role: header.role.clone(),
            seed: header.seed,
            policies: header.policies,
            show_sources: header.show_sources,
            game: header.game.clone(),
            started_at: header.saved_at,
        }
    }
}

/// The file name of a game's journal.
pub fn journal_file(game: &str) -> String {
    format!("{game}.journal")
}

/// Where an autosave's commands and transcript are kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JournalRef {
    /// The journal's file name, in the save's folder.
    pub file: String,
    /// How many bytes from its start are this save's.
    pub bytes: u64,
    /// FNV-1a of those bytes.
    pub sum: u64,
    /// The commands they give.
    pub commands: usize,
}

/// One record.
#[derive(Debug, Clone, PartialEq)]
enum Record {
    Command(SavedCommand),
    Keep(usize),
    Print(usize, u64),
    /// A fingerprint by ids.
    PrintById(usize, u64),
    Said(String),
    Restart,
    /// A checkpoint was written for the turn whose records start here.
    Mark(u64),
    /// The journal's head: its first record, and only there.
    Head(Box<Head>),
}

impl Record {
    fn kind(&self) -> char {
        match self {
            Record::Command(_) => 'c',
            Record::Keep(_) => 'k',
            Record::Print(..) => 'f',
            Record::PrintById(..) => 'g',
            Record::Said(_) => 't',
            Record::Restart => 'r',
            Record::Mark(_) => 's',
            Record::Head(_) => 'h',
        }
    }

    /// The record's bytes: `KIND LEN SUM\nPAYLOAD\n`.
    fn encode(&self, out: &mut Vec<u8>) -> Result<(), String> {
        let kind = self.kind();
        match self {
            Record::Command(command) => encode_command(command, out),
            Record::Keep(n) => put_number(kind, *n as u64, out),
            Record::Print(k, print) | Record::PrintById(k, print) => {
                let mut digits = [0_u8; 20];
                let at = decimal(*k as u64, &mut digits);
                let len = digits.len() - at;
                let mut payload = [0_u8; 20 + 1 + 16];
                payload[..len].copy_from_slice(&digits[at..]);
                payload[len] = b' ';
                hex16(*print, &mut payload[len + 1..len + 17]);
                put(kind, &payload[..len + 17], out);
                Ok(())
            }
            Record::Said(text) => {
                put(kind, text.as_bytes(), out);
                Ok(())
            }
            Record::Restart => {
                put(kind, b"", out);
                Ok(())
            }
            Record::Mark(at) => put_number(kind, *at, out),
            Record::Head(head) => {
                let text = ron::to_string(head).map_err(|err| err.to_string())?;
                put(kind, text.as_bytes(), out);
                Ok(())
            }
        }
    }
}

/// A record of `kind` holding `payload`, appended to `out` as
/// [`Record::encode`] writes it, without copying the payload first.
fn put(kind: char, payload: &[u8], out: &mut Vec<u8>) {
    let mut sum = Fnv::default();
    sum.bytes(payload);
    let mut head = [0_u8; 1 + 1 + 20 + 1 + 16 + 1];
    head[0] = kind as u8;
    head[1] = b' ';
    let mut digits = [0_u8; 20];
    let at = decimal(payload.len() as u64, &mut digits);
    let len = digits.len() - at;
    head[2..2 + len].copy_from_slice(&digits[at..]);
    head[2 + len] = b' ';
    hex16(sum.0, &mut head[3 + len..19 + len]);
    head[19 + len] = b'\n';
    out.reserve(20 + len + payload.len() + 1);
    out.extend_from_slice(&head[..20 + len]);
    out.extend_from_slice(payload);
    out.push(b'\n');
}

/// A record whose payload is `n` in decimal.
fn put_number(kind: char, n: u64, out: &mut Vec<u8>) -> Result<(), String> {
    let mut digits = [0_u8; 20];
    let at = decimal(n, &mut digits);
    put(kind, &digits[at..], out);
    Ok(())
}

/// A command's record: its RON as `ron::to_string` writes it. The usual
/// ones (`Next`, a choice by plain ids) are written here, the same bytes
/// for none of `ron`'s work; the rest by `ron`.
fn encode_command(command: &SavedCommand, out: &mut Vec<u8>) -> Result<(), String> {
    // Written by `ron` as they are: printable ASCII but `"` and `\`.
    let plain = |s: &str| {
        s.bytes()
            .all(|b| b.is_ascii_graphic() && b != b'"' && b != b'\\')
    };
    match command {
        SavedCommand::Next => put('c', b"Next", out),
        SavedCommand::Choose { tp, option } if plain(tp) && plain(option) => {
            let mut text = Vec::with_capacity(tp.len() + option.len() + 24);
            text.extend_from_slice(b"Choose(tp:\"");
            text.extend_from_slice(tp.as_bytes());
            text.extend_from_slice(b"\",option:\"");
            text.extend_from_slice(option.as_bytes());
            text.extend_from_slice(b"\")");
            put('c', &text, out);
        }
        other => {
            let text = ron::to_string(other).map_err(|err| err.to_string())?;
            put('c', text.as_bytes(), out);
        }
    }
    Ok(())
}

/// `n` as 16 lower-case hex digits (as `{:016x}` writes it) into `out`.
fn hex16(n: u64, out: &mut [u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for (i, slot) in out.iter_mut().take(16).enumerate() {
        *slot = DIGITS[((n >> (60 - 4 * i)) & 0xf) as usize];
    }
}

/// The next whole record of `bytes` from `at`, and where the one after it
/// starts; None at the end or at a record cut short or damaged.
fn next_record(bytes: &[u8], at: usize) -> Option<Result<(Record, usize), String>> {
    let rest = bytes.get(at..)?;
    if rest.is_empty() {
        return None;
    }
    let line_end = rest.iter().position(|&b| b == b'\n')?;
    let line = std::str::from_utf8(&rest[..line_end]).ok()?;
    let mut parts = line.split(' ');
    let (Some(kind), Some(len), Some(sum), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Some(Err(format!("a record at byte {at} is not one")));
    };
    let len: usize = len.parse().ok()?;
    let start = line_end + 1;
    let end = start.checked_add(len)?;
    if rest.get(end) != Some(&b'\n') {
        return None;
    }
    let payload = &rest[start..end];
    let mut hash = Fnv::default();
    hash.bytes(payload);
    if u64::from_str_radix(sum, 16).ok()? != hash.0 {
        return None;
    }
    let text = std::str::from_utf8(payload).ok()?;
    let bad = |why: &str| Some(Err(format!("a record at byte {at} {why}")));
    let record = match kind {
        "c" => match ron::from_str::<SavedCommand>(text) {
            Ok(command) => Record::Command(command),
            Err(_) => return bad("is not a command"),
        },
        "k" => match text.parse() {
            Ok(n) => Record::Keep(n),
            Err(_) => return bad("is not a count"),
        },
        "f" | "g" => match text
            .split_once(' ')
            .and_then(|(k, p)| Some((k.parse().ok()?, u64::from_str_radix(p, 16).ok()?)))
        {
            Some((k, print)) if kind == "f" => Record::Print(k, print),
            Some((k, print)) => Record::PrintById(k, print),
            None => return bad("is not a fingerprint"),
        },
        "t" => Record::Said(text.to_string()),
        "r" => Record::Restart,
        "s" => match text.parse() {
            Ok(at) => Record::Mark(at),
            Err(_) => return bad("is not a place in the journal"),
        },
        "h" => match ron::from_str::<Head>(text) {
            Ok(head) => Record::Head(Box::new(head)),
            Err(_) => return bad("is not a journal's head"),
        },
        _ => return bad("is of no known kind"),
    };
    Some(Ok((record, at + end + 1)))
}

/// What the first bytes of a journal give: the log and the transcript.
#[derive(Debug, Default)]
pub struct Replayed {
    pub log: Vec<SavedCommand>,
    /// (command index, fingerprint of the state before it), in order.
    pub checkpoints: Vec<(usize, u64)>,
    /// The same by ids (`g` records), in order.
    pub prints: Vec<(usize, u64)>,
    pub transcript: String,
    /// Where the last whole record ends.
    pub end: usize,
    /// FNV-1a of the bytes up to `end`.
    pub sum: u64,
    /// The journal's head (header `xiaoling journal 2`).
    pub head: Option<Head>,
}

/// Where a journal's records start, past its header and head (if it has
/// one), and its head. Err when it does not start as a journal does, or
/// its head is cut short or damaged.
fn body_start(bytes: &[u8]) -> Result<(usize, Option<Head>), String> {
    if bytes.starts_with(HEADER.as_bytes()) {
        return Ok((HEADER.len(), None));
    }
    if !bytes.starts_with(HEADER_2.as_bytes()) {
        return Err("it does not start as a journal does".into());
    }
    let at = HEADER_2.len();
    // The head's length is looked at before its record is read.
    let len = (bytes.get(at..).unwrap_or_default())
        .split(|&b| b == b'\n')
        .next()
        .and_then(|line| std::str::from_utf8(line).ok())
        .and_then(|line| line.strip_prefix("h "))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|len| len.parse::<usize>().ok());
    match (len, next_record(bytes, at)) {
        (Some(len), _) if len > MAX_HEAD_BYTES => Err(format!(
            "its head record is longer than a head ({len} bytes)"
        )),
        (_, Some(Ok((Record::Head(head), after)))) => Ok((after, Some(*head))),
        (_, Some(Err(why))) => Err(format!("its head record is damaged: {why}")),
        _ => Err("its head record is cut short or damaged".into()),
    }
}

/// Reads the records of `bytes` (a whole journal, or the part a save names)
/// up to the first one cut short. Err when the header is not a journal's or
/// a whole record says nothing the journal can say.
fn replay(bytes: &[u8], keep_transcript: usize) -> Result<Replayed, String> {
    let (mut at, head) = body_start(bytes)?;
    let mut out = Replayed {
        head,
        ..Replayed::default()
    };
    let mut prints = std::collections::BTreeMap::new();
    let mut by_ids = std::collections::BTreeMap::new();
    while let Some(next) = next_record(bytes, at) {
        let (record, after) = next?;
        match record {
            Record::Head(_) => {
                return Err(format!("a head record at byte {at} is not at its start"));
            }
            Record::Command(command) => {
                if out.log.len() >= super::MAX_LOG {
                    return Err(format!(
                        "it holds more than {} commands in a row",
                        super::MAX_LOG
                    ));
                }
                out.log.push(command);
            }
            Record::Keep(n) => {
                out.log.truncate(n);
                // The state before command n follows from those kept.
                prints.retain(|&k, _| k <= n);
                by_ids.retain(|&k, _| k <= n);
            }
            Record::Print(k, print) => {
                if k <= out.log.len() && prints.len() <= super::MAX_LOG {
                    prints.insert(k, print);
                }
            }
            Record::PrintById(k, print) => {
                if k <= out.log.len() && by_ids.len() <= super::MAX_LOG {
                    by_ids.insert(k, print);
                }
            }
            Record::Said(text) => {
                out.transcript.push_str(&text);
                if out.transcript.len() > 2 * keep_transcript {
                    out.transcript = super::bounded_transcript(&out.transcript, keep_transcript);
                }
            }
            Record::Restart => out.transcript.clear(),
            Record::Mark(_) => {}
        }
        at = after;
    }
    out.checkpoints = prints
        .into_iter()
        .filter(|&(k, _)| k < out.log.len())
        .collect();
    out.prints = by_ids
        .into_iter()
        .filter(|&(k, _)| k < out.log.len())
        .collect();
    let mut hash = Fnv::default();
    hash.bytes(&bytes[..at]);
    out.end = at;
    out.sum = hash.0;
    Ok(out)
}

/// The log and transcript a save's journal reference names, from the
/// journal in `dir`; Err says why they cannot be had.
pub fn read_ref(dir: &Path, journal: &JournalRef) -> Result<Replayed, JournalError> {
    read_ref_bytes(dir, journal).map(|(replayed, _)| replayed)
}

/// [`read_ref`], and the journal's bytes as read.
fn read_ref_bytes(dir: &Path, journal: &JournalRef) -> Result<(Replayed, Vec<u8>), JournalError> {
    use JournalFault::*;
    if super::check_slot(journal.file.trim_end_matches(".journal")).is_err()
        || !journal.file.ends_with(".journal")
    {
        return Err(JournalError::new(
            Damaged,
            format!("its journal's name `{}` is not one", journal.file),
        ));
    }
    let path = dir.join(&journal.file);
    let cap = super::MAX_JOURNAL_BYTES;
    if journal.bytes > cap {
        return Err(JournalError::new(
            Mismatch,
            format!(
                "it names {} bytes of its journal, more than a journal holds",
                journal.bytes
            ),
        ));
    }
    let bytes = read_journal(&path, cap)?;
    let Some(prefix) = usize::try_from(journal.bytes)
        .ok()
        .and_then(|n| bytes.get(..n))
    else {
        return Err(JournalError::new(
            CutShort,
            format!(
                "its journal {} is shorter than the save says ({} bytes, not {})",
                path.display(),
                bytes.len(),
                journal.bytes
            ),
        ));
    };
    let mut hash = Fnv::default();
    hash.bytes(prefix);
    if hash.0 != journal.sum {
        return Err(JournalError::new(
            Mismatch,
            format!(
                "its journal {} does not hold what the save was made with (the checksum of its first {} bytes differs)",
                path.display(),
                journal.bytes
            ),
        ));
    }
    let replayed = replay(prefix, super::MAX_TRANSCRIPT_BYTES).map_err(|why| {
        JournalError::new(
            Damaged,
            format!("its journal {} is damaged: {why}", path.display()),
        )
    })?;
    if replayed.end != prefix.len() || replayed.log.len() != journal.commands {
        return Err(JournalError::new(
            Mismatch,
            format!(
                "its journal {} does not give the {} commands the save says",
                path.display(),
                journal.commands
            ),
        ));
    }
    Ok((replayed, bytes))
}

/// Where the turns that follow a save at `start` (its journal reference's
/// bytes) end in `bytes`: at the start of the next checkpoint's turn (the
/// first `s` record naming a start at or after `start`), or after the last
/// whole record, before one cut short or damaged.
fn following_end(bytes: &[u8], start: usize) -> usize {
    let mut at = start;
    while let Some(Ok((record, after))) = next_record(bytes, at) {
        if let Record::Mark(from) = record
            && let Ok(from) = usize::try_from(from)
            && from >= start
        {
            return from.min(at);
        }
        at = after;
    }
    at
}

/// [`read_ref`], and what the journal holds past the save's point: the log,
/// fingerprints and transcript of the turns played since, when there are
/// any (see the module's notes). The turns past the point are read as far
/// as they are whole: a tail cut short or damaged loses only what it cut.
pub fn read_following(
    dir: &Path,
    journal: &JournalRef,
) -> Result<(Replayed, Option<Replayed>), JournalError> {
    let (own, bytes) = read_ref_bytes(dir, journal)?;
    let start = own.end;
    let end = following_end(&bytes, start);
    if end <= start {
        return Ok((own, None));
    }
    let later = replay(&bytes[..end], super::MAX_TRANSCRIPT_BYTES).ok();
    // Records that change nothing (a checkpoint's own `s`) are no turn.
    let later = later.filter(|l| {
        l.log != own.log
            || l.transcript != own.transcript
            || l.checkpoints != own.checkpoints
            || l.prints != own.prints
    });
    Ok((own, later))
}

/// Whether the journal a save names is there and long enough (for the
/// `saves` table: a look, not a read).
pub fn looks_whole(dir: &Path, journal: &JournalRef) -> Result<(), JournalError> {
    use JournalFault::*;
    let path = dir.join(&journal.file);
    match std::fs::symlink_metadata(&path) {
        Ok(meta) if meta.is_file() && meta.len() >= journal.bytes => Ok(()),
        Ok(meta) if meta.is_file() => Err(JournalError::new(CutShort, "its journal is cut short")),
        Ok(_) => Err(JournalError::new(
            Damaged,
            "its journal is not a plain file",
        )),
        Err(_) => Err(JournalError::new(Missing, "its journal is missing")),
    }
}

/// A journal's bytes (at most `cap`), or why they cannot be had.
fn read_journal(path: &Path, cap: u64) -> Result<Vec<u8>, JournalError> {
    crate::files::read_capped(path, cap).map_err(|err| match err {
        crate::files::ReadError::Missing => JournalError::new(
            JournalFault::Missing,
            format!("its journal {} is missing", path.display()),
        ),
        other => JournalError::new(
            JournalFault::Unreadable,
            format!("its journal {} cannot be read: {other}", path.display()),
        ),
    })
}

/// Whether `game` in `dir` has a journal that begins with a head (header
/// `xiaoling journal 2`): a game the journal alone can rebuild. Its first
/// line is read, not the rest: a head cut short or damaged is told when
/// the head is read ([`read_head`], [`read_game`]).
pub fn has_head(dir: &Path, game: &str) -> bool {
    use std::io::Read;
    let path = dir.join(journal_file(game));
    if !std::fs::symlink_metadata(&path).is_ok_and(|meta| meta.is_file()) {
        return false;
    }
    let mut first = [0_u8; HEADER_2.len()];
    std::fs::File::open(&path)
        .and_then(|mut file| file.read_exact(&mut first))
        .is_ok_and(|()| first == *HEADER_2.as_bytes())
}

/// The games of `dir` whose journal begins with a head ([`has_head`]), by
/// name, in order.
pub fn headed_games(dir: &Path) -> Vec<String> {
    let mut names = super::slots::names_with(dir, "journal");
    names.retain(|name| has_head(dir, name));
    names
}

/// The head of the journal of `game` in `dir`, and when the journal was
/// last written (seconds since the Unix epoch): for the lists of games,
/// which read no further than the head.
pub fn read_head(dir: &Path, game: &str) -> Result<(Head, u64), JournalError> {
    use std::io::Read;
    let path = dir.join(journal_file(game));
    let mut bytes = Vec::new();
    let cap = (HEADER_2.len() + MAX_HEAD_BYTES + 64) as u64;
    let unreadable = |err: std::io::Error| {
        let fault = if err.kind() == std::io::ErrorKind::NotFound {
            JournalFault::Missing
        } else {
            JournalFault::Unreadable
        };
        JournalError::new(
            fault,
            format!("its journal {} cannot be read: {err}", path.display()),
        )
    };
    let file = std::fs::File::open(&path).map_err(unreadable)?;
    let written = (file.metadata().and_then(|meta| meta.modified()).ok())
        .and_then(|at| at.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |since| since.as_secs());
    file.take(cap).read_to_end(&mut bytes).map_err(unreadable)?;
    match body_start(&bytes).map_err(damaged)? {
        (_, Some(head)) => {
            check_head(&head, game).map_err(damaged)?;
            Ok((head, written))
        }
        (_, None) => Err(damaged("its journal has no head".into())),
    }
}

/// A journal's damage (its records or head), said `why`.
fn damaged(why: String) -> JournalError {
    JournalError::new(JournalFault::Damaged, why)
}

/// A head that names another game than its file's is refused.
fn check_head(head: &Head, game: &str) -> Result<(), String> {
    if head.game != game {
        return Err(format!(
            "its journal's head names the game `{}`, not `{game}`",
            head.game
        ));
    }
    Ok(())
}

/// A game from its journal alone: its head, and what every whole record
/// gives, through to the last (marks of checkpoints are passed over: no
/// slot of the game is read). Err says why the journal does not give one.
pub fn read_game(dir: &Path, game: &str) -> Result<(Head, Replayed), JournalError> {
    let path = dir.join(journal_file(game));
    let bytes = read_journal(&path, super::MAX_JOURNAL_BYTES)?;
    let mut replayed = replay(&bytes, super::MAX_TRANSCRIPT_BYTES).map_err(damaged)?;
    let Some(head) = replayed.head.take() else {
        return Err(damaged("its journal has no head".into()));
    };
    check_head(&head, game).map_err(damaged)?;
    Ok((head, replayed))
}

/// An open journal, appended to by the save writer.
pub struct Journal {
    dir: PathBuf,
    file: String,
    handle: std::fs::File,
    /// Bytes in the file, and their FNV-1a.
    len: u64,
    sum: Fnv,
    /// The log the records give, as far as the writer knows it: commands
    /// `0..log_len` are those of the writer's log.
    log_len: usize,
    /// Bytes of transcript the records hold since the last restart.
    said: u64,
    /// Records were written and not yet synced.
    unsynced: bool,
    /// Where the records of the last append that wrote any start.
    turn_start: u64,
    /// The log and transcript the file gave when it was opened, until the
    /// first append compares them with the writer's: a game played on in a
    /// new session does not write its commands again.
    opened: Option<Opened>,
    /// The file was made now, with a head: its records will hold the
    /// game from its start.
    new_with_head: bool,
    /// The last append's records, its memory kept for the next.
    scratch: Vec<u8>,
}

/// What a journal held when it was opened.
struct Opened {
    log: Vec<SavedCommand>,
    transcript: String,
    /// Fingerprints by ids, in order of command index.
    prints: Vec<(usize, u64)>,
}

impl Journal {
    /// Opens the journal of `game` in `dir` to append to: a whole journal
    /// is kept (a record cut short at its end is cut off), anything else at
    /// that name (a link, a foreign file) is replaced by a new journal. The
    /// log the records give is not trusted to be the game's: the writer
    /// starts it again (`k 0`, `r`) before its first save.
    pub fn open(dir: &Path, game: &str) -> std::io::Result<Journal> {
        Journal::open_synced(dir, game, true)
    }

    /// [`Journal::open`]; a new journal is synced only when `sync` says
    /// so (otherwise at the next [`Journal::sync`], with the records).
    pub fn open_synced(dir: &Path, game: &str, sync: bool) -> std::io::Result<Journal> {
        Journal::open_headed(dir, game, sync, None)
    }

    /// [`Journal::open_synced`]; a new journal begins with `head` when
    /// there is one (header `xiaoling journal 2`). For a game whose state
    /// is what its log gives from its start: the records the writer then
    /// appends hold every command from the first.
    pub fn open_headed(
        dir: &Path,
        game: &str,
        sync: bool,
        head: Option<&Head>,
    ) -> std::io::Result<Journal> {
        let file = journal_file(game);
        let path = dir.join(&file);
        let existing = match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.is_file() => {
                crate::files::read_capped(&path, super::MAX_JOURNAL_BYTES).ok()
            }
            Ok(meta) if meta.is_dir() => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    format!("{} is a folder", path.display()),
                ));
            }
            // A link is removed, never followed; its target is untouched.
            Ok(_) => {
                std::fs::remove_file(&path)?;
                None
            }
            Err(_) => None,
        };
        let kept = existing.as_deref().and_then(|bytes| {
            replay(bytes, usize::MAX / 4)
                .ok()
                .map(|r| (r, bytes.len() as u64))
        });
        match kept {
            Some((replayed, len)) => {
                let (end, sum) = (replayed.end as u64, replayed.sum);
                let handle = std::fs::OpenOptions::new().append(true).open(&path)?;
                if end < len {
                    handle.set_len(end)?;
                    handle.sync_all()?;
                }
                Ok(Journal {
                    dir: dir.to_path_buf(),
                    file,
                    handle,
                    len: end,
                    sum: Fnv(sum),
                    // The first append keeps what agrees with the
                    // writer's log and transcript, and cuts the rest.
                    log_len: replayed.log.len(),
                    said: replayed.transcript.len() as u64,
                    unsynced: false,
                    turn_start: end,
                    opened: Some(Opened {
                        log: replayed.log,
                        transcript: replayed.transcript,
                        prints: replayed.prints,
                    }),
                    new_with_head: false,
                    scratch: Vec::new(),
                })
            }
            None => {
                // Not a journal (or none): a new one, written whole first.
                let mut start = Vec::new();
                match head {
                    Some(head) => {
                        start.extend_from_slice(HEADER_2.as_bytes());
                        Record::Head(Box::new(head.clone()))
                            .encode(&mut start)
                            .map_err(std::io::Error::other)?;
                    }
                    None => start.extend_from_slice(HEADER.as_bytes()),
                }
                crate::files::write_atomic_checked_synced(dir, &path, &start, &|_| Ok(()), sync)
                    .map_err(|err| match err {
                        crate::files::WriteError::Io(err) => err,
                        crate::files::WriteError::Refused(why) => std::io::Error::other(why),
                    })?;
                let handle = std::fs::OpenOptions::new().append(true).open(&path)?;
                let mut sum = Fnv::default();
                sum.bytes(&start);
                Ok(Journal {
                    dir: dir.to_path_buf(),
                    file,
                    handle,
                    len: start.len() as u64,
                    sum,
                    log_len: 0,
                    said: 0,
                    unsynced: !sync,
                    turn_start: start.len() as u64,
                    opened: None,
                    new_with_head: head.is_some(),
                    scratch: Vec::new(),
                })
            }
        }
    }

    /// Whether this is the journal of `game` in `dir`, and the file at its
    /// name is still the one this appends to, as long as it was left (not
    /// removed, replaced or cut meanwhile, say with its folder).
    pub fn is_of(&self, dir: &Path, game: &str) -> bool {
        self.dir == dir && self.file == journal_file(game) && self.still_there()
    }

    fn still_there(&self) -> bool {
        let Ok(at_name) = std::fs::symlink_metadata(self.dir.join(&self.file)) else {
            return false;
        };
        if !at_name.is_file() || at_name.len() != self.len {
            return false;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            match self.handle.metadata() {
                Ok(open) => open.ino() == at_name.ino() && open.dev() == at_name.dev(),
                Err(_) => false,
            }
        }
        #[cfg(not(unix))]
        true
    }

    /// Brings the journal up to the writer's log and transcript: `kept` of
    /// its commands are still the log's (the rest were undone or replaced),
    /// then the log's later commands, and the fingerprints not yet in it
    /// (`prints`, of states before commands past `kept`); for the transcript, `restart` when it
    /// began afresh, then `said_since` (what was added since the journal's
    /// last record of it, or the whole of it after a restart). Synced
    /// before it returns: a slot naming these bytes is written after. None
    /// when the journal is full: nothing is written, and the save must hold
    /// its commands itself.
    pub fn append(
        &mut self,
        log: &[SavedCommand],
        kept: usize,
        prints: &[(usize, u64)],
        restart: bool,
        said_since: &str,
    ) -> Result<Option<JournalRef>, String> {
        self.append_synced(log, kept, prints, restart, said_since, true)
    }

    /// [`Journal::append`], the records synced only when `sync` says so
    /// (otherwise at the next [`Journal::sync`] or synced append: the file
    /// is only ever appended to, so one sync covers every record before it).
    pub fn append_synced(
        &mut self,
        log: &[SavedCommand],
        kept: usize,
        prints: &[(usize, u64)],
        restart: bool,
        said_since: &str,
        sync: bool,
    ) -> Result<Option<JournalRef>, String> {
        // The records are made in the buffer kept from the last append.
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        let (mut kept, mut restart, mut said_since) = (kept, restart, said_since);
        let mut held: &[(usize, u64)] = &[];
        let opened = self.opened.take();
        if let Some(old) = &opened {
            // What the file already holds of the game is kept.
            kept = old.log.iter().zip(log).take_while(|(a, b)| a == b).count();
            if restart && let Some(rest) = said_since.strip_prefix(old.transcript.as_str()) {
                restart = false;
                said_since = rest;
            }
            held = &old.prints;
        }
        let kept = kept.min(self.log_len).min(log.len());
        // A fingerprint the file holds for a state before a kept command
        // is not written again.
        let prints: Vec<(usize, u64)> = prints
            .iter()
            .copied()
            .filter(|&(k, print)| k > kept || held.binary_search(&(k, print)).is_err())
            .collect();
        if kept < self.log_len {
            Record::Keep(kept).encode(&mut out)?;
        }
        for command in &log[kept..] {
            encode_command(command, &mut out)?;
        }
        for &(k, print) in &prints {
            Record::PrintById(k, print).encode(&mut out)?;
        }
        if restart {
            Record::Restart.encode(&mut out)?;
            self.said = 0;
        }
        if !said_since.is_empty() {
            put('t', said_since.as_bytes(), &mut out);
            self.said += said_since.len() as u64;
        }
        if self.len + out.len() as u64 > super::MAX_JOURNAL_BYTES {
            return Ok(None);
        }
        if !out.is_empty() {
            let written = self.handle.write_all(&out).and_then(|()| {
                if sync {
                    self.unsynced = false;
                    self.handle.sync_data()
                } else {
                    self.unsynced = true;
                    Ok(())
                }
            });
            if let Err(err) = written {
                // Whatever part went out is cut off again, so the next
                // records follow whole ones.
                let _ = self.handle.set_len(self.len);
                return Err(format!("cannot write the journal: {err}"));
            }
            self.turn_start = self.len;
            self.len += out.len() as u64;
            self.sum.bytes(&out);
        }
        if sync && self.unsynced {
            self.handle
                .sync_data()
                .map_err(|err| format!("cannot write the journal: {err}"))?;
            self.unsynced = false;
        }
        self.log_len = log.len();
        self.scratch = out;
        Ok(Some(JournalRef {
            file: self.file.clone(),
            bytes: self.len,
            sum: self.sum.0,
            commands: log.len(),
        }))
    }
}

impl Journal {
    /// Where the records of the last append that wrote any start: the
    /// turn a checkpoint written now is of.
    pub fn turn_start(&self) -> u64 {
        self.turn_start
    }

    /// Says that a checkpoint (a slot naming the journal) was written for
    /// the turn whose records start at `from` ([`Journal::turn_start`]), so
    /// that older slots stop reading on there. Not synced: a mark lost to a
    /// power cut only lets an older slot read on further.
    pub fn mark(&mut self, from: u64) -> Result<(), String> {
        let mut out = Vec::new();
        Record::Mark(from).encode(&mut out)?;
        if self.len + out.len() as u64 > super::MAX_JOURNAL_BYTES {
            return Ok(());
        }
        if let Err(err) = self.handle.write_all(&out) {
            let _ = self.handle.set_len(self.len);
            return Err(format!("cannot write the journal: {err}"));
        }
        self.len += out.len() as u64;
        self.sum.bytes(&out);
        self.unsynced = true;
        Ok(())
    }

    /// The file was made by this opening, with a head
    /// ([`Journal::open_headed`]).
    pub fn is_new_with_head(&self) -> bool {
        self.new_with_head
    }

    /// Records were written and not yet synced.
    pub fn is_unsynced(&self) -> bool {
        self.unsynced
    }

    /// Syncs records written without it ([`Journal::append_synced`]).
    pub fn sync(&mut self) -> std::io::Result<()> {
        if self.unsynced {
            self.handle.sync_data()?;
            self.unsynced = false;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::save::SavedUnitCommand;
    fn order(n: usize) -> SavedCommand {
        SavedCommand::Choose {
            tp: format!("tp{n}"),
            option: "a".into(),
        }
    }

    /// A record's bytes as the journal has always written them: its
    /// payload made whole (commands and heads by `ron`), then its line.
    fn encoded_as_before(record: &Record) -> Vec<u8> {
        let payload = match record {
            Record::Command(command) => ron::to_string(command).expect("ron"),
            Record::Keep(n) => n.to_string(),
            Record::Print(k, print) | Record::PrintById(k, print) => {
                format!("{k} {print:016x}")
            }
            Record::Said(text) => text.clone(),
            Record::Restart => String::new(),
            Record::Mark(at) => at.to_string(),
            Record::Head(head) => ron::to_string(head).expect("ron"),
        };
        let mut sum = Fnv::default();
        sum.bytes(payload.as_bytes());
        let line = format!("{} {} {:016x}\n", record.kind(), payload.len(), sum.0);
        [line.as_bytes(), payload.as_bytes(), b"\n"].concat()
    }

    #[test]
    fn records_are_written_byte_for_byte_as_before() {
        let choose = |tp: &str, option: &str| SavedCommand::Choose {
            tp: tp.into(),
            option: option.into(),
        };
        let records = [
            Record::Command(SavedCommand::Next),
            Record::Command(choose("tp-one", "opt-two")),
            Record::Command(choose("", "")),
            // Not plain: left to `ron`, which escapes them.
            Record::Command(choose("a\"b", "c\\d")),
            Record::Command(choose("藍 旗", "x y")),
            Record::Command(choose("tab\there", "new\nline")),
            Record::Command(SavedCommand::Order {
                unit: "u-1".into(),
                order: SavedUnitCommand::Advance("ford".into()),
            }),
            Record::Command(SavedCommand::Order {
                unit: "u-2".into(),
                order: SavedUnitCommand::Hold,
            }),
            Record::Keep(0),
            Record::Keep(1234),
            Record::Print(0, 0),
            Record::Print(9, 0x0123_4567_89ab_cdef),
            Record::Print(usize::MAX, u64::MAX),
            Record::PrintById(12, 0x00ff_0000_0000_0001),
            Record::Said(String::new()),
            Record::Said("Choose 1-4> 1\n「建奴败了」 \"quoted\" r#\"raw\"#\n".into()),
            Record::Restart,
            Record::Mark(0),
            Record::Mark(u64::MAX),
            Record::Head(Box::new(head("g"))),
        ];
        for record in &records {
            let mut out = vec![b'x'];
            record.encode(&mut out).expect("encode");
            assert_eq!(out[1..], encoded_as_before(record), "{record:?}");
        }
    }

    #[test]
    fn a_journal_gives_back_what_was_appended_at_every_reference() {
        let dir = std::env::temp_dir().join(format!("xl-journal-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut journal = Journal::open(&dir, "g").unwrap();
        let log: Vec<SavedCommand> = (0..5).map(order).collect();
        let first = journal
            .append(&log[..3], 0, &[(1, 7)], true, "one\n")
            .unwrap()
            .unwrap();
        let second = journal
            .append(&log, 3, &[(3, 9)], false, "two 二\n")
            .unwrap()
            .unwrap();
        // An undo to 2, then another command.
        let mut undone = log[..2].to_vec();
        undone.push(SavedCommand::Next);
        let third = journal.append(&undone, 2, &[], false, "").unwrap().unwrap();
        let read = |r: &JournalRef| read_ref(&dir, r).unwrap();
        assert_eq!(read(&first).log.len(), 3);
        assert_eq!(read(&first).transcript, "one\n");
        assert_eq!(read(&second).log.len(), 5);
        assert_eq!(read(&second).prints, vec![(1, 7), (3, 9)]);
        assert_eq!(read(&second).transcript, "one\ntwo 二\n");
        let got = read(&third);
        assert_eq!(got.log, undone);
        // The state before command 3 was of the log undone.
        assert_eq!(got.prints, vec![(1, 7)]);

        // A torn record at the end is cut off when the journal is opened
        // again, and every reference still reads.
        let path = dir.join("g.journal");
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        file.write_all(b"c 40 0000000000000000\n(Choo").unwrap();
        drop(file);
        let mut again = Journal::open(&dir, "g").unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), third.bytes);
        let fourth = again.append(&log, 0, &[], true, "new\n").unwrap().unwrap();
        assert_eq!(read(&fourth).log.len(), 5);
        assert_eq!(read(&fourth).transcript, "new\n");
        assert_eq!(read(&second).transcript, "one\ntwo 二\n");

        // A changed byte inside a reference is found.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER.len() + 3] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(
            read_ref(&dir, &first)
                .unwrap_err()
                .said
                .contains("checksum")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn head(game: &str) -> Head {
        Head {
            engine: "0.1.0".into(),
            scene: "battle".into(),
            scene_hash: 1,
            rules_hash: 2,
            role: "zhang".into(),
            seed: 3,
            policies: crate::save::SavedPolicies {
                others: crate::save::SavedPolicy::Historical,
                player: None,
            },
            show_sources: true,
            game: game.into(),
            started_at: 4,
        }
    }

    #[test]
    fn a_journal_with_a_head_gives_it_back_and_a_head_cut_or_damaged_anywhere_is_told() {
        let dir = std::env::temp_dir().join(format!("xl-journal-head-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut journal = Journal::open_headed(&dir, "g", true, Some(&head("g"))).unwrap();
        assert!(journal.is_new_with_head());
        let log: Vec<SavedCommand> = (0..3).map(order).collect();
        let at = journal
            .append(&log, 0, &[(1, 7)], true, "one\n")
            .unwrap()
            .unwrap();
        assert!(has_head(&dir, "g"));
        assert_eq!(headed_games(&dir), vec!["g".to_string()]);
        assert_eq!(read_head(&dir, "g").unwrap().0, head("g"));
        let (got, game) = read_game(&dir, "g").unwrap();
        assert_eq!(got, head("g"));
        assert_eq!((game.log, game.transcript), (log.clone(), "one\n".into()));
        // A slot naming it reads it too; opened again, it is kept as it is.
        assert_eq!(read_ref(&dir, &at).unwrap().prints, vec![(1, 7)]);
        let again = Journal::open_headed(&dir, "g", true, Some(&head("other"))).unwrap();
        assert!(!again.is_new_with_head());
        drop(again);
        // The head of another game's file is refused.
        let path = dir.join("g.journal");
        std::fs::copy(&path, dir.join("h.journal")).unwrap();
        assert!(
            read_game(&dir, "h")
                .unwrap_err()
                .said
                .contains("names the game `g`")
        );

        // Cut anywhere inside its head, or a byte of it changed: an error
        // that names the head, never a panic, and never a game.
        let bytes = std::fs::read(&path).unwrap();
        let (end, _) = body_start(&bytes).unwrap();
        let sum_end = HEADER_2.len()
            + bytes[HEADER_2.len()..]
                .iter()
                .position(|&b| b == b'\n')
                .unwrap();
        for cut in HEADER_2.len()..end {
            std::fs::write(&path, &bytes[..cut]).unwrap();
            let why = read_game(&dir, "g").unwrap_err().said;
            assert!(why.contains("head record"), "{cut}: {why}");
            assert!(read_head(&dir, "g").is_err(), "{cut}");
        }
        for at in HEADER_2.len()..end {
            let mut changed = bytes.clone();
            changed[at] ^= 0x20;
            std::fs::write(&path, &changed).unwrap();
            match read_game(&dir, "g") {
                Err(why) => assert!(why.said.contains("head"), "{at}: {why}"),
                // Only a hex letter of the record's sum in the other case
                // reads the same: the same head.
                Ok((got, _)) => {
                    assert!(bytes[at].is_ascii_hexdigit() && at < sum_end, "{at}");
                    assert_eq!(got, head("g"), "{at}");
                }
            }
        }
        // A head record anywhere but at the start is refused.
        let mut twice = bytes.clone();
        Record::Head(Box::new(head("g")))
            .encode(&mut twice)
            .unwrap();
        std::fs::write(&path, &twice).unwrap();
        assert!(
            read_game(&dir, "g")
                .unwrap_err()
                .said
                .contains("not at its start")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_link_at_the_journal_is_removed_not_followed() {
        let dir = std::env::temp_dir().join(format!("xl-journal-link-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("precious.txt");
        std::fs::write(&target, "keep me\n").unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&target, dir.join("g.journal")).unwrap();
            let mut journal = Journal::open(&dir, "g").unwrap();
            journal.append(&[order(1)], 0, &[], true, "x\n").unwrap();
            assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me\n");
            assert!(
                !std::fs::symlink_metadata(dir.join("g.journal"))
                    .unwrap()
                    .file_type()
                    .is_symlink()
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
