//! Slots: the rule for slot names (plain names that cannot leave the save
//! folder and fit the file system with the temp file's suffix), and the
//! listing of a folder's slots with what each holds or why it cannot be read.

use super::{MAX_SLOT_BYTES, MAX_SLOT_CHARS, SaveError};
use crate::story::clock;
use std::path::{Path, PathBuf};

/// Why a slot name is refused (said in the player's language by the
/// REPL's catalogue; in English here).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SlotProblem {
    #[error("it is empty")]
    Empty,
    #[error("it is too long")]
    TooLong,
    #[error("slot names cannot contain path separators")]
    PathSeparator,
    #[error("slot names cannot start with a dot")]
    Dot,
    #[error("slot names cannot start with - (it would read as an option)")]
    Dash,
    #[error("it contains control characters")]
    Control,
    #[error("it contains characters other than letters, digits, - and _")]
    OtherCharacters,
}

/// Refuses anything but a plain name, saying why.
pub fn check_slot(slot: &str) -> Result<(), SaveError> {
    let why = if slot.is_empty() {
        Some(SlotProblem::Empty)
    } else if slot.chars().count() > MAX_SLOT_CHARS || slot.len() > MAX_SLOT_BYTES {
        Some(SlotProblem::TooLong)
    } else if slot.contains(['/', '\\']) {
        Some(SlotProblem::PathSeparator)
    } else if slot.starts_with('.') {
        Some(SlotProblem::Dot)
    } else if slot.starts_with('-') {
        Some(SlotProblem::Dash)
    } else if slot.chars().any(char::is_control) {
        Some(SlotProblem::Control)
    } else if !slot
        .chars()
        .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
    {
        Some(SlotProblem::OtherCharacters)
    } else {
        None
    };
    match why {
        None => Ok(()),
        Some(why) => {
            let shown: String = slot.chars().take(MAX_SLOT_CHARS + 8).collect();
            let more = if shown.len() < slot.len() { "…" } else { "" };
            Err(SaveError::BadSlot(
                format!("{}{more}", shown.escape_debug()),
                why,
            ))
        }
    }
}

pub fn slot_path(dir: &Path, slot: &str) -> Result<PathBuf, SaveError> {
    check_slot(slot)?;
    Ok(dir.join(format!("{slot}.ron")))
}

/// Slot names in the folder (for Tab completion).
pub fn slot_names(dir: &Path) -> Vec<String> {
    names_with(dir, "ron")
}

/// The plain names (as [`check_slot`] allows) of the folder's files that
/// end in `.EXT`, in order.
pub(crate) fn names_with(dir: &Path, ext: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let path = e.path();
            let stem = path.file_stem()?.to_string_lossy().to_string();
            (path.extension().is_some_and(|x| x == ext) && check_slot(&stem).is_ok())
                .then_some(stem)
        })
        .collect();
    names.sort();
    names
}

/// What a slot holds, for the `saves` table.
#[derive(Debug, Clone, PartialEq)]
pub struct SlotSummary {
    pub scene: String,
    pub role: String,
    pub turn: u32,
    pub saved_at: u64,
    /// The game it belongs to (its name: the slot of its resume point).
    pub game: String,
    /// Whether the game had ended when saved.
    pub over: bool,
    /// An autosave that loading takes on past its own point, through the
    /// later turns of its journal (format 5): `turn` is its own point's.
    pub follows: bool,
}

/// Each slot's turn as loading it reaches: an autosave whose journal holds
/// later turns (format 5) is loaded and said at the last of them (and
/// `over` when they ended the battle), not at its own point; one that does
/// not load is left as it was read (loading it says why). The start
/// menu's games left off and the `saves` table both say it so.
pub fn reached(dir: &Path, rows: &mut [SlotInfo], scenes: &[std::sync::Arc<crate::scene::Scene>]) {
    for row in rows {
        if let Ok(summary) = row.summary.as_mut()
            && summary.follows
            && let Ok(loaded) = super::load(dir, &row.slot, scenes)
        {
            summary.turn = loaded.game.turn();
            summary.over = loaded.game.is_over();
        }
    }
}

/// The other slots that load of the game `slot` belongs to, and whether
/// that game is known at all ([`others_of_game`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Others {
    /// The game's other slots that read, newest first, at the turn
    /// loading each reaches.
    pub rows: Vec<SlotInfo>,
    /// Whether anything told which game `slot` is of: its name (a game's
    /// resume point or autosave), or what its text still says.
    pub known: bool,
}

/// The other slots of the game that `slot` belongs to (its resume point,
/// autosaves and saves made with `save NAME`) that read, newest first, at
/// the turn loading each reaches: what to offer when `slot` itself does
/// not load. The game is known by the slot's name (`NAME` or
/// `NAME-auto-N`), since its file may not say; for another name (a `save
/// NAME` slot), by what can still be read of its text (`Traces`: its
/// game, or its battle, role and seed). `known` is false when neither
/// tells a game with a slot in the folder.
pub fn others_of_game(
    dir: &Path,
    slot: &str,
    scenes: &[std::sync::Arc<crate::scene::Scene>],
) -> Others {
    let game = game_of_slot(slot);
    let all = list(dir).unwrap_or_default();
    let own = |row: &SlotInfo| super::own_slot(game, &row.slot);
    let known = game != slot
        || all.iter().any(|row| row.slot != slot && own(row))
        || super::journal::has_head(dir, game);
    let others = |of: &dyn Fn(&SlotInfo, &SlotSummary) -> bool| -> Vec<SlotInfo> {
        (all.iter())
            .filter(|row| row.slot != slot && row.summary.as_ref().is_ok_and(|s| of(row, s)))
            .cloned()
            .collect()
    };
    let mut rows = others(&|row, s| own(row) && s.game == game);
    let mut found = known;
    if rows.is_empty() {
        let traces = Traces::of(&dir.join(format!("{slot}.ron")));
        let by_traces = others(&|_, s| traces.name(s));
        found |= !by_traces.is_empty();
        rows = by_traces;
    }
    reached(dir, &mut rows, scenes);
    sort_newest(&mut rows, game);
    Others { rows, known: found }
}

/// Every slot of the folder but `slot` that reads, newest first, at the
/// turn loading each reaches: what to offer when not even the game of a
/// slot that does not load can be told.
pub fn readable_slots(
    dir: &Path,
    slot: &str,
    scenes: &[std::sync::Arc<crate::scene::Scene>],
) -> Vec<SlotInfo> {
    let mut rows: Vec<SlotInfo> = (list(dir).unwrap_or_default().into_iter())
        .filter(|row| row.slot != slot && row.summary.is_ok())
        .collect();
    reached(dir, &mut rows, scenes);
    sort_newest(&mut rows, "");
    rows
}

/// Newest first; of one second, the resume point of `game` first, then
/// by name.
fn sort_newest(rows: &mut [SlotInfo], game: &str) {
    rows.sort_by_key(|row| {
        let at = row.summary.as_ref().map_or(0, |s| s.saved_at);
        // Saves of one second: the resume point is the later.
        (std::cmp::Reverse(at), row.slot != game)
    });
}

/// What can still be read of a save's text that does not read whole: the
/// game it names (its last field but the journal's, near the end of the
/// file, so a file damaged in its middle still tells it), and its battle,
/// role and seed (its first fields, so a file cut short still tells them).
/// Read line by line as the engine writes a save (a field to a line at
/// the top level); a value is taken only as a plain name.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Traces {
    game: Option<String>,
    scene: Option<String>,
    role: Option<String>,
    seed: Option<u64>,
}

impl Traces {
    pub(super) fn of(path: &Path) -> Traces {
        match crate::files::read_capped(path, super::MAX_SAVE_BYTES) {
            Ok(bytes) => Traces::of_text(&String::from_utf8_lossy(&bytes)),
            Err(_) => Traces::default(),
        }
    }

    fn of_text(text: &str) -> Traces {
        let field = |line: &str, name: &str| -> Option<String> {
            let value = line.strip_prefix("    ")?.strip_prefix(name)?;
            let value = value.strip_prefix(": ")?.strip_suffix(',')?;
            Some(value.to_string())
        };
        let name = |value: String| -> Option<String> {
            let name = value.strip_prefix('"')?.strip_suffix('"')?;
            check_slot(name).is_ok().then(|| name.to_string())
        };
        let mut traces = Traces::default();
        // The header, before the state (a few lines).
        for line in text.lines().take(16) {
            if line.starts_with("    state:") {
                break;
            }
            traces.scene = traces.scene.or_else(|| field(line, "scene").and_then(name));
            traces.role = traces.role.or_else(|| field(line, "role").and_then(name));
            traces.seed = (traces.seed).or_else(|| field(line, "seed")?.parse().ok());
        }
        // The end: `game`, then perhaps `journal`, `)` and the checksum.
        let tail: Vec<&str> = text.lines().rev().take(8).collect();
        traces.game = tail
            .iter()
            .find_map(|line| field(line, "game").and_then(name));
        traces
    }

    /// Whether the slot summed up as `s` is of the game these traces tell:
    /// the game named, or (none named) the battle, role and seed's game by
    /// its name ([`crate::story::default_name`], or a second game's of
    /// them, `NAME-2`).
    fn name(&self, s: &SlotSummary) -> bool {
        if let Some(game) = &self.game {
            return s.game == *game;
        }
        let (Some(scene), Some(role), Some(seed)) = (&self.scene, &self.role, self.seed) else {
            return false;
        };
        let default = crate::story::default_name(scene, role, seed);
        s.scene == *scene
            && s.role == *role
            && (s.game == default
                || (s.game.strip_prefix(&default))
                    .and_then(|rest| rest.strip_prefix('-'))
                    .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())))
    }
}

/// The game a slot of its own is named after: `NAME` for `NAME-auto-N`.
pub(super) fn game_of_slot(slot: &str) -> &str {
    match slot.rsplit_once("-auto-") {
        Some((name, n)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => name,
        _ => slot,
    }
}

/// One row of the `saves` table: the slot and what it holds, or why it
/// cannot be read (said in a few words by [`short_reason`], or the
/// catalogue's in the player's language).
#[derive(Debug, Clone, PartialEq)]
pub struct SlotInfo {
    pub slot: String,
    pub summary: Result<SlotSummary, SaveError>,
}

/// Every slot in the folder, readable or not, and each game its journal
/// alone stands for ([`super::journal_only`]: a new game before its first
/// checkpoint), as a slot of the game's name that loading reads on from
/// its start (`follows`, at the time its journal was last written). A
/// missing folder has no slots; an unreadable one is an error.
pub fn list(dir: &Path) -> Result<Vec<SlotInfo>, SaveError> {
    if let Err(err) = std::fs::read_dir(dir)
        && err.kind() != std::io::ErrorKind::NotFound
    {
        return Err(SaveError::Folder(
            dir.display().to_string(),
            err.to_string(),
        ));
    }
    let slots = slot_names(dir);
    // The slots that cannot be read because they are damaged (not of
    // another version, not refused by the system).
    let mut damaged: std::collections::BTreeSet<String> = Default::default();
    let mut rows: Vec<SlotInfo> = slots
        .into_iter()
        .map(|slot| {
            let path = dir.join(format!("{slot}.ron"));
            // The whole file is read, not just its header, so a slot listed
            // as good is one that loads.
            let read = super::read_file(&path, super::Journal::Look);
            if matches!(read, Err(SaveError::Damaged(..))) {
                damaged.insert(slot.clone());
            }
            // A game's resume point that cannot be read (damaged, not of
            // another version) is listed as what loading it gives: the game
            // rebuilt ([`super::rebuildable`]).
            if matches!(read, Err(SaveError::Damaged(..)))
                && super::rebuildable(dir, &slot)
                && let Ok(summary) = journal_summary(dir, &slot)
            {
                return SlotInfo {
                    slot,
                    summary: Ok(summary),
                };
            }
            let summary = read.map(|f| SlotSummary {
                follows: f.journal.is_some() && super::reads_on(f.format),
                game: if f.game.is_empty() {
                    crate::story::default_name(&f.scene, &f.role, f.seed)
                } else {
                    f.game
                },
                over: f.state.story.ended.is_some(),
                scene: f.scene,
                role: f.role,
                turn: f.turn,
                saved_at: f.saved_at,
            });
            SlotInfo { slot, summary }
        })
        .collect();
    // A game is its journal alone when no slot is of it but damaged ones:
    // none at a name of its own, none that says it is the game's.
    let of_game = |game: &str, row: &SlotInfo| match &row.summary {
        Ok(s) => super::own_slot(game, &row.slot) || s.game == game,
        Err(_) => super::own_slot(game, &row.slot) && !damaged.contains(&row.slot),
    };
    let journals: Vec<SlotInfo> = super::journal::headed_games(dir)
        .into_iter()
        .filter(|game| !rows.iter().any(|row| of_game(game, row)))
        .map(|game| SlotInfo {
            summary: journal_summary(dir, &game),
            slot: game,
        })
        .collect();
    rows.extend(journals);
    rows.sort_by(|a, b| a.slot.cmp(&b.slot));
    Ok(rows)
}

/// The game `game`'s journal stands for, as a slot of its name that loading
/// reads on from its start.
fn journal_summary(dir: &Path, game: &str) -> Result<SlotSummary, SaveError> {
    super::journal::read_head(dir, game)
        .map(|(head, written)| SlotSummary {
            scene: head.scene,
            role: head.role,
            // The start's: `reached` says where loading goes on to.
            turn: 0,
            saved_at: written.max(head.started_at),
            game: head.game,
            over: false,
            follows: true,
        })
        .map_err(|why| {
            let shown = dir.join(super::journal::journal_file(game));
            SaveError::Damaged(shown.display().to_string(), why.into())
        })
}

/// Why a slot is unreadable, in a few words for the `saves` table
/// (English).
pub fn short_reason(err: &SaveError) -> String {
    match err {
        SaveError::TooNew(_, format, ..) => format!("newer format {format}"),
        SaveError::TooOld(_, format, ..) => format!("old format {format}"),
        SaveError::Damaged(_, why) => why.short(),
        other => other.to_string(),
    }
}

/// "2026-11-29 18:36" from Unix seconds (UTC), without a date library.
pub fn timestamp(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let minute_of_day = ((secs % 86_400) / 60) as u32;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {}", clock(minute_of_day))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slot_names_are_plain() {
        for bad in [
            "../x",
            "/etc/passwd",
            "a/b",
            "a\\b",
            "",
            ".hidden",
            "a\u{7}b",
            "a b",
            "-x",
            "--load",
            &"x".repeat(65),
        ] {
            assert!(check_slot(bad).is_err(), "{bad:?}");
        }
        for good in ["quick", "slot-1", "before_drums", "鸣鼓"] {
            assert!(check_slot(good).is_ok(), "{good:?}");
        }
    }

    #[test]
    fn traces_are_read_from_a_save_cut_short_or_damaged_inside() {
        let head =
            "(\n    format: 8,\n    scene: \"b\",\n    role: \"r\",\n    seed: 7,\n    state: (\n";
        let tail = "    transcript: \"x\n    game: \\\"no\\\",\n\",\n    game: \"b-r-7-2\",\n)\n// checksum\n";
        let whole = Traces::of_text(&format!("{head}    log: [@@],\n{tail}"));
        assert_eq!(whole.game.as_deref(), Some("b-r-7-2"));
        assert_eq!(
            (whole.scene.as_deref(), whole.role.as_deref()),
            (Some("b"), Some("r"))
        );
        assert_eq!(whole.seed, Some(7));
        let cut = Traces::of_text(&head[..head.len() - 4]);
        assert_eq!((cut.game.as_deref(), cut.seed), (None, Some(7)));
        let summary = |game: &str| SlotSummary {
            scene: "b".into(),
            role: "r".into(),
            turn: 1,
            saved_at: 1,
            game: game.into(),
            over: false,
            follows: false,
        };
        assert!(whole.name(&summary("b-r-7-2")) && !whole.name(&summary("b-r-7")));
        assert!(cut.name(&summary("b-r-7")) && cut.name(&summary("b-r-7-2")));
        assert!(!cut.name(&summary("b-r-70")) && !cut.name(&summary("other")));
        assert_eq!(Traces::of_text("\u{0}garbage"), Traces::default());
    }

    #[test]
    fn timestamps_are_civil_dates() {
        assert_eq!(timestamp(0), "1970-01-01 00:00");
        assert_eq!(timestamp(1_798_540_560), "2026-12-29 10:36");
    }
}
