//! Reading a save back: the file's text, format and seal, its journal, the
//! replay of its commands from the seed, and what is said when they do not
//! lead to the state it holds.

use super::*;

/// The first field of a save, read leniently to tell a newer format or a
/// foreign file from a damaged save.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct Version {
    format: u32,
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
                Damage::of_ron(Part::Contents, &err, text),
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
        let damaged = |why: JournalError| SaveError::Damaged(shown.clone(), why.into());
        if file.format < 4 || !file.log.is_empty() || !file.transcript.is_empty() {
            return Err(SaveError::Damaged(shown, Damage::JournalAndCommands));
        }
        let dir = path.parent().unwrap_or(Path::new("."));
        match journal {
            Journal::Look => {
                journal::looks_whole(dir, named).map_err(damaged)?;
            }
            Journal::Read => {
                let (replayed, later) = if reads_on(file.format) {
                    journal::read_following(dir, named).map_err(damaged)?
                } else {
                    (journal::read_ref(dir, named).map_err(damaged)?, None)
                };
                file.later = later.map(|l| Later {
                    log: l.log,
                    checkpoints: l.checkpoints,
                    prints: l.prints,
                    transcript: l.transcript,
                });
                if !file.checkpoints.is_empty() || !file.prints.is_empty() {
                    return Err(SaveError::Damaged(shown, Damage::JournalAndPrints));
                }
                file.log = replayed.log;
                file.checkpoints = replayed.checkpoints;
                file.prints = replayed.prints;
                file.transcript = replayed.transcript;
                file.journal = None;
                // What it names read in, it is a whole save of its story
                // journal's form (the turns after it are in `later`).
                if reads_on(file.format) {
                    file.format -= 1;
                }
            }
        }
    }
    check_bounds(&file).map_err(|why| SaveError::Damaged(shown, Damage::OutOfBounds(why)))?;
    file.transcript = bounded_transcript(&file.transcript, MAX_TRANSCRIPT_BYTES);
    if file.format < 2 {
        // Format 1 hashed the state's text: its fingerprints cannot be
        // checked here, and its final state proves the replay alone.
        file.checkpoints.clear();
    }
    Ok(file)
}

pub(super) fn read_text(path: &Path) -> Result<String, SaveError> {
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
        ReadError::TooLarge(cap) => SaveError::Damaged(shown.clone(), Damage::TooLarge(cap)),
        ReadError::NotAFile(what) => SaveError::Damaged(shown.clone(), Damage::NotAFile(what)),
    })?;
    let text =
        String::from_utf8(bytes).map_err(|_| SaveError::Damaged(shown.clone(), Damage::NotText))?;
    if text.trim().is_empty() {
        return Err(SaveError::Damaged(shown, Damage::Empty));
    }
    Ok(text)
}

/// A format this engine reads, or why not.
pub(super) fn check_format(shown: &str, format: u32) -> Result<(), SaveError> {
    if format > FOLLOW_FORMAT {
        Err(SaveError::TooNew(
            shown.to_string(),
            format,
            MIN_FORMAT,
            FOLLOW_FORMAT,
        ))
    } else if format < MIN_FORMAT {
        Err(SaveError::TooOld(
            shown.to_string(),
            format,
            MIN_FORMAT,
            FOLLOW_FORMAT,
        ))
    } else {
        Ok(())
    }
}

/// The header, or the clearest account of why there is none.
pub(super) fn header(shown: &str, text: &str) -> Result<Version, SaveError> {
    match ron::from_str::<Version>(text) {
        Ok(header) => check_format(shown, header.format).map(|()| header),
        Err(err) => {
            let why = match ron::from_str::<ron::Value>(text) {
                Ok(_) => Damage::of_ron(Part::Foreign, &err, text),
                Err(syntax) => Damage::of_ron(Part::Syntax, &syntax, text),
            };
            Err(SaveError::Damaged(shown.to_string(), why))
        }
    }
}

/// A loaded game, its transcript, and a notice if the scene had changed.
pub struct Loaded {
    pub game: Game,
    pub transcript: String,
    pub notice: Option<LoadNotice>,
}

/// What changed since a save was made (its battle, its rules, or both).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Changed {
    Battle,
    Rules,
    Both,
}

/// What the player is told about a save that loaded, but not as it was
/// written. `Display` is the library's English; the REPL's catalogue says it
/// in the player's language. `report` is what the replay found: where it
/// parted from the save ([`ReplayReport::describe`] in English).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadNotice {
    /// The battle or its rules changed since the save: its commands were
    /// replayed on the current version (`report` None: to the same state).
    Changed {
        shown: String,
        what: Changed,
        scene: String,
        commands: usize,
        report: Option<ReplayReport>,
    },
    /// The commands do not reach the saved state on this version: the game
    /// goes on from the saved state, without its undo history.
    Unreached { shown: String, report: ReplayReport },
    /// The checksum does not hold: the commands were replayed from the seed
    /// and the game goes on at `turn` (`reached`: where the save says).
    Replayed {
        shown: String,
        commands: usize,
        turn: u32,
        reached: bool,
    },
    /// A game's resume point could not be read (`why`): the game was
    /// rebuilt from its journal (`from` None) or from its autosave `from`,
    /// its `commands` replayed from the seed to `turn`; `then`, what that
    /// load told itself (a battle changed since).
    Rebuilt {
        shown: String,
        why: Damage,
        from: Option<String>,
        commands: usize,
        turn: u32,
        then: Option<Box<LoadNotice>>,
    },
}

impl std::fmt::Display for LoadNotice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadNotice::Changed {
                shown,
                what,
                scene,
                commands,
                report,
            } => {
                let what = match what {
                    Changed::Battle => "battle",
                    Changed::Rules => "rules of the battle",
                    Changed::Both => "battle and its rules",
                };
                let outcome = report.as_ref().map_or_else(
                    || "they reach the same state, so nothing is lost.".to_string(),
                    ReplayReport::describe,
                );
                write!(
                    f,
                    "{shown}: the {what} `{scene}` changed since this save was made. Your {commands} command(s) were replayed on the current version: {outcome}"
                )
            }
            LoadNotice::Unreached { shown, report } => write!(
                f,
                "{shown}: this save's commands do not lead to its saved state on this version of xiaoling ({}) The game goes on from the saved state; undo cannot go back before it.",
                report.describe()
            ),
            LoadNotice::Replayed {
                shown,
                commands,
                turn,
                reached,
            } => {
                let reached = if *reached {
                    "which is where the save says it was"
                } else {
                    "and the state written in the file is not used"
                };
                let commands_were = if *commands == 1 {
                    "command was"
                } else {
                    "commands were"
                };
                write!(
                    f,
                    "{shown} was changed after it was written (its checksum does not match). Its {commands} {commands_were} replayed from its seed: the game goes on at turn {turn}, {reached}."
                )
            }
            LoadNotice::Rebuilt {
                shown,
                why,
                from,
                commands,
                turn,
                then,
            } => {
                let commands_were = if *commands == 1 {
                    "command was"
                } else {
                    "commands were"
                };
                let from = match from {
                    None => "its journal".to_string(),
                    Some(slot) => format!("its autosave `{slot}`"),
                };
                write!(
                    f,
                    "{shown} cannot be read ({why}). The game was rebuilt from {from}: its {commands} {commands_were} replayed from the seed, and it goes on at turn {turn}. Its next save writes over the damaged file."
                )?;
                match then {
                    Some(then) => write!(f, " {then}"),
                    None => Ok(()),
                }
            }
        }
    }
}

pub fn load(dir: &Path, slot: &str, scenes: &[Arc<Scene>]) -> Result<Loaded, SaveError> {
    let path = slot_path(dir, slot)?;
    let file = match read(&path) {
        // A game whose journal is the whole of it (a new game before its
        // first checkpoint) is loaded by its name from the journal.
        Err(SaveError::Missing(..)) if journal_only(dir, slot) => {
            return load_journal(dir, slot, scenes);
        }
        // A game's resume point that cannot be read is not the end of the
        // game: its journal, from its head, holds every command of it.
        Err(SaveError::Damaged(shown, why)) if rebuildable(dir, slot) => {
            return rebuild(dir, slot, scenes, shown, why);
        }
        other => other?,
    };
    let mut loaded = restore(&path.display().to_string(), file, scenes)?;
    // A game goes on under its name from its own resume point or autosaves.
    // From any other save (one made with `save NAME`) it goes on as a game
    // of its own, so its saves never write over the later ones of the game
    // it was saved from.
    let name = loaded.game.name().to_string();
    if !own_slot(&name, slot)
        && (slot_names(dir).iter().any(|s| own_slot(&name, s)) || journal::has_head(dir, &name))
    {
        loaded.game.set_name(unused_name(dir, &name));
    }
    Ok(loaded)
}

/// Whether `name` is a game of `dir` that its journal alone stands for: a
/// journal with a head ([`journal::has_head`]), and no slot of the game's
/// own (resume point or autosave) beside it but damaged ones (a slot of a
/// newer version, or one the system refuses to read, still stands for the
/// game: the journal must not write over it). Listed,
/// found and loaded by its name as a slot at the game's start naming the
/// journal would be.
pub fn journal_only(dir: &Path, name: &str) -> bool {
    check_slot(name).is_ok()
        && journal::has_head(dir, name)
        && !slot_names(dir).iter().any(|slot| {
            own_slot(name, slot)
                && !matches!(
                    read_file(&dir.join(format!("{slot}.ron")), Journal::Look),
                    Err(SaveError::Damaged(..))
                )
        })
}

/// The game `name` whose resume point `shown` is damaged (`why`), from its
/// journal; or from an autosave of it written after the journal was last
/// written (a journal given up when it grew too large, or refused by the
/// disk), which then reaches further. Neither loads: the slot's own fault.
fn rebuild(
    dir: &Path,
    name: &str,
    scenes: &[Arc<Scene>],
    shown: String,
    why: Damage,
) -> Result<Loaded, SaveError> {
    let written = journal::read_head(dir, name).map_or(0, |(_, written)| written);
    let mut best: Option<(Option<String>, u64, Loaded)> = load_journal(dir, name, scenes)
        .ok()
        .map(|loaded| (None, written, loaded));
    for slot in slot_names(dir) {
        if slot == name || !own_slot(name, &slot) {
            continue;
        }
        let path = dir.join(format!("{slot}.ron"));
        let Ok(file) = read(&path) else { continue };
        let saved_at = file.saved_at;
        if best.as_ref().is_some_and(|(_, at, _)| saved_at <= *at) {
            continue;
        }
        if let Ok(loaded) = restore(&path.display().to_string(), file, scenes) {
            best = Some((Some(slot), saved_at, loaded));
        }
    }
    let Some((from, _, mut loaded)) = best else {
        return Err(SaveError::Damaged(shown, why));
    };
    loaded.notice = Some(LoadNotice::Rebuilt {
        shown,
        why,
        from,
        commands: loaded.game.log().len(),
        turn: loaded.game.turn(),
        then: loaded.notice.take().map(Box::new),
    });
    Ok(loaded)
}

/// Whether `slot`, a slot that cannot be read, is a game's resume point
/// whose journal begins with a head: the journal alone then rebuilds the
/// game (every command from its start). Not an autosave, which stands for
/// an earlier turn than the journal reaches, nor a save made with `save
/// NAME`, whose game a damaged file does not tell.
pub fn rebuildable(dir: &Path, slot: &str) -> bool {
    check_slot(slot).is_ok()
        && super::slots::game_of_slot(slot) == slot
        && journal::has_head(dir, slot)
}

/// What a game's journal gives when it is the whole game
/// ([`journal_only`]): its head's fresh game, with every command of its
/// whole records replayed from the seed, checked against the journal's
/// fingerprints as a slot's are.
struct FromJournal {
    shown: String,
    head: journal::Head,
    game: Game,
    report: ReplayReport,
    changed: Option<Changed>,
    transcript: String,
    commands: usize,
}

/// Reads the game `name` of `dir` from its journal alone and replays it:
/// as a slot at the game's start that names the journal loads (it reads
/// on through the records to the last whole one). On the battle as it was,
/// the game stops before the first command whose fingerprint differs or
/// that does not run (as a slot's later turns do); on a battle changed
/// since, or `all`, every command is replayed up to one that does not run,
/// and `report` says where it parted.
fn from_journal(
    dir: &Path,
    name: &str,
    scenes: &[Arc<Scene>],
    all: bool,
) -> Result<FromJournal, SaveError> {
    let shown = dir.join(journal::journal_file(name)).display().to_string();
    let (head, replayed) = journal::read_game(dir, name)
        .map_err(|why| SaveError::Damaged(shown.clone(), why.into()))?;
    let scene = find_scene(&shown, &head.scene, scenes)?;
    let mut game = fresh_of(
        &shown,
        &scene,
        (&head.role, head.seed, head.policies),
        head.show_sources,
        &head.game,
    )?;
    let changed = changed_of(&scene, head.scene_hash, head.rules_hash);
    let prints = Prints {
        by_texts: &replayed.checkpoints,
        by_ids: &replayed.prints,
    };
    let log = &replayed.log;
    let mut report = replay_log(&mut game, log, prints, 0, !all && changed.is_none());
    // No state was saved to compare the end with: the fingerprints are
    // the check.
    report.same_end = true;
    Ok(FromJournal {
        shown,
        head,
        game,
        report,
        changed,
        transcript: bounded_transcript(&replayed.transcript, MAX_TRANSCRIPT_BYTES),
        commands: replayed.log.len(),
    })
}

/// [`load`] of a game its journal alone stands for ([`journal_only`]).
fn load_journal(dir: &Path, name: &str, scenes: &[Arc<Scene>]) -> Result<Loaded, SaveError> {
    let got = from_journal(dir, name, scenes, false)?;
    let notice = got.changed.map(|what| LoadNotice::Changed {
        shown: got.shown.clone(),
        what,
        scene: got.head.scene.clone(),
        commands: got.commands,
        report: (!got.report.reproduces()).then(|| got.report.clone()),
    });
    Ok(Loaded {
        game: got.game,
        transcript: got.transcript,
        notice,
    })
}

/// What `replay` checks of a game its journal alone stands for: its
/// commands replayed from the seed of its head, every fingerprint of the
/// journal compared (on a battle changed since too); and its journal's
/// shown path, seed and whether the battle changed.
pub fn replay_journal(
    dir: &Path,
    name: &str,
    scenes: &[Arc<Scene>],
) -> Result<(ReplayReport, String, u64, bool), SaveError> {
    let got = from_journal(dir, name, scenes, true)?;
    Ok((got.report, got.shown, got.head.seed, got.changed.is_some()))
}

/// The scene of id `id` among `scenes`, or which there are.
fn find_scene(shown: &str, id: &str, scenes: &[Arc<Scene>]) -> Result<Arc<Scene>, SaveError> {
    scenes
        .iter()
        .find(|s| s.id() == id)
        .cloned()
        .ok_or_else(|| {
            let ids: Vec<&str> = scenes.iter().map(|s| s.id()).collect();
            SaveError::UnknownScene(shown.to_string(), id.to_string(), ids.join(", "))
        })
}

/// What changed of `scene` since a save (or journal head) with these
/// hashes was made.
fn changed_of(scene: &Scene, scene_hash: u64, rules: u64) -> Option<Changed> {
    match (scene.content_hash == scene_hash, rules_match(scene, rules)) {
        (true, true) => None,
        (false, true) => Some(Changed::Battle),
        (true, false) => Some(Changed::Rules),
        (false, false) => Some(Changed::Both),
    }
}

/// Whether `slot` is one the game `name` writes itself: its resume point or
/// one of its autosaves.
/// Whether `slot` is one of game `name`'s own: its resume point or one of
/// its autosaves (not a save made with `save NAME`).
pub fn own_slot(name: &str, slot: &str) -> bool {
    slot == name
        || slot
            .strip_prefix(name)
            .and_then(|rest| rest.strip_prefix("-auto-"))
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// A fresh game for a save: its scene, role, seed and policies.
pub(super) fn fresh(shown: &str, scene: &Arc<Scene>, file: &SaveFile) -> Result<Game, SaveError> {
    let start = (file.role.as_str(), file.seed, file.policies);
    fresh_of(shown, scene, start, file.show_sources, &file.game)
}

/// [`fresh`] of its parts: role, seed and policies; the sources setting
/// and the game's name.
fn fresh_of(
    shown: &str,
    scene: &Arc<Scene>,
    (role, seed, policies): (&str, u64, SavedPolicies),
    show_sources: bool,
    name: &str,
) -> Result<Game, SaveError> {
    let (game, _) = Game::with_policies(
        Arc::clone(scene),
        role,
        seed,
        policies.others.into(),
        policies.player.map(Into::into),
    )
    .map_err(|err| SaveError::Damaged(shown.to_string(), Damage::Misfit(err.to_string())))?;
    let mut game = game;
    game.show_sources(show_sources);
    if check_slot(name).is_ok() {
        game.set_name(name.to_string());
    }
    Ok(game)
}

/// Rebuilds the game a save describes by replaying its log from the seed
/// (which restores the undo history too). When the scene changed since the
/// save, the replay on the current scene is the game, and the notice says
/// where it parts from the saved one. When the scene is the same but the
/// replay does not reach the saved state, the saved state is restored without
/// undo history, and the notice says so.
///
/// An autosave whose journal holds turns played after it (format 5 or 7, see
/// [`journal`]) goes on to the last of them, when it loaded as written:
/// their commands run from its state (or from the seed, when an undo went
/// back past it), checked against the journal's fingerprints, and stop at
/// the first that does not run or parts from them.
pub fn restore(
    shown: &str,
    mut file: SaveFile,
    scenes: &[Arc<Scene>],
) -> Result<Loaded, SaveError> {
    let later = file.later.take();
    let spare = later.as_ref().map(|_| file.clone());
    let mut loaded = restore_own(shown, file, scenes)?;
    if let (Some(later), Some(own)) = (later, spare)
        && loaded.notice.is_none()
    {
        go_on(shown, &mut loaded, &own, later);
    }
    Ok(loaded)
}

/// Runs the turns after a save (`later`) on the game loaded from it.
fn go_on(shown: &str, loaded: &mut Loaded, own: &SaveFile, later: Later) {
    let scene = loaded.game.scene_arc();
    let common = (own.log.iter())
        .zip(&later.log)
        .take_while(|(a, b)| a == b)
        .count();
    let from_save = common == own.log.len();
    let mut fresh_game = None;
    if !from_save {
        // An undo went back past the save: the game is replayed from its seed.
        match fresh(shown, &scene, own) {
            Ok(game) => fresh_game = Some(game),
            Err(_) => return,
        }
    }
    let start = if from_save { own.log.len() } else { 0 };
    let game = fresh_game.as_mut().unwrap_or(&mut loaded.game);
    let prints = Prints {
        by_texts: &later.checkpoints,
        by_ids: &later.prints,
    };
    replay_log(game, &later.log, prints, start, true);
    if let Some(game) = fresh_game {
        if game.log().len() < later.log.len() {
            // Not all of it ran: the save's own game stands.
            return;
        }
        loaded.game = game;
    }
    loaded.transcript = bounded_transcript(&later.transcript, MAX_TRANSCRIPT_BYTES);
}

/// [`restore`] of the save's own point.
fn restore_own(shown: &str, file: SaveFile, scenes: &[Arc<Scene>]) -> Result<Loaded, SaveError> {
    if file.journal.is_some() {
        return Err(SaveError::Damaged(
            shown.to_string(),
            Damage::JournalNotRead,
        ));
    }
    check_bounds(&file)
        .map_err(|why| SaveError::Damaged(shown.to_string(), Damage::OutOfBounds(why)))?;
    let scene = find_scene(shown, &file.scene, scenes)?;
    let mut game = fresh(shown, &scene, &file)?;
    let report = replay(&mut game, &file);
    if file.damaged {
        return damaged(shown, game, &report, file);
    }
    let changed = changed_of(&scene, file.scene_hash, file.rules_hash);
    if let Some(what) = changed {
        let notice = LoadNotice::Changed {
            shown: shown.to_string(),
            what,
            scene: file.scene.clone(),
            commands: file.log.len(),
            report: (!report.reproduces()).then(|| report.clone()),
        };
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
    let misfit = |why: String| SaveError::Damaged(shown.to_string(), Damage::Misfit(why));
    check_fits(&scene, &file).map_err(misfit)?;
    let snapshot = file
        .state
        .to_snapshot(file.log.len(), &scene)
        .map_err(misfit)?;
    let mut game = fresh(shown, &scene, &file)?;
    let log = (file.log.iter())
        .map(|c| c.to_command(&scene))
        .collect::<Result<_, _>>()
        .map_err(|why| misfit(why.to_string()))?;
    game.restore_saved(&snapshot, log, Vec::new());
    let notice = LoadNotice::Unreached {
        shown: shown.to_string(),
        report: report.clone(),
    };
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
pub(super) fn damaged(
    shown: &str,
    game: Game,
    report: &ReplayReport,
    file: SaveFile,
) -> Result<Loaded, SaveError> {
    if let Some((i, why)) = &report.failed {
        return Err(SaveError::Damaged(
            shown.to_string(),
            Damage::Unreplayable {
                command: i + 1,
                said: why.clone(),
            },
        ));
    }
    let notice = LoadNotice::Replayed {
        shown: shown.to_string(),
        commands: file.log.len(),
        turn: game.turn(),
        reached: report.reproduces(),
    };
    Ok(Loaded {
        game,
        transcript: file.transcript,
        notice: Some(notice),
    })
}

/// What replaying a save's command log found.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    let scene = game.scene_arc();
    let prints = Prints {
        by_texts: &file.checkpoints,
        by_ids: &file.prints,
    };
    let mut report = replay_log(game, &file.log, prints, 0, false);
    if report.failed.is_some() {
        return report;
    }
    // The replay's end in the form the save holds its journal in.
    let form = JournalForm::of(&file.state.story);
    match SavedState::of_form(&game.snapshot(), &scene, form) {
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

/// A save's fingerprints of the states before its commands: (command
/// index, fingerprint), each list in order. Formats 2 to 7 hold them by
/// texts ([`fingerprint`]), format 8 on by ids ([`fingerprint_by_ids`]); a
/// journal begun by an older engine and played on by this one holds some
/// of each (its `f` and `g` records).
#[derive(Clone, Copy)]
struct Prints<'a> {
    by_texts: &'a [(usize, u64)],
    by_ids: &'a [(usize, u64)],
}

/// Runs commands `from..` of `log` on `game` (which stands after the
/// first `from`), comparing the state before each with its fingerprints in
/// `prints` where there are any (either kind, or both).
/// Stops at the first command that does not run; with `stop_at_parting`,
/// also before the first whose fingerprint differs (the turns after a
/// save, a journal's game). `same_end` is left false: the caller compares
/// the end, if it has a state to compare it with.
fn replay_log(
    game: &mut Game,
    log: &[SavedCommand],
    prints: Prints,
    from: usize,
    stop_at_parting: bool,
) -> ReplayReport {
    let scene = game.scene_arc();
    let mut report = ReplayReport {
        ran: 0,
        failed: None,
        diverged_at: None,
        same_end: false,
        end_difference: None,
    };
    let mut by_texts = prints.by_texts.iter().peekable();
    let mut by_ids = prints.by_ids.iter().peekable();
    for (i, command) in log.iter().enumerate().skip(from) {
        while by_texts.next_if(|(at, _)| *at < i).is_some() {}
        while by_ids.next_if(|(at, _)| *at < i).is_some() {}
        let text_print = by_texts.next_if(|(at, _)| *at == i).map(|&(_, p)| p);
        let id_print = by_ids.next_if(|(at, _)| *at == i).map(|&(_, p)| p);
        let parts =
            report.diverged_at.is_none() && (text_print.is_some() || id_print.is_some()) && {
                let snapshot = game.snapshot();
                text_print.is_some_and(|p| fingerprint(&snapshot, &scene) != p)
                    || id_print.is_some_and(|p| fingerprint_by_ids(&snapshot, &scene) != p)
            };
        if parts {
            report.diverged_at = Some((i, game.turn()));
            if stop_at_parting {
                return report;
            }
        }
        let ran = command
            .to_command(&scene)
            .and_then(|command| game.run(&command));
        if let Err(err) = ran {
            report.failed = Some((i, err.to_string()));
            return report;
        }
        report.ran += 1;
    }
    report
}

/// The state with every told text's zh-Hant left out where it has zh-Hans
/// (which format 1 stored converted, and this engine converts when read).
pub(super) fn without_made_hant(state: &SavedState) -> SavedState {
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
