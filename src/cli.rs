//! The command line: `xiaoling [play] …`, `scenes`, `check`, `simulate`,
//! `graph`, `replay`. Parsing with clap; each subcommand is a function that
//! returns an exit code, and only this layer and the REPL touch the terminal.

use crate::repl::catalogue::{MenuMsg, SessionMsg, Ui, msg, ui};
use crate::repl::render::Style;
use crate::repl::{self, Options, Piped, Session, Terminal};
use crate::save;
use crate::scene::{self, Locale, Scene};
use crate::simulate::{Policies, Report, simulate_counted};
use crate::story::{Game, Policy};
use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

#[derive(Parser, Debug)]
#[command(
    name = "xiaoling",
    version,
    about = "Battles of the Xiaoling River: a text adventure"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    #[command(flatten)]
    play: PlayArgs,
    #[command(flatten)]
    dir: SceneDir,
    /// Folder for saves and the command history.
    #[arg(long, value_name = "DIR", default_value = "saves", global = true)]
    saves: PathBuf,
    /// Language: en, zh-Hans or zh-Hant.
    #[arg(long, value_name = "LANG", global = true)]
    lang: Option<String>,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Play a battle (the default).
    Play(PlayArgs),
    /// List the battles and their playable roles.
    Scenes,
    /// Check scene files (or folders) and print every problem found.
    Check(CheckArgs),
    /// Play many games automatically and report outcomes.
    Simulate(SimulateArgs),
    /// Print a battle's choice graph in Graphviz DOT.
    Graph {
        #[arg(long)]
        scene: String,
    },
    /// Re-run a save's commands from its seed and check they reproduce it.
    Replay {
        /// A save file, or a slot name in the saves folder.
        save: String,
    },
}

#[derive(Args, Debug, Clone, Default)]
struct SceneDir {
    /// Load scenes from this folder instead of the shipped ones.
    #[arg(long, value_name = "DIR", global = true)]
    scenes: Option<PathBuf>,
}

#[derive(Args, Debug, Clone, Default)]
struct PlayArgs {
    /// Battle id (asked when not given).
    #[arg(long)]
    scene: Option<String>,
    /// Commander to play (asked when not given).
    #[arg(long)]
    role: Option<String>,
    /// Random seed: the same seed and commands give the same game.
    #[arg(long)]
    seed: Option<u64>,
    /// Load a saved game from this slot.
    #[arg(long, value_name = "SLOT")]
    load: Option<String>,
    /// Also write the whole session to FILE as plain text, headed with the
    /// engine version, battle, role, seed and language.
    #[arg(long, value_name = "FILE")]
    transcript: Option<PathBuf>,
    /// How the side you do not play decides at its turning points
    /// (default: historical, the novel's choice). A save keeps it.
    #[arg(long, value_enum, value_name = "P", conflicts_with = "load")]
    policy_other: Option<PolicyArg>,
}

#[derive(Args, Debug, Clone)]
struct CheckArgs {
    /// Files or folders; default: the scenes folder.
    paths: Vec<PathBuf>,
    /// Also play N games per role of each scene, told in full, and report
    /// every text told while one of its claims was false (an error), texts
    /// never told, options never taken, endings never reached, options that
    /// make no difference, and what a player should never see.
    #[arg(long, value_name = "N")]
    play: Option<u32>,
    /// The first seed of the games played.
    #[arg(long, default_value_t = 1, requires = "play")]
    seed: u64,
    /// Worker threads for the games (default: one per core).
    #[arg(long, value_name = "N", requires = "play")]
    threads: Option<std::num::NonZeroU16>,
    /// Print the play-throughs' report as JSON (one object per scene, one
    /// per line).
    #[arg(long, requires = "play")]
    json: bool,
    /// Check again each time one of the files is saved (a folder: any of its
    /// `.ron` files), until interrupted with Ctrl-C.
    #[arg(long)]
    watch: bool,
}

#[derive(Args, Debug, Clone)]
struct SimulateArgs {
    #[arg(long)]
    scene: String,
    #[arg(long)]
    role: String,
    #[arg(long, default_value_t = 100)]
    runs: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How both sides decide: short for `--policy-player P --policy-other P`.
    #[arg(long, value_enum, value_name = "P", conflicts_with_all = ["policy_player", "policy_other"])]
    policy: Option<PolicyArg>,
    /// How the player's role decides (default: historical).
    #[arg(long, value_enum, value_name = "P")]
    policy_player: Option<PolicyArg>,
    /// How the side nobody plays decides (default: historical).
    #[arg(long, value_enum, value_name = "P")]
    policy_other: Option<PolicyArg>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Worker threads (default: one per core). The report is the same for
    /// any number; only the time changes.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
}

#[derive(ValueEnum, Debug, Clone, Copy)]
enum PolicyArg {
    /// The novel's choice.
    Historical,
    /// Any option, from the seed.
    Random,
    /// The best for the deciding side over a few look-ahead games.
    Greedy,
}

impl From<PolicyArg> for Policy {
    fn from(arg: PolicyArg) -> Policy {
        match arg {
            PolicyArg::Historical => Policy::Historical,
            PolicyArg::Random => Policy::Random,
            PolicyArg::Greedy => Policy::Greedy,
        }
    }
}

/// Options every subcommand shares.
struct Common {
    dir: SceneDir,
    saves: PathBuf,
    lang: Option<String>,
}

/// Runs the command line; the error chain is printed by `main`.
pub fn run() -> Result<ExitCode> {
    let cli = Cli::parse();
    let common = Common {
        dir: cli.dir,
        saves: cli.saves,
        lang: cli.lang,
    };
    match cli.command {
        None => play(cli.play, &common),
        Some(Cmd::Play(args)) => play(args, &common),
        Some(Cmd::Scenes) => list_scenes(&common.dir, common.lang.as_deref()),
        Some(Cmd::Check(args)) => check(args),
        Some(Cmd::Simulate(args)) => simulate(args, &common.dir),
        Some(Cmd::Graph { scene }) => graph(&scene, &common.dir),
        Some(Cmd::Replay { save }) => replay(&save, &common.saves, &common.dir),
    }
}

fn load_scenes(dir: &SceneDir) -> Result<Vec<Arc<Scene>>> {
    let loaded = match &dir.scenes {
        Some(path) => scene::load_dir(path),
        None => scene::load_embedded(),
    };
    match loaded {
        Ok(scenes) => Ok(scenes.into_iter().map(Arc::new).collect()),
        Err(problems) => {
            let mut stderr = std::io::stderr().lock();
            for problem in &problems {
                let _ = write!(stderr, "{problem}");
            }
            bail!(
                "{} problem(s) in the scenes; nothing was played",
                problems.len()
            )
        }
    }
}

/// The shipped battle `id`, parsed alone, when no scene folder is given and
/// it loads cleanly; otherwise none, and the caller loads every scene (which
/// reports any problem, or the battles there are when the name is wrong).
fn shipped_named(id: &str, dir: &SceneDir) -> Option<Arc<Scene>> {
    if dir.scenes.is_some() {
        return None;
    }
    match scene::load_embedded_one(id) {
        Some(Ok(scene)) if scene.id() == id => Some(Arc::new(scene)),
        _ => None,
    }
}

fn find_scene(scenes: &[Arc<Scene>], id: &str, locale: Locale) -> Result<Arc<Scene>> {
    scenes
        .iter()
        .find(|s| s.id() == id)
        .cloned()
        .ok_or_else(|| {
            let ids: Vec<&str> = scenes.iter().map(|s| s.id()).collect();
            // The examples that come with the engine are not built in: say
            // where one is when it is asked for by name.
            let example = std::path::Path::new("scenes/examples").join(format!("{id}.ron"));
            let near = crate::scene::diag::closest(id, ids.iter().copied());
            anyhow!(repl::catalogue::msg(
                locale,
                SessionMsg::NoSuchBattle {
                    id,
                    near,
                    list: &ids.join(", "),
                    example: example.is_file(),
                }
            ))
        })
}

fn check_role(scene: &Scene, role: &str, locale: Locale) -> Result<()> {
    if scene.meta().playable.iter().any(|r| r == role) {
        Ok(())
    } else {
        let playable = &scene.meta().playable;
        let near = crate::scene::diag::closest(role, playable.iter().map(String::as_str));
        bail!(repl::catalogue::msg(
            locale,
            SessionMsg::NoSuchRole {
                role,
                battle: scene.id(),
                near,
                list: &playable.join(", "),
            }
        ))
    }
}

fn list_scenes(dir: &SceneDir, lang: Option<&str>) -> Result<ExitCode> {
    // The English title beside the Chinese one, in the script asked for
    // (`--lang zh-Hant` gives the Traditional titles).
    let chinese = match lang {
        Some(tag) => match Locale::parse(tag) {
            Some(Locale::ZhHant) => Locale::ZhHant,
            Some(_) => Locale::ZhHans,
            None => bail!("unknown language `{tag}`; use en, zh-Hans or zh-Hant"),
        },
        None => Locale::ZhHans,
    };
    let scenes = load_scenes(dir)?;
    let mut out = std::io::stdout().lock();
    for scene in &scenes {
        let title = scene.meta().title.get(Locale::En);
        let zh = scene.meta().title.get(chinese);
        writeln!(
            out,
            "{}\t{title} / {zh}\t{}",
            scene.id(),
            scene.meta().playable.join(", ")
        )
        .map_err(stdout_error)?;
    }
    out.flush().map_err(stdout_error)?;
    Ok(ExitCode::SUCCESS)
}

fn check(args: CheckArgs) -> Result<ExitCode> {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from("scenes")]
    } else {
        args.paths.clone()
    };
    if args.play == Some(0) {
        bail!("--play must be at least 1");
    }
    if args.watch {
        return watch(&args, &paths);
    }
    check_once(&args, &paths)
}

/// The language errors that end the program are said in: `--lang`'s, when
/// the command line gives one the game speaks; English otherwise.
pub fn error_locale() -> Locale {
    Cli::try_parse()
        .ok()
        .and_then(|cli| cli.lang)
        .and_then(|tag| Locale::parse(&tag))
        .unwrap_or(Locale::En)
}

/// An error that ends the program, as `main` prints it: in the language of
/// `--lang` (`error: …`, 「错误：…」).
pub fn fatal(locale: Locale, err: &anyhow::Error) -> String {
    let err = format!("{err:#}");
    repl::catalogue::msg(locale, SessionMsg::Fatal { err: &err })
}

/// `check --watch`: checks once, then again whenever one of the files is
/// saved, saying which. Polls the files' times and lengths twice a second
/// (no watcher library: scene folders hold a handful of files), and waits
/// for a save to settle before reading, so an editor's half-written file is
/// not reported. Runs until interrupted; a failed check is reported and
/// watching goes on.
fn watch(args: &CheckArgs, paths: &[PathBuf]) -> Result<ExitCode> {
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    let mut stamps = crate::files::Stamps::of(paths);
    loop {
        if let Err(err) = check_once(args, paths) {
            let _ = writeln!(std::io::stderr(), "error: {err:#}");
        }
        let _ = writeln!(
            std::io::stderr(),
            "-- watching {}: waiting for a change (Ctrl-C to stop)",
            shown.join(", ")
        );
        let changed = loop {
            std::thread::sleep(Duration::from_millis(500));
            let now = crate::files::Stamps::of(paths);
            if now != stamps {
                // Let the save finish: the same stamps twice in a row.
                std::thread::sleep(Duration::from_millis(200));
                let settled = crate::files::Stamps::of(paths);
                if settled == now {
                    let changed: Vec<String> = settled
                        .changed_since(&stamps)
                        .iter()
                        .map(|p| p.display().to_string())
                        .collect();
                    stamps = settled;
                    break changed;
                }
            }
        };
        let _ = writeln!(
            std::io::stderr(),
            "-- changed: {}; checking again",
            changed.join(", ")
        );
    }
}

/// One check of `paths`: the scenes' diagnostics, then (with `--play`) the
/// play-throughs' report. Exit status 1 on a problem or a claim failure.
fn check_once(args: &CheckArgs, paths: &[PathBuf]) -> Result<ExitCode> {
    let (checked, scenes, problems) = scene::load_paths(paths);
    let mut stderr = std::io::stderr().lock();
    for problem in &problems {
        let _ = write!(stderr, "{problem}");
        let _ = writeln!(stderr);
    }
    if !problems.is_empty() {
        let _ = writeln!(stderr, "{} problem(s) found", problems.len());
        return Ok(ExitCode::from(1));
    }
    // Warnings are for reading: the scenes load and play all the same.
    let warnings: Vec<_> = scenes
        .iter()
        .flat_map(|(_, s)| scene::warnings(s))
        .collect();
    for warning in &warnings {
        let _ = write!(stderr, "{warning}");
        let _ = writeln!(stderr);
    }
    drop(stderr);
    let Some(games) = args.play else {
        let mut ok = format!("ok: {checked} file(s) checked, no problems");
        if !warnings.is_empty() {
            ok.push_str(&format!(", {} warning(s)", warnings.len()));
        }
        writeln!(std::io::stdout(), "{ok}").map_err(stdout_error)?;
        return Ok(ExitCode::SUCCESS);
    };
    let threads = args
        .threads
        .map_or_else(rayon::current_num_threads, |n| usize::from(n.get()));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")?;
    let mut failed = false;
    let mut out = std::io::stdout().lock();
    for (folder, scene) in scenes {
        let scene = Arc::new(scene);
        let folder = folder.display().to_string();
        let played = AtomicU32::new(0);
        let started = Instant::now();
        let total = crate::lint::total_games(&scene, games);
        let lint = std::thread::scope(|scope| {
            let worker = scope
                .spawn(|| pool.install(|| crate::lint::play(&scene, games, args.seed, &played)));
            if std::io::stderr().is_terminal() {
                show_progress(&worker, &played, total, started);
            }
            worker
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        })
        .map_err(|e| anyhow!("{}: {e}", scene.id()))?;
        failed |= !lint.claim_failures.is_empty();
        if args.json {
            let json = serde_json::to_string(&lint).context("cannot write the report as JSON")?;
            writeln!(out, "{json}").map_err(stdout_error)?;
        } else {
            write!(out, "{}", crate::lint::report_text(&lint, Some(&folder)))
                .map_err(stdout_error)?;
        }
    }
    out.flush().map_err(stdout_error)?;
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Output to standard output failed: a clear error (exit status 2).
fn stdout_error(err: std::io::Error) -> anyhow::Error {
    anyhow!("cannot write to standard output: {err}")
}

fn play(args: PlayArgs, common: &Common) -> Result<ExitCode> {
    // A start that names a shipped battle parses that one alone; the others
    // wait until a save of theirs is loaded.
    let one = match (&args.scene, &args.load) {
        (Some(id), None) => shipped_named(id, &common.dir),
        _ => None,
    };
    let partial = one.is_some();
    let scenes = match one {
        Some(scene) => vec![scene],
        None => load_scenes(&common.dir)?,
    };
    // One game at a time in a save folder: two would write the same
    // autosaves, and one's clean-up would remove the other's temp files.
    // Held until the game ends. A folder that cannot be locked (read-only)
    // is played from anyway: its saves fail, and say so when they do.
    let locale = match &common.lang {
        Some(tag) => Locale::parse(tag)
            .ok_or_else(|| anyhow!("unknown language `{tag}`; use en, zh-Hans or zh-Hant"))?,
        None => Locale::En,
    };
    let _lock = match save::FolderLock::take(&common.saves) {
        Ok(lock) => Some(lock),
        Err(save::LockError::Busy(folder)) => {
            bail!(repl::catalogue::msg(
                locale,
                SessionMsg::FolderBusy { folder: &folder }
            ))
        }
        Err(save::LockError::Unusable(_)) => None,
    };
    // Temp files of saves a crash or a kill interrupted (no other game can
    // be writing one now: the lock is held).
    crate::files::remove_stale_temps(&common.saves);
    let stdin_tty = std::io::stdin().is_terminal();
    let stdout_tty = std::io::stdout().is_terminal();
    let style = output_style(stdout_tty);
    let columns = style.columns;
    let options = Options {
        locale,
        style,
        saves_dir: common.saves.clone(),
    };
    let mut input: Box<dyn repl::LineSource> = if stdin_tty {
        Box::new(
            Terminal::new(Some(common.saves.join(".history")))
                .context("cannot open the terminal")?,
        )
    } else {
        Box::new(Piped::new(std::io::stdin().lock()))
    };
    let mut stdout = std::io::stdout().lock();

    // `play` with nothing else: offer the games left off in this folder.
    let bare = args.scene.is_none() && args.role.is_none() && args.seed.is_none();
    let mut welcomed = false;
    let mut slot = args.load.clone();
    if slot.is_none() && bare {
        let points = save::resume_points(&common.saves);
        if !points.is_empty() {
            welcome(&mut stdout, locale, columns)?;
            welcomed = true;
            let shown = (locale, columns);
            let points = reached(&common.saves, points, &scenes);
            match offer_resume(input.as_mut(), &mut stdout, shown, &points, &scenes)? {
                Offered::Resume(name) => slot = Some(name),
                Offered::New => {}
                Offered::Leave => return Ok(ExitCode::SUCCESS),
            }
        }
    }
    let (game, outputs, loaded) = if let Some(slot) = &slot {
        let loaded = save::load(&common.saves, slot, &scenes).map_err(|err| {
            let why = repl::catalogue::save_error(locale, &err);
            // The folder in the command only when one was named.
            let named = common.saves.display().to_string();
            let saves = (common.saves != std::path::Path::new("saves")).then_some(named.as_str());
            match repl::other_save(&common.saves, slot, &err, &scenes, locale, Some(saves)) {
                Some(other) => anyhow!("{why}\n{other}"),
                None => anyhow!(why),
            }
        })?;
        (
            loaded.game,
            Vec::new(),
            Some((loaded.transcript, loaded.notice)),
        )
    } else {
        let menus = (locale, columns, welcomed);
        match new_game(&args, common, &scenes, input.as_mut(), &mut stdout, menus)? {
            Some((game, outputs)) => (game, outputs, None),
            None => return Ok(ExitCode::SUCCESS),
        }
    };

    let transcript_file = match &args.transcript {
        Some(path) => Some(open_transcript(path, &game, locale, common)?),
        None => None,
    };
    // Piped, the session's output is written in blocks, flushed before each
    // line is read and at the end (a line-buffered stdout made some 18
    // `write` calls a turn); on a terminal it stays line by line.
    let mut buffered;
    let out: &mut dyn Write = if stdout_tty {
        &mut stdout
    } else {
        buffered = std::io::BufWriter::with_capacity(1 << 16, &mut stdout);
        &mut buffered
    };
    let mut session = Session::new(game, options, scenes.clone(), out);
    if partial {
        session = session.with_more_scenes(Box::new(|| {
            scene::load_embedded()
                .map(|all| all.into_iter().map(Arc::new).collect())
                .unwrap_or_default()
        }));
    }
    if stdout_tty {
        session = session.with_live_width();
    }
    if common.saves != std::path::Path::new("saves") {
        session = session.with_saves_named(common.saves.display().to_string());
    }
    if let (Some(slot), Some(_)) = (&slot, &loaded) {
        session = session.with_loaded_from(slot);
    }
    // `reload` re-reads the battle from the folder it came from: `--scenes`,
    // else the shipped folder where it is at hand (a checkout).
    let folder = common
        .dir
        .scenes
        .clone()
        .or_else(|| Some(PathBuf::from("scenes")).filter(|dir| dir.is_dir()));
    if let Some(folder) = folder {
        session = session.with_scene_folder(folder);
    }
    if let Some((path, file)) = transcript_file {
        session = session.with_transcript_file(path, file);
    }
    match loaded {
        Some((transcript, notice)) => {
            session = session.with_transcript(transcript);
            if let Some(notice) = notice {
                session.load_notice(&notice);
            }
            session.recap();
        }
        None => {
            session.opening();
            session.show(&outputs);
        }
    }
    session.run(input.as_mut());
    let ending = session.ending();
    // The process ends: a long game's states are not freed one by one.
    session.leave_history_to_exit();
    drop(session);
    if let Some(why) = &ending.write_error {
        let _ = writeln!(std::io::stderr(), "error: {why}");
    }
    Ok(if ending.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// A new game from the arguments, the player choosing in the menus what
/// they leave open (battle, commander); None when he leaves a menu.
fn new_game(
    args: &PlayArgs,
    common: &Common,
    scenes: &[Arc<Scene>],
    input: &mut dyn repl::LineSource,
    stdout: &mut dyn Write,
    (locale, columns, welcomed): (Locale, usize, bool),
) -> Result<Option<(Game, Vec<crate::story::Output>)>> {
    let scene = match &args.scene {
        Some(id) => find_scene(scenes, id, locale)?,
        None => {
            if !welcomed {
                welcome(stdout, locale, columns)?;
            }
            let items = battle_menu(scenes, locale, columns);
            let prompt = ui(locale, Ui::ChooseBattle);
            match pick(input, stdout, locale, prompt, &items)? {
                Some(idx) => Arc::clone(&scenes[idx]),
                None => return Ok(None),
            }
        }
    };
    let role = match &args.role {
        Some(role) => {
            check_role(&scene, role, locale)?;
            role.clone()
        }
        None => {
            let roles: Vec<_> = scene.roles_with_sides().collect();
            let items = role_menu(&roles, locale);
            let prompt = ui(locale, Ui::ChooseCommander);
            match pick(input, stdout, locale, prompt, &items)? {
                Some(idx) => roles[idx].0.id.clone(),
                None => return Ok(None),
            }
        }
    };
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() % 100_000)
            .unwrap_or(1)
    });
    let others = args.policy_other.map(Policy::from).unwrap_or_default();
    let (mut game, outputs) =
        Game::with_policies(scene, &role, seed, others, None).map_err(|err| anyhow!("{err}"))?;
    // A game of its own in the folder: an older game of the same
    // battle, role and seed keeps its saves.
    game.set_name(save::unused_name(&common.saves, game.name()));
    Ok(Some((game, outputs)))
}

/// Colour and width for standard output: colour on a terminal unless
/// `NO_COLOR` is set, the terminal's width (else `COLUMNS`, else 80).
fn output_style(stdout_tty: bool) -> Style {
    let colour = stdout_tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let columns = if stdout_tty {
        terminal_size::terminal_size()
            .map(|(w, _)| usize::from(w.0))
            .unwrap_or(80)
    } else {
        std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(80)
    }
    .clamp(20, 1000);
    Style { colour, columns }
}

/// The battle menu: a card for each, chosen by number, id or title.
fn battle_menu(scenes: &[Arc<Scene>], locale: Locale, columns: usize) -> Vec<MenuItem> {
    scenes
        .iter()
        .map(|s| MenuItem {
            label: battle_card(s, locale, columns),
            keys: std::iter::once(s.id().to_string())
                .chain(
                    [Locale::En, Locale::ZhHans]
                        .iter()
                        .map(|l| s.meta().title.get(*l).to_string()),
                )
                .collect(),
            name: s.meta().title.clone(),
        })
        .collect()
}

/// The commander menu: each playable role with his side, chosen by
/// number, id or name.
fn role_menu(roles: &[(&scene::Commander, &scene::Side)], locale: Locale) -> Vec<MenuItem> {
    roles
        .iter()
        .map(|(c, side)| {
            let side = side.name.get(locale).to_string();
            let label = msg(
                locale,
                MenuMsg::RoleItem {
                    name: c.name.get(locale),
                    id: &c.id,
                    side: &side,
                },
            );
            MenuItem {
                label,
                keys: std::iter::once(c.id.clone())
                    .chain(
                        [Locale::En, Locale::ZhHans]
                            .iter()
                            .map(|l| c.name.get(*l).to_string()),
                    )
                    .collect(),
                name: c.name.clone(),
            }
        })
        .collect()
}

/// The `--transcript` file, created (never through a link) with its head
/// written.
fn open_transcript(
    path: &std::path::Path,
    game: &Game,
    locale: Locale,
    common: &Common,
) -> Result<(PathBuf, Box<dyn Write>)> {
    let mut file = crate::files::create_plain(path)
        .with_context(|| format!("cannot create the transcript {}", path.display()))?;
    file.write_all(transcript_header(game, locale, common.dir.scenes.as_deref()).as_bytes())
        .with_context(|| format!("cannot write the transcript {}", path.display()))?;
    Ok((
        path.to_path_buf(),
        Box::new(std::io::BufWriter::new(file)) as Box<dyn Write>,
    ))
}

/// The head of a `--transcript` file: what is needed to play the game again
/// (`scenes`: the folder the battle was read from, if not the shipped ones).
pub fn transcript_header(game: &Game, locale: Locale, scenes: Option<&std::path::Path>) -> String {
    let scene = game.scene();
    let mut others = match game.policies().0 {
        Policy::Historical => String::new(),
        other => format!(" --policy-other {}", other.name()),
    };
    if let Some(dir) = scenes {
        others.push_str(&format!(" --scenes {}", dir.display()));
    }
    format!(
        "# xiaoling {} transcript\n# battle: {} ({})\n# role: {}\n# seed: {}\n# language: {}\n# again: xiaoling play --scene {} --role {} --seed {} --lang {}{others}\n\n",
        env!("CARGO_PKG_VERSION"),
        scene.id(),
        scene.meta().title.get(locale),
        game.role(),
        game.seed(),
        locale.tag(),
        scene.id(),
        game.role(),
        game.seed(),
        locale.tag()
    )
}

/// One entry of a start menu: what is shown, and the words that pick it
/// besides its number (its id and its names).
/// What the player chose at the offer of games left off.
enum Offered {
    Resume(String),
    New,
    Leave,
}

/// The games left off as loading them goes on: an autosave whose journal
/// holds later turns (format 5) is offered at the turn loading reaches, not
/// at its own point, and not at all when those turns ended the battle. One
/// that does not load is offered as it is (choosing it says why).
fn reached(
    dir: &std::path::Path,
    mut points: Vec<save::SlotInfo>,
    scenes: &[Arc<Scene>],
) -> Vec<save::SlotInfo> {
    save::reached(dir, &mut points, scenes);
    points.retain(|point| point.summary.as_ref().map_or(true, |s| !s.over));
    points
}

/// "Go on with a game?": the folder's games left off, newest first, and a
/// new game last.
fn offer_resume(
    input: &mut dyn repl::LineSource,
    out: &mut dyn Write,
    (locale, columns): (Locale, usize),
    points: &[save::SlotInfo],
    scenes: &[Arc<Scene>],
) -> Result<Offered> {
    // Each label hangs under its own first word, after "  N. ".
    let hang = " ".repeat(format!("  {}. ", points.len() + 1).len());
    let mut items: Vec<MenuItem> = points
        .iter()
        .filter_map(|point| {
            let summary = point.summary.as_ref().ok()?;
            let scene = scenes.iter().find(|s| s.id() == summary.scene)?;
            let title = scene.meta().title.get(locale);
            let who = scene
                .commander(&summary.role)
                .map_or(summary.role.clone(), |c| c.name.get(locale).to_string());
            let when = save::timestamp(summary.saved_at);
            let label = msg(
                locale,
                SessionMsg::ResumeItem {
                    title,
                    who: &who,
                    turn: summary.turn,
                    when: &when,
                    slot: &point.slot,
                },
            );
            let label = repl::wrap::wrap(&label, columns, &hang)
                .trim_start()
                .to_string();
            Some(MenuItem {
                label,
                keys: vec![point.slot.clone()],
                name: scene::Text::Plain(point.slot.clone()),
            })
        })
        .collect();
    if items.is_empty() {
        return Ok(Offered::New);
    }
    items.push(MenuItem {
        label: ui(locale, Ui::NewGame).to_string(),
        keys: vec![
            "new".to_string(),
            ui(Locale::En, Ui::NewGame).to_string(),
            ui(Locale::ZhHans, Ui::NewGame).to_string(),
            ui(Locale::ZhHant, Ui::NewGame).to_string(),
        ],
        name: scene::Text::Plain("new".to_string()),
    });
    writeln!(out, "{}", ui(locale, Ui::GoOnWith)).map_err(stdout_error)?;
    let prompt = ui(locale, Ui::ChooseGame);
    Ok(match pick(input, out, locale, prompt, &items)? {
        Some(idx) if idx + 1 == items.len() => Offered::New,
        Some(idx) => items
            .get(idx)
            .and_then(|item| item.keys.first().cloned())
            .map_or(Offered::New, Offered::Resume),
        None => Offered::Leave,
    })
}

struct MenuItem {
    label: String,
    /// Its id and its name in English and Simplified.
    keys: Vec<String>,
    /// Its name, also matched in Traditional (made only when nothing else
    /// matched: zh-Hant is not built for a reader who does not use it).
    name: scene::Text,
}

/// The first thing a player sees: the title and what the game is.
fn welcome(out: &mut dyn Write, locale: Locale, columns: usize) -> Result<()> {
    let (title, what) = (ui(locale, Ui::WelcomeTitle), ui(locale, Ui::WelcomeWhat));
    let text = format!("{title}\n{}\n", repl::wrap::wrap(what, columns, ""));
    writeln!(out, "{text}").map_err(stdout_error)
}

/// A battle in the menu: its title and id, then its year and place, the
/// sides and who may be played, its length, and its hook.
fn battle_card(scene: &Scene, locale: Locale, columns: usize) -> String {
    let meta = scene.meta();
    let sides: Vec<String> = scene
        .sides()
        .iter()
        .map(|s| s.name.get(locale).to_string())
        .collect();
    let roles: Vec<String> = scene
        .roles_with_sides()
        .map(|(c, side)| {
            msg(
                locale,
                MenuMsg::RoleWithSide {
                    name: c.name.get(locale),
                    side: side.name.get(locale),
                },
            )
        })
        .collect();
    let length = msg(
        locale,
        MenuMsg::BattleLength {
            max_turns: meta.max_turns,
            turn_minutes: meta.turn_minutes,
        },
    );
    let mut lines = vec![format!("{} ({})", meta.title.get(locale), scene.id())];
    let when = msg(
        locale,
        MenuMsg::CardWhen {
            date: meta.date.get(locale),
            place: meta.place.get(locale),
        },
    );
    let who = msg(
        locale,
        MenuMsg::CardWho {
            sides: &sides,
            roles: &roles,
            length: &length,
        },
    );
    for line in [when, who] {
        lines.push(repl::wrap::wrap(&line, columns, "     "));
    }
    if let Some(hook) = &meta.hook {
        lines.push(repl::wrap::wrap(hook.get(locale), columns, "     "));
    }
    lines.join("\n")
}

/// Asks for one of `items` by number, id or name; None when the player
/// leaves (`quit`, Ctrl-C, end of input).
fn pick(
    input: &mut dyn repl::LineSource,
    out: &mut dyn Write,
    locale: Locale,
    prompt: &str,
    items: &[MenuItem],
) -> Result<Option<usize>> {
    if items.len() == 1 {
        return Ok(Some(0));
    }
    let n = items.len();
    for (i, item) in items.iter().enumerate() {
        writeln!(out, "  {}. {}", i + 1, item.label).map_err(stdout_error)?;
    }
    let prompt = format!("{prompt} 1-{n}> ");
    loop {
        let line = match input.read(&prompt) {
            repl::Line::Text(line) => line,
            repl::Line::Interrupted | repl::Line::Eof | repl::Line::Broken(_) => return Ok(None),
            repl::Line::Refused(_) => String::from("\u{0}"),
        };
        let clean = repl::commands::clean(&line);
        let word = clean.trim();
        if !input.echoes() {
            let shown = repl::commands::shorten(word, repl::MAX_ECHO_CHARS);
            writeln!(out, "{}", format!("{prompt}{shown}").trim_end()).map_err(stdout_error)?;
        }
        let lower = word.to_lowercase();
        if ["quit", "q", "exit"].contains(&lower.as_str()) {
            return Ok(None);
        }
        if let Ok(k) = word.parse::<usize>()
            && word.chars().all(|c| c.is_ascii_digit())
            && (1..=n).contains(&k)
        {
            return Ok(Some(k - 1));
        }
        if !word.is_empty()
            && let Some(idx) = items
                .iter()
                .position(|item| item.keys.iter().any(|k| k.to_lowercase() == lower))
                .or_else(|| {
                    items.iter().position(|item| {
                        !word.is_ascii() && item.name.get(Locale::ZhHant).to_lowercase() == lower
                    })
                })
        {
            return Ok(Some(idx));
        }
        let asked = ["help", "h", "?"].contains(&lower.as_str());
        let text = msg(locale, MenuMsg::PickHelp { n, asked });
        writeln!(out, "{text}").map_err(stdout_error)?;
    }
}

fn simulate(args: SimulateArgs, dir: &SceneDir) -> Result<ExitCode> {
    // The battle played is the only one parsed, as for `play --scene`.
    let scene = match shipped_named(&args.scene, dir) {
        Some(scene) => scene,
        None => find_scene(&load_scenes(dir)?, &args.scene, Locale::En)?,
    };
    check_role(&scene, &args.role, Locale::En)?;
    if args.runs == 0 {
        bail!("--runs must be at least 1");
    }
    let both = args.policy.map(Policy::from);
    let policies = Policies {
        player: args
            .policy_player
            .map(Policy::from)
            .or(both)
            .unwrap_or_default(),
        other: args
            .policy_other
            .map(Policy::from)
            .or(both)
            .unwrap_or_default(),
    };
    let threads = args
        .threads
        .map_or_else(rayon::current_num_threads, usize::from);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")?;
    let played = AtomicU32::new(0);
    let started = Instant::now();
    let report = std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            pool.install(|| {
                simulate_counted(&scene, &args.role, args.runs, args.seed, policies, &played)
            })
        });
        if std::io::stderr().is_terminal() {
            show_progress(&worker, &played, args.runs, started);
        }
        worker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
    .map_err(|e| anyhow!("{e}"))?;
    let seconds = started.elapsed().as_secs_f64();
    // The time goes to stderr: stdout (the table or the JSON) stays the same
    // for the same arguments.
    eprintln!("{}", throughput(args.runs, seconds, threads));
    let mut out = std::io::stdout().lock();
    if args.json {
        let json = serde_json::to_string(&report).context("cannot write the report as JSON")?;
        writeln!(out, "{json}").map_err(stdout_error)?;
    } else {
        write!(out, "{}", simulate_table(&scene, &report)).map_err(stdout_error)?;
    }
    out.flush().map_err(stdout_error)?;
    Ok(ExitCode::SUCCESS)
}

/// A bar on stderr while the games are played, shown only once they have
/// taken a second (a short run prints nothing), and cleared at the end.
fn show_progress<T>(
    worker: &std::thread::ScopedJoinHandle<'_, T>,
    played: &AtomicU32,
    runs: u32,
    started: Instant,
) {
    let mut bar: Option<indicatif::ProgressBar> = None;
    while !worker.is_finished() {
        std::thread::sleep(Duration::from_millis(50));
        if bar.is_none() && started.elapsed() >= Duration::from_secs(1) {
            let style =
                indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games, {msg}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
            bar = Some(indicatif::ProgressBar::new(u64::from(runs)).with_style(style));
        }
        if let Some(bar) = &bar {
            // The rate over the whole run so far, not indicatif's estimate
            // (the bar starts a second late, so its first step is a jump).
            let done = played.load(Ordering::Relaxed);
            let seconds = started.elapsed().as_secs_f64();
            let rate = f64::from(done) / seconds.max(1e-9);
            let left = if rate > 0.0 {
                format!("{:.0} s left", f64::from(runs.saturating_sub(done)) / rate)
            } else {
                "starting".to_string()
            };
            bar.set_message(format!("{} a second, {left}", thousands(rate)));
            bar.set_position(u64::from(done));
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
}

/// "4000 games in 1.85 s on 1 thread: 2,162 a second, 2,162 per thread".
fn throughput(runs: u32, seconds: f64, threads: usize) -> String {
    let per_second = f64::from(runs) / seconds.max(1e-9);
    format!(
        "{runs} games in {seconds:.2} s on {threads} thread{}: {} a second, {} per thread",
        if threads == 1 { "" } else { "s" },
        thousands(per_second),
        thousands(per_second / threads as f64),
    )
}

/// A rate rounded to a whole number with commas between the thousands:
/// 15,000 (0 for anything below 0.5, or not a number).
fn thousands(value: f64) -> String {
    // `as` saturates, and takes NaN to 0.
    crate::stdx::group_thousands(value.max(0.0).round() as u64)
}

/// The report as a table for reading.
fn simulate_table(scene: &Scene, report: &Report) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} as {}: {} runs from seed {}; policies: player {}, other side {}",
        report.scene,
        report.role,
        report.runs,
        report.seed,
        report.policies.player.name(),
        report.policies.other.name()
    );
    let _ = writeln!(out, "mean length: {:.1} turns", report.mean_turns);
    let _ = writeln!(out, "endings:");
    for share in &report.ending_shares {
        let first = report
            .first_seed
            .get(&share.id)
            .copied()
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  {:<28} {:>6}  {:>5.1}% ±{:>4.1}  (first: --seed {first})",
            share.id,
            share.count,
            100.0 * share.share,
            100.0 * share.interval95
        );
    }
    let _ = writeln!(out, "mean losses:");
    for (side, mean) in &report.mean_losses {
        let _ = writeln!(out, "  {side:<28} {mean:>8.0}");
    }
    let _ = writeln!(out, "turning points reached (option: times):");
    for tp in scene.turning_points() {
        let taken: Vec<String> = tp
            .options
            .iter()
            .map(|o| {
                let games = report.option(&tp.id, &o.id).map_or(0, |r| r.games);
                format!("{}: {games}", o.id)
            })
            .collect();
        let _ = writeln!(out, "  {:<20} {}", tp.id, taken.join(", "));
    }
    let _ = writeln!(
        out,
        "by option (games: endings, share ±95 %; mean losses by side):"
    );
    for option in &report.options {
        let endings: Vec<String> = option
            .ending_shares
            .iter()
            .map(|s| {
                format!(
                    "{} {:.0}%±{:.0}",
                    s.id,
                    100.0 * s.share,
                    100.0 * s.interval95
                )
            })
            .collect();
        let losses: Vec<String> = option
            .mean_losses
            .iter()
            .map(|(side, mean)| format!("{side} {mean:.0}"))
            .collect();
        let _ = writeln!(
            out,
            "  {}/{} ({}): {}; {}",
            option.turning_point,
            option.option,
            option.games,
            endings.join(", "),
            losses.join(", ")
        );
    }
    out
}

fn graph(id: &str, dir: &SceneDir) -> Result<ExitCode> {
    let scenes = load_scenes(dir)?;
    let scene = find_scene(&scenes, id, Locale::En)?;
    let mut out = std::io::stdout().lock();
    write!(out, "{}", crate::graph::graph_dot(&scene)).map_err(stdout_error)?;
    out.flush().map_err(stdout_error)?;
    Ok(ExitCode::SUCCESS)
}

/// `replay NAME` of a game its journal alone stands for (a new game before
/// its first checkpoint): its commands replayed from the seed of the
/// journal's head, every fingerprint the journal holds compared. Refused,
/// as `play --load` refuses it, when it does not load.
/// `replay` of a game by its journal: one with no slot yet (`alone`), or
/// one whose resume point cannot be read.
fn replay_journal(
    name: &str,
    saves: &std::path::Path,
    scenes: &[Arc<Scene>],
    alone: bool,
    note: Option<String>,
) -> Result<ExitCode> {
    save::load(saves, name, scenes)?;
    let (report, shown, seed, changed) = save::replay_journal(saves, name, scenes)?;
    let mut out = std::io::stdout().lock();
    // Said once the journal is known to load (else its error alone is).
    if let Some(note) = note {
        writeln!(out, "{note}").map_err(stdout_error)?;
    }
    if changed {
        writeln!(
            out,
            "note: the battle (or its rules) has changed since this game's journal was begun"
        )
        .map_err(stdout_error)?;
    }
    if report.reproduces() {
        writeln!(
            out,
            "ok: {} commands of the journal {shown} replayed from seed {seed}; every fingerprint it holds is reproduced exactly{}",
            report.ran,
            if alone { " (the game has no slot yet)" } else { "" }
        )
        .map_err(stdout_error)?;
        Ok(ExitCode::SUCCESS)
    } else {
        writeln!(out, "{shown}: replay differs: {}", report.describe()).map_err(stdout_error)?;
        Ok(ExitCode::from(1))
    }
}

fn replay(target: &str, saves: &std::path::Path, dir: &SceneDir) -> Result<ExitCode> {
    let scenes = load_scenes(dir)?;
    let named = !(target.ends_with(".ron") || target.contains(std::path::MAIN_SEPARATOR));
    let path = if named {
        save::slot_path(saves, target)?
    } else {
        PathBuf::from(target)
    };
    if named && !path.exists() && save::journal_only(saves, target) {
        return replay_journal(target, saves, &scenes, true, None);
    }
    let file = match save::read(&path) {
        // As `play --load` does: a game's resume point that cannot be read
        // stands aside for its journal, which holds the whole game.
        Err(save::SaveError::Damaged(shown, why)) if named && save::rebuildable(saves, target) => {
            let note = format!(
                "note: {shown} cannot be read ({why}); the game's journal is replayed instead"
            );
            return replay_journal(target, saves, &scenes, false, Some(note));
        }
        other => other?,
    };
    // One rule with `play --load`: a save the game would refuse to load is
    // refused here too, with the same words (exit 2); one it loads is
    // replayed, and a difference is exit 1.
    save::restore(&path.display().to_string(), file.clone(), &scenes)?;
    let scene = find_scene(&scenes, &file.scene, Locale::En)
        .with_context(|| format!("cannot replay {}", path.display()))?;
    let (mut game, _) = Game::with_policies(
        Arc::clone(&scene),
        &file.role,
        file.seed,
        file.policies.others.into(),
        file.policies.player.map(Into::into),
    )
    .map_err(|e| anyhow!("cannot replay {}: {e}", path.display()))?;
    let report = save::replay(&mut game, &file);
    let mut out = std::io::stdout().lock();
    if file.damaged {
        // Said first, as `play --load` says it: what differs below may be
        // the change, not the engine.
        writeln!(
            out,
            "note: {} was changed after it was written (its checksum does not match); its commands are checked against the state it says now",
            path.display()
        )
        .map_err(stdout_error)?;
    }
    if scene.content_hash != file.scene_hash || !save::rules_match(&scene, file.rules_hash) {
        writeln!(
            out,
            "note: the battle `{}` (or its rules) has changed since this save was made",
            file.scene
        )
        .map_err(stdout_error)?;
    }
    if report.reproduces() {
        writeln!(
            out,
            "ok: {} commands replayed from seed {}; the saved state is reproduced exactly",
            report.ran, file.seed
        )
        .map_err(stdout_error)?;
        // An autosave that loading takes on through its journal: what was
        // checked is its own point, not the turn a load reaches.
        let slot = path.file_stem().map(|s| s.to_string_lossy().to_string());
        let folder = path.parent().unwrap_or(std::path::Path::new("."));
        if let Some(slot) = slot
            && let Ok(loaded) = save::load(folder, &slot, &scenes)
            && loaded.game.turn() > file.turn
        {
            writeln!(
                out,
                "note: that is the autosave's own point, turn {}; loading it goes on through the game's journal to turn {}",
                file.turn,
                loaded.game.turn()
            )
            .map_err(stdout_error)?;
        }
        Ok(ExitCode::SUCCESS)
    } else {
        writeln!(
            out,
            "{}: replay differs: {}",
            path.display(),
            report.describe()
        )
        .map_err(stdout_error)?;
        Ok(ExitCode::from(1))
    }
}

#[cfg(test)]
mod tests {
    use super::{thousands, throughput};

    #[test]
    fn a_rate_is_rounded_then_grouped() {
        assert_eq!(thousands(999.4), "999");
        assert_eq!(thousands(15_000.2), "15,000");
        assert_eq!(thousands(-3.0), "0");
        assert_eq!(thousands(f64::NAN), "0");
    }

    #[test]
    fn throughput_gives_the_rate_per_thread() {
        assert_eq!(
            throughput(4000, 2.0, 2),
            "4000 games in 2.00 s on 2 threads: 2,000 a second, 1,000 per thread"
        );
        assert_eq!(
            throughput(10, 0.5, 1),
            "10 games in 0.50 s on 1 thread: 20 a second, 20 per thread"
        );
    }
}
