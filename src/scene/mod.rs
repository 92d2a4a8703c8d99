//! Scenes: RON text → raw serde types → validation → [`Scene`], its tables
//! lowered to typed ids (`tables.rs`) and its story resolved (`resolved.rs`).
//!
//! A `Scene` can only be made by [`parse_scene`], which checks every reference
//! and range first, so the rest of the engine may look ids up without failing.
//! Loading reports *every* problem in a file at once, each a [`Diagnostic`] with
//! file, line, column, the offending line and a hint.

pub mod diag;
pub mod hant;
mod lex;
mod lower;
mod parts;
pub mod placeholder;
pub mod raw;
pub mod resolved;
pub mod rules;
pub mod syntax;
mod tables;
pub mod text;
pub mod unheard;

pub use diag::Diagnostic;
// The file's types a reader of a `Scene` meets; the file's own rows of
// sides, zones, units and commanders, and the scene as read (`RawScene`),
// stay in `raw`, for those who write a scene in code.
pub use raw::{
    Choice, Claim, Cmp, Colour, Compass, Condition, Effect, Ending, Event, Fate, Meta, MoraleState,
    Obscurant, Origin, Prelude, Prose, Source, StartWind, Target, Text, TurningPoint, UnitKind,
    Variant, ZoneKind,
};
pub use resolved::{
    Act, CommanderId, Cond, EndingId, EventId, FileId, FlagId, ObscurantId, ROrder, RSecret,
    Resolved, RoleId, SideId, Targets, TpId, UnitId, WatchId, ZoneId,
};
pub use rules::{Crossing, KindRules, Lost, Rules, ZoneKindRules, ZoneKinds};
pub use tables::{Commander, Side, Unit, Zone};
pub use text::{Locale, LocaleMap};

use raw::RawScene;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The scenes shipped in the binary, so `xiaoling` plays from any directory.
pub const EMBEDDED_RULES: (&str, &str) = ("rules.ron", include_str!("../../scenes/rules.ron"));
pub const EMBEDDED_SCENES: &[(&str, &str)] = &[
    ("false-cry.ron", include_str!("../../scenes/false-cry.ron")),
    (
        "broken-bridge.ron",
        include_str!("../../scenes/broken-bridge.ron"),
    ),
    ("sarhu.ron", include_str!("../../scenes/sarhu.ron")),
];

/// A checked battle: every id it mentions exists and every number is in range.
#[derive(Debug, Clone)]
pub struct Scene {
    /// The file as read, but for the tables below (moved out at load).
    raw: RawScene,
    sides: Vec<Side>,
    zones: Vec<Zone>,
    units: Vec<Unit>,
    commanders: Vec<Commander>,
    rules: Rules,
    /// The file it came from (for messages) and a hash of its text (for saves).
    pub file: String,
    pub content_hash: u64,
    zone_index: IdIndex,
    side_index: IdIndex,
    unit_index: IdIndex,
    commander_index: IdIndex,
    /// Per zone, the zones adjacent to it (edges are both ways), sorted.
    adjacency: Vec<Vec<usize>>,
    /// Ids resolved to typed indices: what the engine reads at run time.
    resolved: Resolved,
    /// The hash of the rules, for saves: worked out at the first save.
    rules_hash: std::sync::OnceLock<u64>,
    /// The hash of the rules' RON text, as saves before held it: worked out
    /// only to read such a save.
    rules_text_hash: std::sync::OnceLock<u64>,
}

impl Scene {
    pub fn id(&self) -> &str {
        &self.raw.meta.id
    }
    pub fn meta(&self) -> &Meta {
        &self.raw.meta
    }
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The fingerprint of the rules (shared rules and overrides) by their
    /// values ([`crate::save::hash::by_words`]), as saves and journals hold
    /// it: worked out once, the rules never change. (A few thousand
    /// instructions; the hash of their RON text took some 250,000, paid by
    /// every session's first save.)
    pub fn rules_hash(&self) -> u64 {
        *self
            .rules_hash
            .get_or_init(|| crate::save::hash::by_words(&self.rules))
    }

    /// FNV-1a of the rules' RON text: what saves and journals held before
    /// [`Scene::rules_hash`], still matched when one is read.
    pub fn rules_text_hash(&self) -> u64 {
        *self
            .rules_text_hash
            .get_or_init(|| content_hash(&ron::to_string(&self.rules).unwrap_or_default()))
    }
    pub fn sides(&self) -> &[Side] {
        &self.sides
    }
    pub fn zones(&self) -> &[Zone] {
        &self.zones
    }
    pub fn units(&self) -> &[Unit] {
        &self.units
    }
    pub fn commanders(&self) -> &[Commander] {
        &self.commanders
    }
    pub fn turning_points(&self) -> &[TurningPoint] {
        &self.raw.turning_points
    }
    pub fn events(&self) -> &[Event] {
        &self.raw.events
    }
    pub fn atmosphere(&self) -> &[Variant] {
        &self.raw.atmosphere
    }
    pub fn endings(&self) -> &[Ending] {
        &self.raw.endings
    }
    pub fn prelude(&self) -> Option<&Prelude> {
        self.raw.prelude.as_ref()
    }
    /// The scene's obscurants besides smoke, in id order (their index is
    /// their place here).
    pub fn obscurants(&self) -> impl Iterator<Item = (&String, &Obscurant)> {
        self.raw.obscurants.iter()
    }
    pub fn obscurant_idx(&self, id: &str) -> Option<usize> {
        self.raw.obscurants.keys().position(|key| key == id)
    }
    pub fn zone_idx(&self, id: &str) -> Option<usize> {
        self.zone_index.find(&self.zones, id)
    }
    pub fn side_idx(&self, id: &str) -> Option<usize> {
        self.side_index.find(&self.sides, id)
    }
    pub fn unit_idx(&self, id: &str) -> Option<usize> {
        self.unit_index.find(&self.units, id)
    }
    pub fn commander_idx(&self, id: &str) -> Option<usize> {
        self.commander_index.find(&self.commanders, id)
    }
    pub fn commander(&self, id: &str) -> Option<&Commander> {
        self.commander_idx(id).map(|idx| &self.commanders[idx])
    }
    pub fn turning_point(&self, id: &str) -> Option<&TurningPoint> {
        self.raw.turning_points.iter().find(|tp| tp.id == id)
    }
    pub fn ending(&self, id: &str) -> Option<&Ending> {
        self.raw.endings.iter().find(|ending| ending.id == id)
    }
    /// The playable roles: commanders the player may take.
    pub fn roles(&self) -> impl Iterator<Item = &Commander> {
        self.roles_with_sides().map(|(commander, _)| commander)
    }
    /// The playable roles, each with his side.
    pub fn roles_with_sides(&self) -> impl Iterator<Item = (&Commander, &Side)> {
        self.resolved.roles.iter().filter_map(move |c| {
            let commander = self.commanders.get(c.idx())?;
            Some((commander, self.sides.get(commander.side.idx())?))
        })
    }
    /// The name of a side, zone, unit or commander: None for one of another scene.
    pub fn name(&self, named: resolved::Named) -> Option<&Text> {
        use resolved::Named;
        match named {
            Named::Side(id) => self.sides.get(id.idx()).map(|s| &s.name),
            Named::Zone(id) => self.zones.get(id.idx()).map(|z| &z.name),
            Named::Unit(id) => self.units.get(id.idx()).map(|u| &u.name),
            Named::Commander(id) => self.commanders.get(id.idx()).map(|c| &c.name),
        }
    }
    /// What the scene file calls `id` (what a save and a diagnostic write);
    /// "" for an id of another scene.
    pub fn id_of(&self, id: impl FileId) -> &str {
        id.file_id(self).unwrap_or("")
    }
    /// The id of kind `T` the file names `name` (a zone, unit, event…).
    pub fn find<T: FileId>(&self, name: &str) -> Option<T> {
        T::named(self, name)
    }
    /// The scene with its ids resolved: reference tables, and the story's
    /// conditions and effects in typed form.
    pub fn resolved(&self) -> &Resolved {
        &self.resolved
    }
    /// A condition written outside the scene (tests, tools), resolved
    /// against it: None when it names something the scene lacks.
    pub fn resolve_condition(&self, condition: &Condition) -> Option<Cond> {
        lower::condition(self, condition)
    }
    /// An effect written outside the scene, resolved against it.
    pub fn resolve_effect(&self, effect: &Effect) -> Option<Act> {
        lower::effect(self, effect)
    }
    /// Zone indices adjacent to `zone` (edges are both ways), ascending.
    pub fn neighbours(&self, zone: usize) -> Vec<usize> {
        self.adjacent(zone).to_vec()
    }
    /// [`Scene::neighbours`] without the copy: computed once, at load.
    /// What the zone's kind does (None only for a zone past the table: the
    /// lowering knows every zone's kind).
    pub fn kind_of(&self, zone: usize) -> Option<&ZoneKindRules> {
        self.rules.zone_kinds.get(&self.zones.get(zone)?.kind)
    }
    pub fn adjacent(&self, zone: usize) -> &[usize] {
        self.adjacency.get(zone).map_or(&[], Vec::as_slice)
    }
}

/// A loaded scene's tables, where a condition or effect written outside
/// the file looks its ids up.
impl resolved::Lookup for Scene {
    fn find(&self, table: resolved::Table, id: &str) -> Option<usize> {
        use resolved::Table;
        match table {
            Table::Zone => self.zone_idx(id),
            Table::Side => self.side_idx(id),
            Table::Unit => self.unit_idx(id),
            Table::Commander => self.commander_idx(id),
        }
    }
    fn ids(&self, table: resolved::Table) -> Vec<&str> {
        use resolved::Table;
        match table {
            Table::Zone => self.zones.iter().map(|z| z.id.as_str()).collect(),
            Table::Side => self.sides.iter().map(|s| s.id.as_str()).collect(),
            Table::Unit => self.units.iter().map(|u| u.id.as_str()).collect(),
            Table::Commander => self.commanders.iter().map(|c| c.id.as_str()).collect(),
        }
    }
    fn zone_kind(&self, zone: usize) -> Option<&ZoneKind> {
        self.zones.get(zone).map(|z| &z.kind)
    }
    fn kind_rules(&self, kind: &ZoneKind) -> Option<&rules::ZoneKindRules> {
        self.rules.zone_kinds.get(kind)
    }
    fn commander_side(&self, commander: usize) -> Option<&str> {
        let side = self.commanders.get(commander)?.side;
        self.sides.get(side.idx()).map(|s| s.id.as_str())
    }
    fn drums(&self, commander: usize) -> bool {
        self.commanders.get(commander).is_some_and(|c| c.drums)
    }
}

/// The ids of one list of a scene, for lookups by id: the list's indices in
/// the order of their ids, searched by halving. It holds no copy of an id
/// (4 bytes an item, where a map of id to index held the id again).
/// Validation lets no id repeat.
#[derive(Debug, Clone, Default)]
struct IdIndex(Box<[u32]>);

/// An item of a list with an id.
trait HasId {
    fn id(&self) -> &str;
}

macro_rules! has_id {
    ($($kind:ty),*) => {
        $(impl HasId for $kind {
            fn id(&self) -> &str {
                &self.id
            }
        })*
    };
}
has_id!(
    Zone,
    Side,
    Unit,
    Commander,
    raw::Zone,
    raw::Side,
    raw::Unit,
    raw::Commander
);

impl IdIndex {
    fn new<T: HasId>(items: &[T]) -> IdIndex {
        // A list of more than u32::MAX items cannot be loaded in memory.
        let mut order: Vec<u32> = (0..items.len())
            .map(|idx| u32::try_from(idx).unwrap_or(u32::MAX))
            .collect();
        order.sort_unstable_by(|&a, &b| items[a as usize].id().cmp(items[b as usize].id()));
        IdIndex(order.into_boxed_slice())
    }

    /// The index in `items` (the list this was made from) of the item `id`.
    fn find<T: HasId>(&self, items: &[T], id: &str) -> Option<usize> {
        let at = self
            .0
            .binary_search_by(|&idx| {
                items
                    .get(idx as usize)
                    .map_or(std::cmp::Ordering::Greater, |item| item.id().cmp(id))
            })
            .ok()?;
        Some(self.0[at] as usize)
    }
}

/// Parses and checks the shared rules file.
pub fn parse_rules(file: &str, source: &str) -> Result<Rules, Vec<Diagnostic>> {
    lower::rules(file, source)
}

/// Parses and checks one scene file against the rules.
pub fn parse_scene(file: &str, source: &str, rules: &Rules) -> Result<Scene, Vec<Diagnostic>> {
    let lower::Lowered {
        mut raw,
        rules,
        indexes,
        adjacency,
        refs,
        resolved,
    } = lower::scene(file, source, rules)?;
    // zh-Hant is made when a reader asks for it (`Text::get`): here each
    // text is only registered with the scene's terms, unless another scene
    // has the same text with other terms, when it is converted at once.
    let terms = std::mem::take(&mut raw.meta.zh_hant_terms);
    for_each_text(&mut raw, &mut |text| {
        if let Text::Localized(map) = text
            && !map.contains_key("zh-Hant")
            && let Some(simplified) = map.get("zh-Hans")
            && !hant::register(simplified, &terms)
        {
            let traditional = hant::to_traditional_with(simplified, &terms);
            map.insert("zh-Hant", &traditional);
        }
    });
    raw.meta.zh_hant_terms = terms;
    // The lists were read without knowing their length, so each may have
    // room for as many items again; what is kept for the battle's life is
    // only what it holds.
    raw.sides.shrink_to_fit();
    raw.zones.shrink_to_fit();
    raw.commanders.shrink_to_fit();
    raw.units.shrink_to_fit();
    let tables = tables::lower(&mut raw, refs);
    Ok(Scene {
        sides: tables.sides,
        zones: tables.zones,
        units: tables.units,
        commanders: tables.commanders,
        adjacency,
        zone_index: indexes.zones,
        side_index: indexes.sides,
        unit_index: indexes.units,
        commander_index: indexes.commanders,
        content_hash: content_hash(source),
        file: file.to_string(),
        rules,
        raw,
        resolved,
        rules_hash: std::sync::OnceLock::new(),
        rules_text_hash: std::sync::OnceLock::new(),
    })
}

/// Calls `f` on every player-facing text of a scene.
fn for_each_text(raw: &mut RawScene, f: &mut dyn FnMut(&mut Text)) {
    let meta = &mut raw.meta;
    for text in [&mut meta.title, &mut meta.date, &mut meta.place] {
        f(text);
    }
    if let Some(hook) = &mut meta.hook {
        f(hook);
    }
    let prose = |prose: &mut Prose, f: &mut dyn FnMut(&mut Text)| {
        for text in prose.texts_mut() {
            f(text);
        }
    };
    prose(&mut meta.intro, f);
    raw.sides.iter_mut().for_each(|s| f(&mut s.name));
    raw.zones.iter_mut().for_each(|z| f(&mut z.name));
    raw.commanders.iter_mut().for_each(|c| f(&mut c.name));
    raw.units.iter_mut().for_each(|u| f(&mut u.name));
    raw.atmosphere.iter_mut().for_each(|v| f(&mut v.text));
    raw.obscurants.values_mut().for_each(|o| f(&mut o.name));
    let effects = |effects: &mut Vec<Effect>, f: &mut dyn FnMut(&mut Text)| {
        for effect in effects {
            match effect {
                Effect::Narrate(text) => text.texts_mut().into_iter().for_each(&mut *f),
                Effect::Rumor { cry, .. } => f(cry),
                _ => {}
            }
        }
    };
    for tp in &mut raw.turning_points {
        prose(&mut tp.situation, f);
        for option in &mut tp.options {
            f(&mut option.text);
            prose(&mut option.narration, f);
            if let Some(perceived) = &mut option.perceived {
                prose(perceived, f);
            }
            effects(&mut option.effects, f);
        }
    }
    if let Some(prelude) = &mut raw.prelude {
        if let Some(text) = &mut prelude.text {
            prose(text, f);
        }
        effects(&mut prelude.effects, f);
    }
    for event in &mut raw.events {
        if let Some(text) = &mut event.text {
            prose(text, f);
        }
        effects(&mut event.effects, f);
    }
    for ending in &mut raw.endings {
        f(&mut ending.title);
        prose(&mut ending.text, f);
        prose(&mut ending.summary, f);
        if let Some(history) = &mut ending.history {
            prose(history, f);
        }
    }
}

/// FNV-1a over the text: stable across builds and platforms, unlike `Hash`.
pub fn content_hash(text: &str) -> u64 {
    crate::stdx::fnv1a(text.as_bytes())
}

/// The shipped scenes, from the copies inside the binary.
pub fn load_embedded() -> Result<Vec<Scene>, Vec<Diagnostic>> {
    let (rules_file, rules_source) = EMBEDDED_RULES;
    let rules = parse_rules(&format!("scenes/{rules_file}"), rules_source)?;
    collect(
        EMBEDDED_SCENES
            .iter()
            .map(|(file, source)| parse_scene(&format!("scenes/{file}"), source, &rules)),
    )
}

/// The shipped scene `id` alone (its file is `ID.ron`), for a start that
/// names its battle: the others are parsed only if asked for
/// ([`load_embedded`]). None when no shipped file is named so.
pub fn load_embedded_one(id: &str) -> Option<Result<Scene, Vec<Diagnostic>>> {
    let file = format!("{id}.ron");
    let (file, source) = EMBEDDED_SCENES.iter().find(|(f, _)| *f == file)?;
    let (rules_file, rules_source) = EMBEDDED_RULES;
    Some(
        parse_rules(&format!("scenes/{rules_file}"), rules_source)
            .and_then(|rules| parse_scene(&format!("scenes/{file}"), source, &rules)),
    )
}

/// Every `*.ron` scene in `dir` (not its subfolders); `rules.ron` there, if
/// present, replaces the shipped rules.
pub fn load_dir(dir: &Path) -> Result<Vec<Scene>, Vec<Diagnostic>> {
    let entries = std::fs::read_dir(dir).map_err(|err| {
        vec![file_problem(
            &dir.display().to_string(),
            format!("cannot read the scene folder: {err}"),
            "check the path given to --scenes",
        )]
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.is_file() && path.extension().is_some_and(|ext| ext == "ron"))
        .collect();
    files.sort();
    let rules_path = dir.join("rules.ron");
    let rules = load_rules_beside(&rules_path)?;
    let scenes: Vec<&PathBuf> = files.iter().filter(|path| **path != rules_path).collect();
    if scenes.is_empty() {
        return Err(vec![file_problem(
            &dir.display().to_string(),
            "no scene files (*.ron) in this folder".to_string(),
            "a scene is a .ron file; see scenes/README.md",
        )]);
    }
    collect(scenes.into_iter().map(|path| load_file(path, &rules)))
}

/// The warnings of `check` for a loaded scene (texts whose claims of a
/// unit's state are only inside `Any`: [`unheard`]), placed in its file,
/// read again only here, or in the copy inside the binary.
pub fn warnings(scene: &Scene) -> Vec<Diagnostic> {
    let embedded = || {
        let name = Path::new(&scene.file).file_name()?.to_str()?;
        let (_, source) = EMBEDDED_SCENES.iter().find(|(f, _)| *f == name)?;
        Some(source.to_string())
    };
    // Only the text the scene was read from places its warnings.
    let source = (read(Path::new(&scene.file)).ok())
        .filter(|source| content_hash(source) == scene.content_hash)
        .or_else(|| embedded().filter(|source| content_hash(source) == scene.content_hash));
    source.map_or_else(Vec::new, |source| unheard::warnings(scene, &source))
}

/// Checks the given files (or folders). Files named `rules.ron` are checked as rules.
pub fn check_paths(paths: &[PathBuf]) -> (usize, Vec<Diagnostic>) {
    let (checked, _, problems) = load_paths(paths);
    (checked, problems)
}

/// [`check_paths`], keeping the scenes that loaded, each with the folder it
/// was read from (a rules file counts as checked but is no scene).
pub fn load_paths(paths: &[PathBuf]) -> (usize, Vec<(PathBuf, Scene)>, Vec<Diagnostic>) {
    let mut checked = 0;
    let mut scenes = Vec::new();
    let mut problems = Vec::new();
    for path in paths {
        if path.is_dir() {
            match load_dir(path) {
                Ok(found) => {
                    checked += found.len();
                    scenes.extend(found.into_iter().map(|scene| (path.clone(), scene)));
                }
                Err(mut found) => problems.append(&mut found),
            }
            continue;
        }
        let is_rules = path.file_name().is_some_and(|name| name == "rules.ron");
        let result = if is_rules {
            read(path)
                .and_then(|source| parse_rules(&path.display().to_string(), &source).map(|_| None))
        } else {
            let rules_path = path.parent().unwrap_or(Path::new(".")).join("rules.ron");
            load_rules_beside(&rules_path).and_then(|rules| load_file(path, &rules).map(Some))
        };
        match result {
            Ok(scene) => {
                checked += 1;
                let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
                let folder = folder.map_or_else(|| PathBuf::from("."), Path::to_path_buf);
                scenes.extend(scene.map(|scene| (folder, scene)));
            }
            Err(mut found) => problems.append(&mut found),
        }
    }
    (checked, scenes, problems)
}

fn load_rules_beside(rules_path: &Path) -> Result<Rules, Vec<Diagnostic>> {
    if rules_path.is_file() {
        let source = read(rules_path)?;
        parse_rules(&rules_path.display().to_string(), &source)
    } else {
        let (file, source) = EMBEDDED_RULES;
        parse_rules(&format!("scenes/{file}"), source)
    }
}

fn load_file(path: &Path, rules: &Rules) -> Result<Scene, Vec<Diagnostic>> {
    let source = read(path)?;
    parse_scene(&path.display().to_string(), &source, rules)
}

/// Larger scene files are refused unread: the shipped battles are far smaller.
pub const MAX_SCENE_BYTES: u64 = 4 * 1024 * 1024;

/// The most turning points a battle has: each is decided once, so a game
/// logs at most this many choices (besides its turns, at most 1,000).
pub const MAX_TURNING_POINTS: usize = 1_000;

fn read(path: &Path) -> Result<String, Vec<Diagnostic>> {
    let shown = path.display().to_string();
    let bytes = crate::files::read_capped(path, MAX_SCENE_BYTES).map_err(|err| {
        vec![file_problem(
            &shown,
            format!("cannot read the file: {err}"),
            "scene files must be regular, readable UTF-8 text files",
        )]
    })?;
    syntax::decode(&shown, bytes).map_err(|problem| vec![*problem])
}

fn file_problem(file: &str, message: String, hint: &str) -> Diagnostic {
    Diagnostic::whole_file(file, message, hint)
}

/// Two scene files with one id: the problem is placed at the second's
/// `meta` id and names the first's file, line and column. The files are
/// read again only here, so loading pays nothing for the positions.
fn duplicate_id(first: &Scene, second: &Scene) -> Diagnostic {
    let id = second.id();
    let place = |scene: &Scene| -> Option<(String, usize)> {
        let source = read(Path::new(&scene.file)).ok()?;
        let at = diag::Locator::new(&scene.file, &source)
            .item("meta", id)?
            .id_at;
        Some((source, at))
    };
    let first_at = match place(first) {
        Some((source, at)) => {
            let (line, column) = diag::line_column(&source, at);
            format!("{}:{line}:{column}", first.file)
        }
        None => first.file.clone(),
    };
    let message = format!("scene id \"{id}\" is also used by {first_at}");
    let hint = "give each battle its own meta id";
    match place(second) {
        Some((source, at)) => {
            diag::Locator::new(&second.file, &source).at(at, message, hint.into(), "Meta")
        }
        None => file_problem(&second.file, message, hint),
    }
}

fn collect(
    results: impl Iterator<Item = Result<Scene, Vec<Diagnostic>>>,
) -> Result<Vec<Scene>, Vec<Diagnostic>> {
    let mut scenes = Vec::new();
    let mut problems = Vec::new();
    for result in results {
        match result {
            Ok(scene) => scenes.push(scene),
            Err(mut found) => problems.append(&mut found),
        }
    }
    let mut seen: HashMap<&str, &Scene> = HashMap::new();
    for scene in &scenes {
        if let Some(first) = seen.insert(scene.id(), scene) {
            problems.push(duplicate_id(first, scene));
        }
    }
    if problems.is_empty() {
        Ok(scenes)
    } else {
        Err(problems)
    }
}
