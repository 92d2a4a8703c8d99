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

/// The other slots of the game that `slot` belongs to (its resume point and
/// autosaves) that read, newest first, at the turn loading each reaches:
/// what to offer when `slot` itself does not load. The game is known by the
/// slot's name (`NAME` or `NAME-auto-N`), since its file may not say.
pub fn others_of_game(
    dir: &Path,
    slot: &str,
    scenes: &[std::sync::Arc<crate::scene::Scene>],
) -> Vec<SlotInfo> {
    let game = game_of_slot(slot);
    let mut rows: Vec<SlotInfo> = list(dir)
        .unwrap_or_default()
        .into_iter()
        .filter(|row| {
            row.slot != slot
                && super::own_slot(game, &row.slot)
                && row.summary.as_ref().is_ok_and(|s| s.game == game)
        })
        .collect();
    reached(dir, &mut rows, scenes);
    rows.sort_by_key(|row| {
        let at = row.summary.as_ref().map_or(0, |s| s.saved_at);
        // Saves of one second: the resume point is the later.
        (std::cmp::Reverse(at), row.slot != game)
    });
    rows
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
    fn timestamps_are_civil_dates() {
        assert_eq!(timestamp(0), "1970-01-01 00:00");
        assert_eq!(timestamp(1_798_540_560), "2026-12-29 10:36");
    }
}
