//! The command line: `xiaoling [play] …`, `scenes`, `check`, `simulate`,
//! `graph`, `replay`. Parsing with clap; each subcommand is a function that
//! returns an exit code, and only this layer and the REPL touch the terminal.

use crate::repl::render::Style;
use crate::repl::{self, Options, Piped, Session, Terminal};
use crate::save;
use crate::scene::{self, Condition, Locale, Scene};
use crate::story::{Game, Policy};
use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

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
    Check {
        /// Files or folders; default: the scenes folder.
        paths: Vec<PathBuf>,
    },
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
    #[arg(long, value_enum, default_value_t = PolicyArg::Historical)]
    policy: PolicyArg,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(ValueEnum, Debug, Clone, Copy)]
enum PolicyArg {
    Historical,
    Random,
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
        Some(Cmd::Scenes) => list_scenes(&common.dir),
        Some(Cmd::Check { paths }) => check(paths),
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

fn find_scene(scenes: &[Arc<Scene>], id: &str) -> Result<Arc<Scene>> {
    scenes
        .iter()
        .find(|s| s.id() == id)
        .cloned()
        .ok_or_else(|| {
            let ids: Vec<&str> = scenes.iter().map(|s| s.id()).collect();
            anyhow!("no battle `{id}`; battles: {}", ids.join(", "))
        })
}

fn check_role(scene: &Scene, role: &str) -> Result<()> {
    if scene.meta().playable.iter().any(|r| r == role) {
        Ok(())
    } else {
        bail!(
            "no role `{role}` in `{}`; roles: {}",
            scene.id(),
            scene.meta().playable.join(", ")
        )
    }
}

fn list_scenes(dir: &SceneDir) -> Result<ExitCode> {
    let scenes = load_scenes(dir)?;
    let mut out = std::io::stdout().lock();
    for scene in &scenes {
        let title = scene.meta().title.get(Locale::En);
        let zh = scene.meta().title.get(Locale::ZhHans);
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

fn check(paths: Vec<PathBuf>) -> Result<ExitCode> {
    let paths = if paths.is_empty() {
        vec![PathBuf::from("scenes")]
    } else {
        paths
    };
    let (checked, problems) = scene::check_paths(&paths);
    let mut stderr = std::io::stderr().lock();
    for problem in &problems {
        let _ = write!(stderr, "{problem}");
        let _ = writeln!(stderr);
    }
    if problems.is_empty() {
        writeln!(
            std::io::stdout(),
            "ok: {checked} file(s) checked, no problems"
        )
        .map_err(stdout_error)?;
        Ok(ExitCode::SUCCESS)
    } else {
        let _ = writeln!(stderr, "{} problem(s) found", problems.len());
        Ok(ExitCode::from(1))
    }
}

/// Output to standard output failed: a clear error (exit status 2).
fn stdout_error(err: std::io::Error) -> anyhow::Error {
    anyhow!("cannot write to standard output: {err}")
}

fn play(args: PlayArgs, common: &Common) -> Result<ExitCode> {
    // A start that names a shipped battle parses that one alone; the others
    // wait until a save of theirs is loaded.
    let one = match (&args.scene, &common.dir.scenes, &args.load) {
        (Some(id), None, None) => match scene::load_embedded_one(id) {
            Some(Ok(scene)) if scene.id() == id => Some(Arc::new(scene)),
            _ => None,
        },
        _ => None,
    };
    let partial = one.is_some();
    let scenes = match one {
        Some(scene) => vec![scene],
        None => load_scenes(&common.dir)?,
    };
    // Temp files of saves a crash or a kill interrupted.
    crate::files::remove_stale_temps(&common.saves);
    let stdin_tty = std::io::stdin().is_terminal();
    let stdout_tty = std::io::stdout().is_terminal();
    let locale = match &common.lang {
        Some(tag) => Locale::parse(tag)
            .ok_or_else(|| anyhow!("unknown language `{tag}`; use en, zh-Hans or zh-Hant"))?,
        None => Locale::En,
    };
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
    let options = Options {
        locale,
        style: Style { colour, columns },
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

    let (game, outputs, loaded) = if let Some(slot) = &args.load {
        let loaded = save::load(&common.saves, slot, &scenes)?;
        (
            loaded.game,
            Vec::new(),
            Some((loaded.transcript, loaded.notice)),
        )
    } else {
        let scene = match &args.scene {
            Some(id) => find_scene(&scenes, id)?,
            None => {
                let items: Vec<MenuItem> = scenes
                    .iter()
                    .map(|s| MenuItem {
                        label: format!("{} ({})", s.meta().title.get(locale), s.id()),
                        keys: std::iter::once(s.id().to_string())
                            .chain(
                                [Locale::En, Locale::ZhHans]
                                    .iter()
                                    .map(|l| s.meta().title.get(*l).to_string()),
                            )
                            .collect(),
                        name: s.meta().title.clone(),
                    })
                    .collect();
                let prompt = if locale.is_chinese() {
                    locale.zh("选择战役")
                } else {
                    "Choose a battle"
                };
                match pick(input.as_mut(), &mut stdout, locale, prompt, &items)? {
                    Some(idx) => Arc::clone(&scenes[idx]),
                    None => return Ok(ExitCode::SUCCESS),
                }
            }
        };
        let role = match &args.role {
            Some(role) => {
                check_role(&scene, role)?;
                role.clone()
            }
            None => {
                let roles: Vec<&scene::Commander> = scene.roles().collect();
                let items: Vec<MenuItem> = roles
                    .iter()
                    .map(|c| {
                        let side = scene
                            .side_idx(&c.side)
                            .and_then(|s| scene.sides().get(s))
                            .map(|s| s.name.get(locale).to_string())
                            .unwrap_or_default();
                        let label = if locale.is_chinese() {
                            format!("{}（{}）· {side}", c.name.get(locale), c.id)
                        } else {
                            format!("{} ({}), {side}", c.name.get(locale), c.id)
                        };
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
                    .collect();
                let prompt = if locale.is_chinese() {
                    locale.zh("选择统帅")
                } else {
                    "Choose your commander"
                };
                match pick(input.as_mut(), &mut stdout, locale, prompt, &items)? {
                    Some(idx) => roles[idx].id.clone(),
                    None => return Ok(ExitCode::SUCCESS),
                }
            }
        };
        let seed = args.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs() % 100_000)
                .unwrap_or(1)
        });
        let (game, outputs) = Game::new(scene, &role, seed).map_err(|err| anyhow!("{err}"))?;
        (game, outputs, None)
    };

    let transcript_file = match &args.transcript {
        Some(path) => {
            let mut file = std::fs::File::create(path)
                .with_context(|| format!("cannot create the transcript {}", path.display()))?;
            file.write_all(transcript_header(&game, locale).as_bytes())
                .with_context(|| format!("cannot write the transcript {}", path.display()))?;
            Some((
                path.clone(),
                Box::new(std::io::BufWriter::new(file)) as Box<dyn Write>,
            ))
        }
        None => None,
    };
    let mut session = Session::new(game, options, scenes.clone(), &mut stdout);
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
    if let Some((path, file)) = transcript_file {
        session = session.with_transcript_file(path, file);
    }
    match loaded {
        Some((transcript, notice)) => {
            session = session.with_transcript(transcript);
            if let Some(notice) = notice {
                session.handle_notice(&notice);
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

/// The head of a `--transcript` file: what is needed to play the game again.
pub fn transcript_header(game: &Game, locale: Locale) -> String {
    let scene = game.scene();
    format!(
        "# xiaoling {} transcript\n# battle: {} ({})\n# role: {}\n# seed: {}\n# language: {}\n# again: xiaoling play --scene {} --role {} --seed {} --lang {}\n\n",
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
struct MenuItem {
    label: String,
    /// Its id and its name in English and Simplified.
    keys: Vec<String>,
    /// Its name, also matched in Traditional (made only when nothing else
    /// matched: zh-Hant is not built for a reader who does not use it).
    name: scene::Text,
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
    let zh = locale.is_chinese();
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
        let text = match (["help", "h", "?"].contains(&lower.as_str()), zh) {
            (true, false) => format!(
                "Type a number from 1 to {n}, or the id or name shown; `quit` (or Ctrl-C) leaves."
            ),
            (true, true) => locale.zh_string(format!(
                "输入 1 到 {n} 的数字，或所列的 id、名字；quit（或 Ctrl-C）退出。"
            )),
            (false, false) => {
                format!("Type a number from 1 to {n}, or the id or name shown (`help`, `quit`).")
            }
            (false, true) => locale.zh_string(format!(
                "请输入 1 到 {n} 的数字，或所列的 id、名字（help、quit）。"
            )),
        };
        writeln!(out, "{text}").map_err(stdout_error)?;
    }
}

/// Outcome counts of automatic play-throughs.
#[derive(Debug, Default)]
pub struct SimulationReport {
    pub runs: u32,
    pub endings: BTreeMap<String, u32>,
    /// Mean losses by side id.
    pub losses: BTreeMap<String, f64>,
    /// How often each (turning point, option) was taken.
    pub choices: BTreeMap<(String, String), u32>,
    pub turns: f64,
    /// The games that took each (turning point, option): where they ended
    /// and what they cost, so an author sees which option leads where.
    pub options: BTreeMap<(String, String), OptionReport>,
    /// The first seed that reached each ending (`play --seed` replays it).
    pub first_seed: BTreeMap<String, u64>,
}

/// The games that took one option.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct OptionReport {
    pub games: u32,
    pub endings: BTreeMap<String, u32>,
    /// Mean losses by side id.
    pub losses: BTreeMap<String, f64>,
}

/// Half the width of a 95 % interval for a share `hits / games` (normal
/// approximation with a continuity floor), as a share.
pub fn interval95(hits: u32, games: u32) -> f64 {
    if games == 0 {
        return 0.0;
    }
    let n = f64::from(games);
    let p = f64::from(hits) / n;
    1.96 * (p * (1.0 - p) / n).sqrt() + 0.5 / n
}

/// Plays `runs` games of `scene` as `role`, seeds `seed..seed+runs`, both sides by `policy`.
///
/// The runs are shared out over all cores (rayon); each worker plays its runs
/// in one game restarted per seed (world and schedule reused, no undo). The
/// outcomes are folded in run order, so the report is the same, to the last
/// bit of every mean, whatever the number of threads.
pub fn simulate_games(
    scene: &Arc<Scene>,
    role: &str,
    runs: u32,
    seed: u64,
    policy: Policy,
) -> Result<SimulationReport> {
    use rayon::prelude::*;

    /// What one run contributes to the report.
    struct Outcome {
        ending: String,
        losses: Vec<f64>,
        chosen: Vec<(String, String)>,
        turns: u32,
    }
    // The policies hold from the opening, so a point put before the first
    // turn is decided by them too.
    let open = || {
        Game::with_policies(Arc::clone(scene), role, seed, policy, Some(policy))
            .map(|(mut game, _)| {
                game.keep_undo(false);
                game.tell_story(false);
                game
            })
            .map_err(|e| anyhow!("{e}"))
    };
    open()?;
    let outcomes: Vec<Result<Outcome>> = (0..runs)
        .into_par_iter()
        .map_init(open, |game, run| {
            let game = game.as_mut().map_err(|e| anyhow!("{e}"))?;
            game.restart(seed.wrapping_add(u64::from(run)));
            let limit = scene.meta().max_turns.saturating_add(5);
            while !game.is_over() && game.turn() <= limit {
                if game.auto_step().is_err() {
                    break;
                }
            }
            let world = game.world();
            Ok(Outcome {
                ending: game
                    .story()
                    .ended
                    .clone()
                    .unwrap_or_else(|| "unfinished".to_string()),
                losses: (0..scene.sides().len())
                    .map(|side| f64::from(world.side_losses(game.field(), side)))
                    .collect(),
                chosen: game.story().chosen.clone(),
                turns: game.turn(),
            })
        })
        .collect();
    let mut report = SimulationReport {
        runs,
        ..Default::default()
    };
    for (run, outcome) in outcomes.into_iter().enumerate() {
        let outcome = outcome?;
        report
            .first_seed
            .entry(outcome.ending.clone())
            .or_insert(seed.wrapping_add(run as u64));
        *report.endings.entry(outcome.ending.clone()).or_default() += 1;
        for (side, lost) in scene.sides().iter().zip(&outcome.losses) {
            *report.losses.entry(side.id.clone()).or_default() += lost;
        }
        for choice in outcome.chosen {
            let option = report.options.entry(choice.clone()).or_default();
            option.games += 1;
            *option.endings.entry(outcome.ending.clone()).or_default() += 1;
            for (side, lost) in scene.sides().iter().zip(&outcome.losses) {
                *option.losses.entry(side.id.clone()).or_default() += lost;
            }
            *report.choices.entry(choice).or_default() += 1;
        }
        report.turns += f64::from(outcome.turns);
    }
    let n = f64::from(runs.max(1));
    for value in report.losses.values_mut() {
        *value /= n;
    }
    for option in report.options.values_mut() {
        let games = f64::from(option.games.max(1));
        for value in option.losses.values_mut() {
            *value /= games;
        }
    }
    report.turns /= n;
    Ok(report)
}

fn simulate(args: SimulateArgs, dir: &SceneDir) -> Result<ExitCode> {
    let scenes = load_scenes(dir)?;
    let scene = find_scene(&scenes, &args.scene)?;
    check_role(&scene, &args.role)?;
    if args.runs == 0 {
        bail!("--runs must be at least 1");
    }
    let policy = match args.policy {
        PolicyArg::Historical => Policy::Historical,
        PolicyArg::Random => Policy::Random,
    };
    let report = simulate_games(&scene, &args.role, args.runs, args.seed, policy)?;
    let mut out = std::io::stdout().lock();
    let runs = f64::from(report.runs);
    if args.json {
        let endings: Vec<serde_json::Value> = report
            .endings
            .iter()
            .map(|(id, n)| {
                serde_json::json!({
                    "id": id,
                    "count": n,
                    "share": (f64::from(*n) / runs * 10_000.0).round() / 10_000.0,
                })
            })
            .collect();
        let losses: serde_json::Map<String, serde_json::Value> = report
            .losses
            .iter()
            .map(|(side, mean)| {
                (
                    side.clone(),
                    serde_json::json!((mean * 10.0).round() / 10.0),
                )
            })
            .collect();
        let choices: Vec<serde_json::Value> = report
            .choices
            .iter()
            .map(|((tp, option), n)| serde_json::json!({"tp": tp, "option": option, "count": n}))
            .collect();
        let round1 = |x: f64| (x * 10.0).round() / 10.0;
        let options: Vec<serde_json::Value> = report
            .options
            .iter()
            .map(|((tp, option), stats)| {
                serde_json::json!({
                    "turning_point": tp,
                    "option": option,
                    "games": stats.games,
                    "endings": stats.endings,
                    "mean_losses": stats
                        .losses
                        .iter()
                        .map(|(side, mean)| (side.clone(), serde_json::json!(round1(*mean))))
                        .collect::<serde_json::Map<String, serde_json::Value>>(),
                })
            })
            .collect();
        let json = serde_json::json!({
            "scene": scene.id(),
            "role": args.role,
            "runs": report.runs,
            "seed": args.seed,
            "mean_turns": (report.turns * 100.0).round() / 100.0,
            "endings": report.endings,
            "ending_shares": endings,
            "first_seed": report.first_seed,
            "mean_losses": losses,
            "choices": choices,
            "options": options,
        });
        writeln!(out, "{json}").map_err(stdout_error)?;
        out.flush().map_err(stdout_error)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "{} as {}: {} runs from seed {}, policy {:?}",
        scene.id(),
        args.role,
        report.runs,
        args.seed,
        policy
    )
    .map_err(stdout_error)?;
    writeln!(out, "mean length: {:.1} turns", report.turns).map_err(stdout_error)?;
    writeln!(out, "endings:").map_err(stdout_error)?;
    for (id, n) in &report.endings {
        let first = report.first_seed.get(id).copied().unwrap_or_default();
        writeln!(
            out,
            "  {id:<28} {n:>6}  {:>5.1}% ±{:>4.1}  (first: --seed {first})",
            100.0 * f64::from(*n) / runs,
            100.0 * interval95(*n, report.runs)
        )
        .map_err(stdout_error)?;
    }
    writeln!(out, "mean losses:").map_err(stdout_error)?;
    for (side, mean) in &report.losses {
        writeln!(out, "  {side:<28} {mean:>8.0}").map_err(stdout_error)?;
    }
    writeln!(out, "turning points reached (option: times):").map_err(stdout_error)?;
    for tp in scene.turning_points() {
        let taken: Vec<String> = tp
            .options
            .iter()
            .map(|o| {
                format!(
                    "{}: {}",
                    o.id,
                    report
                        .choices
                        .get(&(tp.id.clone(), o.id.clone()))
                        .copied()
                        .unwrap_or(0)
                )
            })
            .collect();
        writeln!(out, "  {:<20} {}", tp.id, taken.join(", ")).map_err(stdout_error)?;
    }
    writeln!(
        out,
        "by option (games: endings, share ±95 %; mean losses by side):"
    )
    .map_err(stdout_error)?;
    for ((tp, option), stats) in &report.options {
        let endings: Vec<String> = stats
            .endings
            .iter()
            .map(|(id, n)| {
                format!(
                    "{id} {:.0}%±{:.0}",
                    100.0 * f64::from(*n) / f64::from(stats.games.max(1)),
                    100.0 * interval95(*n, stats.games)
                )
            })
            .collect();
        let losses: Vec<String> = stats
            .losses
            .iter()
            .map(|(side, mean)| format!("{side} {mean:.0}"))
            .collect();
        writeln!(
            out,
            "  {tp}/{option} ({}): {}; {}",
            stats.games,
            endings.join(", "),
            losses.join(", ")
        )
        .map_err(stdout_error)?;
    }
    out.flush().map_err(stdout_error)?;
    Ok(ExitCode::SUCCESS)
}

/// The choice graph: turning points and their options, with an edge from an
/// option to every turning point, event or ending whose condition names it.
pub fn graph_dot(scene: &Scene) -> String {
    let mut dot = format!(
        "digraph \"{}\" {{\n  rankdir=LR;\n  node [fontname=\"sans-serif\"];\n",
        scene.id()
    );
    for tp in scene.turning_points() {
        dot.push_str(&format!(
            "  \"{}\" [shape=box, style=bold, label=\"★ {}\\n({})\"];\n",
            tp.id, tp.id, tp.role
        ));
        for option in &tp.options {
            let node = format!("{}/{}", tp.id, option.id);
            let style = if option.historical {
                ", style=filled, fillcolor=lightyellow"
            } else {
                ""
            };
            dot.push_str(&format!(
                "  \"{node}\" [shape=ellipse, label=\"{}\"{style}];\n",
                option.id
            ));
            dot.push_str(&format!("  \"{}\" -> \"{node}\";\n", tp.id));
        }
    }
    for event in scene.events() {
        dot.push_str(&format!(
            "  \"event:{}\" [shape=note, label=\"{}\"];\n",
            event.id, event.id
        ));
    }
    for ending in scene.endings() {
        dot.push_str(&format!(
            "  \"ending:{}\" [shape=doubleoctagon, label=\"{}\"];\n",
            ending.id, ending.id
        ));
    }
    let mut edges = Vec::new();
    let targets = scene
        .turning_points()
        .iter()
        .map(|t| (t.id.clone(), &t.when))
        .chain(
            scene
                .events()
                .iter()
                .map(|e| (format!("event:{}", e.id), &e.when)),
        )
        .chain(
            scene
                .endings()
                .iter()
                .map(|e| (format!("ending:{}", e.id), &e.when)),
        );
    for (target, when) in targets {
        let mut sources = Vec::new();
        mentions(when, &mut sources);
        for source in sources {
            edges.push(format!("  \"{source}\" -> \"{target}\" [style=dashed];\n"));
        }
    }
    edges.sort();
    edges.dedup();
    for edge in edges {
        dot.push_str(&edge);
    }
    dot.push_str("}\n");
    dot
}

fn mentions(condition: &Condition, out: &mut Vec<String>) {
    match condition {
        Condition::All(items) | Condition::Any(items) => {
            items.iter().for_each(|c| mentions(c, out))
        }
        Condition::Not(item) => mentions(item, out),
        Condition::Chosen { tp, option } => out.push(format!("{tp}/{option}")),
        Condition::Reached(tp) => out.push(tp.clone()),
        Condition::Happened(event) => out.push(format!("event:{event}")),
        _ => {}
    }
}

fn graph(id: &str, dir: &SceneDir) -> Result<ExitCode> {
    let scenes = load_scenes(dir)?;
    let scene = find_scene(&scenes, id)?;
    let mut out = std::io::stdout().lock();
    write!(out, "{}", graph_dot(&scene)).map_err(stdout_error)?;
    out.flush().map_err(stdout_error)?;
    Ok(ExitCode::SUCCESS)
}

fn replay(target: &str, saves: &std::path::Path, dir: &SceneDir) -> Result<ExitCode> {
    let scenes = load_scenes(dir)?;
    let path = if target.ends_with(".ron") || target.contains(std::path::MAIN_SEPARATOR) {
        PathBuf::from(target)
    } else {
        save::slot_path(saves, target)?
    };
    let file = save::read(&path)?;
    let scene = find_scene(&scenes, &file.scene)
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
    if scene.content_hash != file.scene_hash || save::rules_hash(&scene) != file.rules_hash {
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
