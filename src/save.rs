//! Save files: a versioned RON format of its own, written atomically.
//!
//! A save holds the format version, the engine version, the scene id and a
//! hash of the scene's text, the role and seed, the whole world and story
//! (with the random streams' positions), the command log since the start, the
//! undo history and the transcript. It is written to a temporary file in the
//! same folder, synced, and renamed over the slot, so a crash mid-save leaves
//! the old slot whole. Slot names are plain names and cannot leave the folder.

use crate::scene::{Locale, Scene};
use crate::story::{Command, Game, Snapshot, clock};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The save format this engine writes.
pub const FORMAT: u32 = 1;
/// The oldest format this engine still reads.
pub const MIN_FORMAT: u32 = 1;
/// Autosaves rotate over this many slots.
pub const AUTOSAVE_SLOTS: usize = 3;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveFile {
    pub format: u32,
    pub engine: String,
    pub scene: String,
    pub scene_hash: u64,
    pub role: String,
    pub seed: u64,
    /// Seconds since the Unix epoch.
    pub saved_at: u64,
    pub turn: u32,
    pub state: Snapshot,
    pub log: Vec<Command>,
    pub undo: Vec<Snapshot>,
    pub transcript: String,
}

/// The first fields of a save, read leniently to give good errors and the slot table.
#[derive(Debug, Clone, Deserialize)]
struct Header {
    format: u32,
    #[serde(default)]
    engine: String,
    scene: String,
    role: String,
    #[serde(default)]
    saved_at: u64,
    #[serde(default)]
    turn: u32,
}

#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    #[error("`{0}` is not a valid slot name: use letters, digits, - and _ (at most 64), no paths")]
    BadSlot(String),
    #[error("no save in slot `{0}` ({1})")]
    Missing(String, String),
    #[error("cannot write the save folder {0}: {1}")]
    Folder(String, String),
    #[error("cannot save to {0}: {1} (the old save, if any, is untouched)")]
    Write(String, String),
    #[error("cannot read {0}: {1}")]
    Read(String, String),
    #[error("{0} is not a xiaoling save: {1}")]
    Damaged(String, String),
    #[error("{0} is from a newer version of xiaoling (save format {1}; this one reads {2} to {3})")]
    TooNew(String, u32, u32, u32),
    #[error("{0} is a save of the battle `{1}`, which is not loaded (scenes here: {2})")]
    UnknownScene(String, String, String),
}

/// Refuses anything but a plain name.
pub fn check_slot(slot: &str) -> Result<(), SaveError> {
    let ok = !slot.is_empty()
        && slot.chars().count() <= 64
        && !slot.starts_with('.')
        && slot
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(SaveError::BadSlot(slot.escape_debug().to_string()))
    }
}

pub fn slot_path(dir: &Path, slot: &str) -> Result<PathBuf, SaveError> {
    check_slot(slot)?;
    Ok(dir.join(format!("{slot}.ron")))
}

/// The save of a game as it stands.
pub fn save_file(game: &mut Game, transcript: &str) -> SaveFile {
    let state = game.snapshot();
    let scene = game.scene();
    SaveFile {
        format: FORMAT,
        engine: env!("CARGO_PKG_VERSION").to_string(),
        scene: scene.id().to_string(),
        scene_hash: scene.content_hash,
        role: game.role().to_string(),
        seed: game.seed(),
        saved_at: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0),
        turn: game.turn(),
        state,
        log: game.log().to_vec(),
        undo: game.undo_history().to_vec(),
        transcript: transcript.to_string(),
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
    let file = save_file(game, transcript);
    let text = ron::ser::to_string_pretty(&file, ron::ser::PrettyConfig::default().depth_limit(3))
        .map_err(|err| SaveError::Write(path.display().to_string(), err.to_string()))?;
    write_atomic(dir, &path, text.as_bytes())?;
    Ok(path)
}

/// After every turn (rotating over `AUTOSAVE_SLOTS` slots) and on quit.
pub fn autosave(
    dir: &Path,
    game: &mut Game,
    transcript: &str,
    why: &str,
) -> Result<PathBuf, SaveError> {
    let slot = if why == "quit" {
        "autosave-quit".to_string()
    } else {
        format!("autosave-{}", game.log().len() % AUTOSAVE_SLOTS + 1)
    };
    save(dir, &slot, game, transcript)
}

/// Temp file in the same folder, fsync, rename, fsync the folder.
pub fn write_atomic(dir: &Path, path: &Path, bytes: &[u8]) -> Result<(), SaveError> {
    std::fs::create_dir_all(dir)
        .map_err(|err| SaveError::Folder(dir.display().to_string(), err.to_string()))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let temp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temp, path)?;
        if let Ok(folder) = std::fs::File::open(dir) {
            let _ = folder.sync_all();
        }
        Ok(())
    })();
    result.map_err(|err| {
        let _ = std::fs::remove_file(&temp);
        SaveError::Write(path.display().to_string(), err.to_string())
    })
}

/// Reads and checks a save file (no scene needed).
pub fn read(path: &Path) -> Result<SaveFile, SaveError> {
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|err| match err.kind() {
        std::io::ErrorKind::NotFound => SaveError::Missing(
            path.file_stem()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_default(),
            shown.clone(),
        ),
        _ => SaveError::Read(shown.clone(), err.to_string()),
    })?;
    let text = String::from_utf8(bytes)
        .map_err(|_| SaveError::Damaged(shown.clone(), "it is not text".into()))?;
    if text.trim().is_empty() {
        return Err(SaveError::Damaged(shown, "the file is empty".into()));
    }
    let header: Header = ron::from_str(&text).map_err(|err| {
        SaveError::Damaged(shown.clone(), format!("{} at {}", err.code, err.span.start))
    })?;
    if header.format > FORMAT || header.format < MIN_FORMAT {
        return Err(SaveError::TooNew(shown, header.format, MIN_FORMAT, FORMAT));
    }
    ron::from_str(&text)
        .map_err(|err| SaveError::Damaged(shown, format!("{} at {}", err.code, err.span.start)))
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
    restore(&path.display().to_string(), file, scenes)
}

/// Rebuilds the game a save describes. When the scene's text changed since
/// the save, the command log is replayed on the current scene instead, and
/// the notice says where the replay parts from the saved game, if it does.
pub fn restore(shown: &str, file: SaveFile, scenes: &[Arc<Scene>]) -> Result<Loaded, SaveError> {
    let scene = scenes
        .iter()
        .find(|s| s.id() == file.scene)
        .cloned()
        .ok_or_else(|| {
            let ids: Vec<&str> = scenes.iter().map(|s| s.id()).collect();
            SaveError::UnknownScene(shown.to_string(), file.scene.clone(), ids.join(", "))
        })?;
    let (mut game, _) = Game::new(Arc::clone(&scene), &file.role, file.seed)
        .map_err(|err| SaveError::Damaged(shown.to_string(), err.to_string()))?;
    if scene.content_hash == file.scene_hash {
        game.restore_saved(&file.state, file.log, file.undo);
        return Ok(Loaded {
            game,
            transcript: file.transcript,
            notice: None,
        });
    }
    let report = replay(&mut game, &file);
    let notice = match report.diverged_at {
        None if report.failed.is_none() => format!(
            "The battle `{}` has changed since this save. Your {} commands were replayed on the current version and reach the same state.",
            file.scene,
            file.log.len()
        ),
        _ => format!(
            "The battle `{}` has changed since this save. Your {} commands were replayed on the current version; {}",
            file.scene,
            file.log.len(),
            report.describe()
        ),
    };
    Ok(Loaded {
        game,
        transcript: file.transcript,
        notice: Some(notice),
    })
}

/// What replaying a save's command log found.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayReport {
    /// Commands that ran.
    pub ran: usize,
    /// The command that could not run, with why.
    pub failed: Option<(usize, String)>,
    /// The first turn whose state differs from the saved game's history.
    pub diverged_at: Option<u32>,
    /// The final state equals the saved one.
    pub same_end: bool,
}

impl ReplayReport {
    pub fn describe(&self) -> String {
        match (&self.failed, self.diverged_at) {
            (Some((n, why)), _) => format!(
                "command {} could not run there ({why}); the game stops before it.",
                n + 1
            ),
            (None, Some(turn)) => format!("the replay parts from the saved game at turn {turn}."),
            (None, None) if self.same_end => {
                "the replay reaches the saved state exactly.".to_string()
            }
            (None, None) => "the final state differs from the saved one.".to_string(),
        }
    }
}

/// Re-runs a save's commands from its seed on `game` (fresh from `Game::new`),
/// comparing each step with the save's undo history and final state.
pub fn replay(game: &mut Game, file: &SaveFile) -> ReplayReport {
    let mut report = ReplayReport {
        ran: 0,
        failed: None,
        diverged_at: None,
        same_end: false,
    };
    for (i, command) in file.log.iter().enumerate() {
        if let Some(saved) = file.undo.iter().find(|s| s.log_len == i) {
            let now = game.snapshot();
            if report.diverged_at.is_none()
                && (now.world != saved.world || now.story != saved.story)
            {
                report.diverged_at = Some(now.world.turn);
            }
        }
        if let Err(err) = game.run(command) {
            report.failed = Some((i, err.to_string()));
            return report;
        }
        report.ran += 1;
    }
    let end = game.snapshot();
    report.same_end = end.world == file.state.world && end.story == file.state.story;
    if report.diverged_at.is_none() && !report.same_end {
        report.diverged_at = Some(end.world.turn);
    }
    report
}

/// Slot names in the folder (for Tab completion).
pub fn slot_names(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let path = e.path();
            let stem = path.file_stem()?.to_string_lossy().to_string();
            (path.extension().is_some_and(|x| x == "ron") && check_slot(&stem).is_ok())
                .then_some(stem)
        })
        .collect();
    names.sort();
    names
}

/// One row of the `saves` table: the slot and what it holds, or why it cannot be read.
pub struct SlotInfo {
    pub slot: String,
    pub summary: Result<(String, String, u32, u64), String>,
}

pub fn list(dir: &Path) -> Vec<SlotInfo> {
    slot_names(dir)
        .into_iter()
        .map(|slot| {
            let path = dir.join(format!("{slot}.ron"));
            let summary = std::fs::read_to_string(&path)
                .map_err(|err| err.to_string())
                .and_then(|text| ron::from_str::<Header>(&text).map_err(|_| "damaged".to_string()))
                .and_then(|h| {
                    if h.format > FORMAT {
                        Err(format!("newer format {}", h.format))
                    } else {
                        let _ = h.engine;
                        Ok((h.scene, h.role, h.turn, h.saved_at))
                    }
                });
            SlotInfo { slot, summary }
        })
        .collect()
}

/// The `saves` table, in the player's language.
pub fn list_table(dir: &Path, locale: Locale) -> String {
    let rows = list(dir);
    let zh = locale.is_chinese();
    if rows.is_empty() {
        return if zh {
            format!("{} 中尚无存档。", dir.display())
        } else {
            format!("No saves in {}.", dir.display())
        };
    }
    let head = if zh {
        ["槽位", "战役", "角色", "刻", "存于 (UTC)"]
    } else {
        ["slot", "battle", "role", "turn", "saved at (UTC)"]
    };
    let mut table = vec![head.iter().map(|s| s.to_string()).collect::<Vec<_>>()];
    for row in rows {
        table.push(match row.summary {
            Ok((scene, role, turn, at)) => {
                vec![row.slot, scene, role, turn.to_string(), timestamp(at)]
            }
            Err(why) => vec![
                row.slot,
                format!("{} ({why})", if zh { "无法读取" } else { "unreadable" }),
                String::new(),
                String::new(),
                String::new(),
            ],
        });
    }
    let widths: Vec<usize> = (0..5)
        .map(|c| {
            table
                .iter()
                .map(|r| crate::repl::wrap::width(&r[c]))
                .max()
                .unwrap_or(0)
        })
        .collect();
    table
        .iter()
        .map(|r| {
            r.iter()
                .zip(&widths)
                .map(|(cell, w)| crate::repl::wrap::pad(cell, *w))
                .collect::<Vec<_>>()
                .join("  ")
                .trim_end()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
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
