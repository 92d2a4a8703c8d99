//! Rendering: the story's outputs and the player's views as localized text.
//!
//! Generic narration comes from per-locale templates with named placeholders
//! (`{unit}`, `{zone}`, `{men}`…), never from gluing strings together. The
//! player is told only what their side can see: an enemy unit in smoke is
//! "unknown", and what happens to it there goes untold.

mod entries;
mod map;
mod orders;
mod reveal;
mod saves;
mod status;

pub use saves::{saves_table, saves_table_of};

use super::catalogue::{
    self, Detail, Doing, Order, OrderMsg, RevealMsg, Troops, Ui, ViewMsg, bearing, capitalizes,
    modifier_name, msg, state_name, template, ui,
};
use super::numbers::Sure;
use super::wrap::{KEEP, NAME_CLOSE, NAME_OPEN, capitalize, pad, width, wrap};
use crate::picture::{Bearing, Clarity, Known, Reckoning, Reveal, Sighting, Source};
use crate::scene::{Colour, Locale, MoraleState, Scene, Text};
use crate::sim::{Entry, Field};
use crate::story::{Arg, Told, UnitCommand, clock, group_thousands};

pub use super::catalogue::time_words;

/// `text` between name marks ([`NAME_OPEN`] and [`NAME_CLOSE`]).
fn marked(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2 * NAME_OPEN.len_utf8());
    out.push(NAME_OPEN);
    out.push_str(text);
    out.push(NAME_CLOSE);
    out
}

/// How text is styled: colour on or off, and the width to wrap at.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    pub colour: bool,
    pub columns: usize,
}

impl Style {
    /// A name in its side's colour. Without colour the name is still marked
    /// (with [`NAME_OPEN`] and [`NAME_CLOSE`], which take no room and are
    /// never printed), so wrapping keeps a Chinese name whole either way.
    pub fn paint(&self, colour: Colour, text: &str) -> String {
        if !self.colour {
            return marked(text);
        }
        let code = match colour {
            Colour::Red => 31,
            Colour::Green => 32,
            Colour::Yellow => 33,
            Colour::Blue => 34,
            Colour::Magenta => 35,
            Colour::Cyan => 36,
            Colour::White => 37,
        };
        // "\u{1b}[{code}m{text}\u{1b}[0m", without `format!`'s machinery.
        let mut out = String::with_capacity(text.len() + 9);
        out.push_str("\u{1b}[");
        out.push(char::from(b'0' + code / 10));
        out.push(char::from(b'0' + code % 10));
        out.push('m');
        out.push_str(text);
        out.push_str("\u{1b}[0m");
        out
    }

    pub fn bold(&self, text: &str) -> String {
        if self.colour {
            format!("\u{1b}[1m{text}\u{1b}[0m")
        } else {
            text.to_string()
        }
    }

    pub fn dim(&self, text: &str) -> String {
        if self.colour {
            format!("\u{1b}[2m{text}\u{1b}[0m")
        } else {
            text.to_string()
        }
    }
}

/// Whether a battle is told from a novel: one of its sources is a chapter in
/// `seeds/`. A battle written from general history says "history"
/// where the others say "the novel".
pub fn from_novel(scene: &Scene) -> bool {
    scene
        .meta()
        .sources
        .iter()
        .any(|source| !source.seed.is_empty())
}

fn smoke_words(locale: Locale, field: &Field, smoke: f64) -> &'static str {
    let rules = &field.rules;
    ui(
        locale,
        if smoke >= rules.smoke_blind {
            Ui::ThickSmoke
        } else if smoke >= rules.smoke_thin {
            Ui::ThinSmoke
        } else {
            Ui::ClearAir
        },
    )
}

fn fill(template: &str, args: &[(&str, String)]) -> String {
    let mut out = template.to_string();
    for (name, value) in args {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// A chronicle entry told in a group: template key, other arguments, unit.
type Grouped = (Detail, Vec<(&'static str, String)>, usize);

/// A row of `status`: the unit's name, and where it is, its men, morale and
/// state (None: out of sight).
type StatusRow = (String, Option<[String; 4]>);

/// Everything the renderer needs to name things and know what the player sees.
pub struct View<'a> {
    pub scene: &'a Scene,
    pub field: &'a Field,
    /// What the played side knows (`picture.rs`): the only state a view
    /// reads. The world itself is out of its reach.
    pub known: &'a Known,
    pub locale: Locale,
    pub side: usize,
    /// The commander the player plays (his index among the scene's
    /// commanders), when there is one.
    pub role: Option<usize>,
    pub style: Style,
}

impl View<'_> {
    pub fn text(&self, text: &Text) -> String {
        text.get(self.locale).to_string()
    }

    /// Story text in the reader's language, its placeholders written with
    /// the values they had when it was told.
    pub fn told(&self, told: &Told) -> String {
        let l = self.locale;
        let template = told.text.get(l);
        let value = |inside: &str, rest: &str| {
            let (_, arg) = told.args.iter().find(|(name, _)| name == inside)?;
            let men = |n: u32, sure| catalogue::men_said_before(l, n, sure, rest);
            Some(match arg {
                // His own losses he knows to the man: said exactly, as the
                // turn's prose says them ("5,850", 五千八百五十), and round
                // from ten thousand (nobody tells 11,415 in a sentence).
                Arg::Count(n) if *n < 10_000 && self.own_losses(inside) => catalogue::count(l, *n),
                Arg::Count(n) => men(*n, Sure::Counted),
                Arg::About(n) => men(*n, Sure::Estimated),
                Arg::Rough(n) => men(*n, Sure::Rough),
                Arg::Unknown => ui(l, Ui::UnknownNumber).to_string(),
                // 第九刻, 第十六回合: a count in Chinese prose is said.
                Arg::Turn(n) => match l {
                    Locale::En => n.to_string(),
                    Locale::ZhHans | Locale::ZhHant => l.zh_string(super::numbers::zh_ordinal(*n)),
                },
                Arg::Clock(minute) => time_words(l, *minute),
                Arg::Name(named) => (self.scene.name(*named))
                    .map_or(String::new(), |name| self.mid_sentence(name.get(l))),
                Arg::Nobody => ui(l, Ui::Nobody).to_string(),
            })
        };
        // A value that begins a sentence begins with a capital ("Over at
        // 09:30. An unknown number of men…"), whatever words it is said in.
        let mut filled = String::with_capacity(template.len());
        let mut last = 0;
        for (open, inside) in crate::scene::placeholder::spans(template) {
            filled.push_str(&template[last..open]);
            last = open + inside.len() + 2;
            let Some(v) = value(inside, &template[last..]) else {
                filled.push_str(&template[open..last]);
                continue;
            };
            let starts = filled.trim_end().ends_with(['.', '!', '?']);
            if starts && capitalizes(l) {
                filled.push_str(&capitalize(&v));
            } else {
                filled.push_str(&v);
            }
        }
        filled.push_str(&template[last..]);
        if capitalizes(l) {
            capitalize(&filled)
        } else {
            filled
        }
    }

    /// Whether a placeholder is the losses of the commander's own side or
    /// of a unit of his (`{losses:SIDE|UNIT}`).
    fn own_losses(&self, inside: &str) -> bool {
        use crate::scene::placeholder::Placeholder;
        match Placeholder::parse(inside) {
            Some(Placeholder::Losses(id)) => match self.scene.side_idx(id) {
                Some(side) => side == self.side,
                None => self.scene.unit_idx(id).is_some_and(|u| self.owns(u)),
            },
            _ => false,
        }
    }

    pub fn unit_name(&self, unit: usize) -> String {
        let Some(def) = self.scene.units().get(unit) else {
            return String::new();
        };
        if !self.owns(unit) && !self.named(unit) {
            return self.enemy_label(unit);
        }
        let name = self.mid_sentence(def.name.get(self.locale));
        let name = name.as_str();
        let side = self.scene.units().get(unit).map(|u| u.side);
        match side.and_then(|s| self.scene.sides().get(s.idx())) {
            Some(side) => self.style.paint(side.colour, name),
            None => name.to_string(),
        }
    }

    /// A zone's name as it reads mid-sentence ("the ford", not "The ford").
    pub fn zone_name(&self, zone: usize) -> String {
        let name = self
            .scene
            .zones()
            .get(zone)
            .map(|z| z.name.get(self.locale))
            .unwrap_or_default();
        // Marked like a unit's name, so wrapping never splits a place.
        let mut out = String::with_capacity(name.len() + 2 * NAME_OPEN.len_utf8());
        out.push(NAME_OPEN);
        match name.strip_prefix("The ") {
            Some(rest) if capitalizes(self.locale) => {
                out.push_str("the ");
                out.push_str(rest);
            }
            _ => out.push_str(name),
        }
        out.push(NAME_CLOSE);
        out
    }

    /// English names are written as they open a sentence ("The ford…"); in
    /// running text the article is lower-case. Sentences are capitalized after.
    fn mid_sentence(&self, name: &str) -> String {
        match name.strip_prefix("The ") {
            Some(rest) if capitalizes(self.locale) => ["the ", rest].concat(),
            _ => name.to_string(),
        }
    }

    /// A side's name as a sentence says it: in English "the Ming" (the
    /// name after "the"), unless the author's name opens with an article
    /// of its own ("the Free Companies": as written, "the" in lower case) or the
    /// side takes none (`article: false`: "Lord Wen's army"). Chinese names
    /// are said as they are.
    pub fn side_in_prose(&self, side: usize) -> String {
        let Some(s) = self.scene.sides().get(side) else {
            return String::new();
        };
        let name = s.name.get(self.locale);
        if !capitalizes(self.locale) {
            return self.style.paint(s.colour, name);
        }
        let lower = name.to_lowercase();
        let has_article = ["the ", "a ", "an "].iter().any(|a| lower.starts_with(a));
        if has_article {
            let mut chars = name.chars();
            let first = chars
                .next()
                .map(|c| c.to_lowercase().to_string())
                .unwrap_or_default();
            self.style
                .paint(s.colour, &format!("{first}{}", chars.as_str()))
        } else if s.article {
            format!("the {}", self.style.paint(s.colour, name))
        } else {
            self.style.paint(s.colour, name)
        }
    }

    pub fn side_name(&self, side: usize) -> String {
        match self.scene.sides().get(side) {
            Some(s) => self.style.paint(s.colour, s.name.get(self.locale)),
            None => String::new(),
        }
    }

    /// A commander's drums, "your drums" when he is the player's own:
    /// 「你的鼓声」.
    fn drums_of(&self, commander: usize) -> String {
        let yours = self.role == Some(commander);
        let commander = self.commander_name(commander);
        msg(
            self.locale,
            ViewMsg::DrumsOf {
                yours,
                commander: &commander,
            },
        )
    }

    /// A commander's name in his side's colour, as a unit's is (and marked
    /// without colour, so wrapping never splits a Chinese name across two
    /// lines).
    pub fn commander_name(&self, commander: usize) -> String {
        let Some(c) = self.scene.commanders().get(commander) else {
            return String::new();
        };
        let name = c.name.get(self.locale);
        match self.scene.sides().get(c.side.idx()) {
            Some(side) => self.style.paint(side.colour, name),
            None => marked(name),
        }
    }

    pub(crate) fn unit_side(&self, unit: usize) -> usize {
        // The side it fights for now: a `ChangeSide` may have moved it.
        self.known
            .unit_side
            .get(unit)
            .copied()
            .unwrap_or(usize::MAX)
    }

    /// The player knows this unit as it is this turn: his own, or an enemy
    /// seen (or reported) now.
    pub fn sees_unit(&self, unit: usize) -> bool {
        self.owns(unit) || self.known.picture.seen_now(unit)
    }

    /// The enemy unit's banner could be made out (close enough, clear air).
    fn named(&self, unit: usize) -> bool {
        self.known
            .picture
            .sighting(unit)
            .is_some_and(|s| s.clarity.named())
    }

    /// An enemy unit whose banner nobody could make out: "a body of
    /// {side} horse", 「一队{side}骑兵」; troops when only shapes were seen.
    pub(crate) fn enemy_label(&self, unit: usize) -> String {
        let side = self.side_name(self.unit_side(unit));
        let sighting = self.known.picture.sighting(unit);
        let clarity = sighting.map_or(Clarity::Felt, |s| s.clarity);
        let mounted = sighting.is_some_and(|s| s.mounted);
        let troops = match (clarity, mounted) {
            (Clarity::Far, true) => Troops::Horse,
            (Clarity::Far, false) => Troops::Foot,
            _ => Troops::Troops,
        };
        msg(
            self.locale,
            ViewMsg::Body {
                side: &side,
                troops,
            },
        )
    }

    /// The player sees what is in the zone now (with his own eyes or by a
    /// word that reached him this turn).
    pub(crate) fn sees_zone(&self, zone: usize) -> bool {
        let p = &self.known.picture;
        p.seen_now.get(zone).copied().unwrap_or(false) || p.sees.get(zone).copied().unwrap_or(false)
    }

    /// Men in the turn's prose: the player's own counted (exact under ten
    /// thousand, said round above: nobody tells 11,415 in a sentence), the
    /// enemy's estimated. Exact in every language: 302 men, 三百零二人.
    pub(crate) fn told_men(&self, men: u32, own: bool) -> String {
        match (own, men < 10_000) {
            (true, true) => catalogue::count(self.locale, men),
            (true, false) => self.said(men, Sure::Counted),
            (false, _) => self.said(men, Sure::Estimated),
        }
    }

    /// A figure in running text, said as people say it.
    pub(crate) fn said_in_prose(&self, men: u32, sure: Sure) -> String {
        self.said(men, sure)
    }

    /// An estimate as said in prose: "about 300", 「三百来」 (the caller's
    /// template adds 人).
    pub(crate) fn said(&self, men: u32, sure: Sure) -> String {
        catalogue::men_said(self.locale, men, sure)
    }

    pub(crate) fn owns(&self, unit: usize) -> bool {
        self.unit_side(unit) == self.side
    }

    /// An own unit whose word reaches the commander this turn (a rider can
    /// get through to it): what befalls one cut off is not told as it
    /// happens, only when word of it comes again. One whose word only a
    /// text brought is told by the text alone ([`Known::heard_now`]).
    pub(crate) fn hears(&self, unit: usize) -> bool {
        self.owns(unit) && self.known.heard_now(unit)
    }

    /// A zone the commander has word of this turn: seen, or own men there
    /// whose word reaches him.
    pub(crate) fn hears_zone(&self, zone: usize) -> bool {
        self.sees_zone(zone)
            || self.known.own.iter().enumerate().any(|(unit, word)| {
                word.as_ref().is_some_and(|word| {
                    word.record.location.present && word.record.location.zone() == zone
                }) && self.known.heard_now(unit)
            })
    }

    /// A commander's fall, told to his own side and to an enemy who sees
    /// where he stood.
    pub(crate) fn commander_fall(
        &self,
        commander: usize,
        fate: crate::scene::Fate,
    ) -> Option<String> {
        let state = self.known.commanders.get(commander)?.as_ref()?;
        if state.side != self.side && !self.sees_zone(state.zone) {
            return None;
        }
        // One of his own whose word has not come: told when it comes
        // (`Picture::falls_heard`).
        if state.side == self.side && state.fallen.is_none() {
            return None;
        }
        let l = self.locale;
        // The played commander reads of his own fall in the second person.
        let yours = self.role == Some(commander);
        let text = template(l, Detail::fall(fate, yours));
        if yours {
            return Some(fill(text, &[("zone", self.zone_name(state.zone))]));
        }
        Some(fill(
            text,
            &[
                ("commander", self.commander_name(commander)),
                ("zone", self.zone_name(state.zone)),
            ],
        ))
    }

    /// The fall of own commander `commander` by word come after its turn:
    /// where and how, as the word has it.
    pub(crate) fn commander_fall_heard(&self, commander: usize) -> Option<String> {
        let state = self.known.commanders.get(commander)?.as_ref()?;
        let fate = state.fallen?;
        Some(fill(
            template(self.locale, Detail::fall_heard(fate)),
            &[
                ("commander", self.commander_name(commander)),
                ("zone", self.zone_name(state.zone)),
            ],
        ))
    }

    /// Why an own unit is not where its order sends it, from what the
    /// simulation knows and the player may: an order still on its way, a
    /// crossing it is still in (crowded, dark or deep), or an enemy known to
    /// stand in its way. None when it is not held up.
    pub(crate) fn stuck(&self, idx: usize, couriers: &[crate::story::Courier]) -> Option<Ui> {
        use crate::sim::movement::UnitOrder;
        let unit = self.known.own_unit(idx)?;
        if couriers.iter().any(|c| c.unit.idx() == idx) {
            return Some(Ui::StuckCourier);
        }
        let zone = unit.location.zone();
        let going = match unit.orders.order() {
            UnitOrder::MoveTo(to) => to != zone,
            _ => false,
        };
        if !going || !unit.location.state().obeys() {
            return None;
        }
        let info = self.field.zones.get(zone)?;
        if info.is_crossing() && unit.orders.progress < f64::from(unit.men) {
            let blind = !self.known.picture.sees.get(zone).copied().unwrap_or(true);
            let crowded = self.known.own.iter().enumerate().any(|(other, word)| {
                other != idx
                    && word.as_ref().is_some_and(|w| {
                        w.record.location.present
                            && w.record.location.zone() == zone
                            && w.record.men > 0
                            && w.record.location.state().can_fight_or_flee()
                    })
            }) || self.known.enemy_in(zone);
            // Alone on a dry span in clear air it is only walking over.
            return if crowded {
                Some(Ui::StuckCrowd)
            } else if blind {
                Some(Ui::StuckDark)
            } else {
                if info.by_boat() {
                    Some(Ui::StuckBoats)
                } else {
                    (info.depth_m > 0.0).then_some(Ui::StuckDepth)
                }
            };
        }
        self.known.enemy_in(zone).then_some(Ui::StuckHeld)
    }

    pub(crate) fn zone_cell(&self, zone: usize) -> String {
        let l = self.locale;
        let Some(record) = self.known.zones.get(zone) else {
            return String::new();
        };
        let info = &self.field.zones[zone];
        let mut marks = Vec::new();
        let kind = info.mark.map(String::from).unwrap_or_default();
        if !record.passage.intact {
            marks.push(ui(l, Ui::Destroyed).to_string());
        }
        if record.burning.fire > 0.05 {
            marks.push(self.style.paint(Colour::Red, ui(l, Ui::Fire)));
        }
        if record.burning.smoke >= self.field.rules.smoke_thin {
            marks.push(smoke_words(l, self.field, record.burning.smoke).to_string());
        }
        let marks = if marks.is_empty() {
            String::new()
        } else {
            msg(l, ViewMsg::Marks { marks: &marks })
        };
        // Where the commander stands.
        let here = if self.known.picture.at == Some(zone) && !self.known.picture.fallen {
            "★"
        } else {
            ""
        };
        format!(
            "[{here}{kind}{}{marks}]",
            self.style.bold(&capitalize(&self.zone_name(zone)))
        )
    }

    pub(crate) fn zone_units(&self, zone: usize) -> Vec<String> {
        self.zone_units_with(zone, false)
    }

    /// [`View::zone_units`], own units with the label `order` takes when
    /// `labels`.
    pub(crate) fn zone_units_with(&self, zone: usize, labels: bool) -> Vec<String> {
        let mut out = Vec::new();
        let seen = self.sees_zone(zone);
        for (idx, word) in self.known.own.iter().enumerate() {
            let Some(word) = word else { continue };
            let unit = &word.record;
            if !unit.location.present
                || unit.location.zone() != zone
                || !unit.location.state().can_fight_or_flee()
                || unit.men == 0
            {
                continue;
            }
            let mut state = state_name(self.locale, unit.location.state()).to_string();
            if word.turn < self.known.turn {
                state = self.stale(&state, word.turn);
            }
            let label = match self.scene.units().get(idx) {
                Some(u) if labels => format!(
                    "{}{}",
                    ui(self.locale, Ui::LabelGap),
                    self.style
                        .dim(&msg(self.locale, ViewMsg::UnitLabel { id: &u.id }))
                ),
                _ => String::new(),
            };
            out.push(format!(
                "{}{label} {}{KEEP}{NAME_OPEN}{state}{NAME_CLOSE}",
                self.unit_name(idx),
                group_thousands(unit.men),
            ));
        }
        let others = (0..self.field.n_sides).filter(|&s| s != self.side);
        for (name, sighting) in others.flat_map(|side| self.enemy_groups(side)) {
            if sighting.zone != zone || sighting.lost || sighting.bearing == Bearing::Broken {
                continue;
            }
            let [_, men, _, bearing] = self.sighting_cells(&sighting);
            // "{side} troops, a few thousand, running"; 「{side}人马约三千人，溃逃」.
            let line = msg(
                self.locale,
                ViewMsg::SeenInZone {
                    name: &name,
                    men: &men,
                    bearing: &bearing,
                },
            );
            // As `status` words it: seen now, the line alone; reported, or
            // seen earlier, with the time (dim when it is old).
            let current = sighting.turn == self.known.picture.turn;
            let reported = reported(&sighting);
            out.push(if current && !reported {
                line
            } else {
                let at = clock(self.minute_of(sighting.turn));
                let line = msg(
                    self.locale,
                    ViewMsg::SeenAt {
                        line: &line,
                        at: &at,
                        reported,
                    },
                );
                if current { line } else { self.style.dim(&line) }
            });
        }
        if !seen && !self.owns_zone(zone) {
            out.push(self.style.dim(ui(self.locale, Ui::Unseen)));
        } else if out.is_empty() {
            out.push(self.style.dim(ui(self.locale, Ui::NoOneInSight)));
        }
        out
    }

    /// What the commander knows of the other side's units, as he would list
    /// them: a unit whose banner he made out by its name; the rest, which
    /// he cannot tell apart, as one body per place, time and bearing
    /// ("{side} troops, a few thousand, running"), their estimates added.
    pub(crate) fn enemy_groups(&self, side: usize) -> Vec<(String, Sighting)> {
        let mut named = Vec::new();
        let mut bodies: Vec<(Sighting, usize)> = Vec::new();
        for (idx, sighting) in self.known.picture.enemy.iter().enumerate() {
            let Some(s) = sighting else { continue };
            if self.unit_side(idx) != side {
                continue;
            }
            if s.clarity.named() {
                named.push((self.unit_name(idx), *s));
                continue;
            }
            let horse = s.clarity == Clarity::Far && s.mounted;
            // What is seen now is told apart by how it behaves; what was
            // seen earlier in one place is one memory, as of its latest word.
            let now = s.turn == self.known.picture.turn;
            let same = bodies.iter_mut().find(|(b, _)| {
                let b_now = b.turn == self.known.picture.turn;
                b.zone == s.zone
                    && b_now == now
                    && b.lost == s.lost
                    && (!now || b.bearing == s.bearing)
                    && (b.clarity == Clarity::Far && b.mounted) == horse
            });
            match same {
                Some((b, _)) => {
                    b.men = b.men.saturating_add(s.men);
                    b.clarity = b.clarity.max(s.clarity);
                    if s.turn > b.turn {
                        b.turn = s.turn;
                        b.bearing = s.bearing;
                        b.source = s.source;
                    }
                }
                None => bodies.push((*s, idx)),
            }
        }
        let name = self.side_name(side);
        named.extend(bodies.into_iter().map(|(b, _)| {
            let troops = match (b.clarity == Clarity::Far, b.mounted) {
                (true, true) => Troops::Horse,
                (true, false) => Troops::Foot,
                _ => Troops::Troops,
            };
            let label = msg(
                self.locale,
                ViewMsg::Troops {
                    side: &name,
                    troops,
                },
            );
            (label, b)
        }));
        named
    }

    /// Whether the commander has men of his own in the zone (by their last
    /// word).
    pub(crate) fn owns_zone(&self, zone: usize) -> bool {
        self.known.own_men_in(zone) > 0
    }

    /// What the commander knows of an enemy unit, as `status` cells:
    /// where (and since when), how many (as said), nothing for morale, and
    /// how it behaves.
    pub(crate) fn sighting_cells(&self, s: &Sighting) -> [String; 4] {
        let l = self.locale;
        let now = s.turn == self.known.picture.turn;
        let at = clock(self.minute_of(s.turn));
        let zone = capitalize(&self.zone_name(s.zone));
        let reported = matches!(s.source, Source::Reported { .. } | Source::Word);
        // Seen now: the place alone. Otherwise the time it was seen or
        // reported, worded as the map words it (`ViewMsg::SeenAt`).
        let place = match (s.lost, now && !reported) {
            (true, _) => msg(
                l,
                ViewMsg::PlaceGone {
                    zone: &self.zone_name(s.zone),
                    zone_cap: &zone,
                    at: &at,
                },
            ),
            (false, true) => zone,
            (false, false) if reported => msg(
                l,
                ViewMsg::PlaceReported {
                    zone: &zone,
                    at: &at,
                },
            ),
            (false, false) => msg(
                l,
                ViewMsg::PlaceSeen {
                    zone: &zone,
                    at: &at,
                },
            ),
        };
        let sure = if s.clarity <= Clarity::Near {
            Sure::Estimated
        } else {
            Sure::Rough
        };
        let men = if s.bearing == Bearing::Broken {
            String::new()
        } else if s.clarity == Clarity::Felt {
            // Met in the smoke: nobody can tell how many.
            ui(l, Ui::UnknownNumbers).to_string()
        } else {
            self.said(s.men, sure)
        };
        let bearing = bearing(l, s.bearing);
        // Gone from where it was: how it behaved there is nothing to go by any more.
        let bearing = if s.lost { "" } else { bearing };
        [place, men, String::new(), bearing.to_string()]
    }
}

/// Whether a sighting came by report (or word), not by the commander's eyes.
fn reported(s: &Sighting) -> bool {
    matches!(s.source, Source::Reported { .. } | Source::Word)
}

/// Wind strength in the bands the words use.
pub fn wind_band(strength: f64) -> u8 {
    match strength {
        s if s < 0.15 => 0,
        s if s < 0.4 => 1,
        s if s < 0.7 => 2,
        _ => 3,
    }
}

/// The wind in words: "a light wind from the south", 「微微南风」. Still air
/// has no direction.
pub fn wind_phrase(locale: Locale, strength: f64, toward: crate::scene::Compass) -> String {
    super::catalogue::wind_phrase(locale, wind_band(strength), toward)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::WorldState;

    /// A name painted or marked as `format!` wrote it.
    #[test]
    fn names_are_painted_and_marked_as_format_wrote_them() {
        let colours = [
            (Colour::Red, 31),
            (Colour::Green, 32),
            (Colour::Yellow, 33),
            (Colour::Blue, 34),
            (Colour::Magenta, 35),
            (Colour::Cyan, 36),
            (Colour::White, 37),
        ];
        for (colour, code) in colours {
            for text in ["", "Abc Def", "甲乙"] {
                let on = Style {
                    colour: true,
                    columns: 80,
                };
                let off = Style {
                    colour: false,
                    columns: 80,
                };
                assert_eq!(
                    on.paint(colour, text),
                    format!("\u{1b}[{code}m{text}\u{1b}[0m")
                );
                assert_eq!(
                    off.paint(colour, text),
                    format!("{NAME_OPEN}{text}{NAME_CLOSE}")
                );
            }
        }
    }

    fn known_of(scene: &Scene, field: &Field, world: &WorldState) -> Known {
        Known::without_commander(scene, field, world, 0)
    }

    /// A view of what side 0 knows, without colour.
    fn view_of<'a>(
        scene: &'a Scene,
        field: &'a Field,
        known: &'a Known,
        locale: Locale,
        columns: usize,
    ) -> View<'a> {
        View {
            scene,
            field,
            known,
            locale,
            side: 0,
            role: None,
            style: Style {
                colour: false,
                columns,
            },
        }
    }

    /// `why` tells what moved a unit heard of as things happen; of one
    /// whose word a text alone brought, only that: the causes are the
    /// truth's, which the text did not say.
    #[test]
    fn why_tells_no_causes_of_a_unit_known_by_a_text_alone() {
        use crate::sim::components::{Location, Modifier};
        let scene = crate::sim::testing::small_scene(|raw| raw);
        let mut battle = crate::sim::Battle::new(&scene, 7);
        let field = battle.field().clone();
        let mut world = battle.state();
        // The foot in the Khan's tent, cut off from Zhang, wavers from its
        // losses at turn 2.
        world.units[0].location = Location::new(3, true);
        world.vision.blind = vec![false; 4];
        let mut picture = crate::picture::Picture::new(&scene, 0);
        world.turn = 1;
        picture.look(&scene, &field, &world, 7, Some(0));
        world.turn = 2;
        world.units[0].location.set_state(MoraleState::Wavering);
        (world.units[0].morale).set_last(&[(Modifier::Casualties, -12.0)]);
        picture.look(&scene, &field, &world, 7, Some(0));
        let why = |picture: &crate::picture::Picture, locale: Locale| {
            let known = Known::of(&field, &world, &std::sync::Arc::new(picture.clone()));
            view_of(&scene, &field, &known, locale, 80).why()
        };
        for locale in [Locale::En, Locale::ZhHans] {
            let cause = catalogue::modifier_name(locale, Modifier::Casualties);
            // No word of it: nothing.
            assert_eq!(why(&picture, locale), ui(locale, Ui::NoWhy));
            // A text says it wavers: that it is known by the text, no cause.
            let mut told = picture.clone();
            told.hear_unit(&field, &world, 0);
            let said = why(&told, locale);
            assert!(said.contains(ui(locale, Ui::WhyToldOnly)), "{said}");
            assert!(!said.contains(cause), "{said}");
            // In his sight, what moved it is told.
            let mut seen = picture.clone();
            let mut near = world.clone();
            near.units[0].location = Location::new(1, true);
            seen.look(&scene, &field, &near, 7, Some(0));
            let known = Known::of(&field, &near, &std::sync::Arc::new(seen));
            let said = view_of(&scene, &field, &known, locale, 80).why();
            assert!(said.contains(cause), "{said}");
            assert!(!said.contains(ui(locale, Ui::WhyToldOnly)), "{said}");
        }
    }

    /// A commander's name is painted in his side's colour as a unit's is,
    /// and marked without colour, so wrapping never splits it: a Chinese
    /// fall line at any width keeps 「张三丰」 on one line.
    #[test]
    fn a_commanders_name_is_painted_and_kept_whole_by_wrapping() {
        let scene = crate::sim::testing::small_scene(|mut raw| {
            raw.commanders[1].name = crate::scene::Text::Plain("张三丰".into());
            raw
        });
        let mut battle = crate::sim::Battle::new(&scene, 1);
        let world = battle.state();
        let field = battle.field().clone();
        let known = known_of(&scene, &field, &world);
        let mut view = view_of(&scene, &field, &known, Locale::ZhHans, 80);
        assert_eq!(
            view.commander_name(1),
            format!("{NAME_OPEN}张三丰{NAME_CLOSE}")
        );
        view.style.colour = true;
        assert_eq!(view.commander_name(1), "\u{1b}[33m张三丰\u{1b}[0m");
        view.style.colour = false;
        let line = fill(
            template(Locale::ZhHans, Detail::KilledHeard),
            &[
                ("commander", view.commander_name(1)),
                ("zone", view.zone_name(1)),
            ],
        );
        let plain = crate::repl::wrap::strip_marks(&line);
        let at = plain.find("张三丰").expect("the name is in the line");
        let before = crate::repl::wrap::width(&plain[..at]);
        // Every width from the name's first half on the line's end to
        // the whole line.
        for columns in (before.max(4))..=(before + 3) {
            let wrapped = crate::repl::wrap::wrap(&line, columns, "");
            let lines: Vec<&str> = wrapped.lines().collect();
            assert!(
                lines.iter().any(|l| l.contains("张三丰")),
                "split at {columns}: {wrapped:?}"
            );
        }
    }

    #[test]
    fn chinese_time_by_double_hours_and_watches() {
        assert_eq!(
            time_words(Locale::ZhHans, 16 * 60 + 45),
            "申正三刻（16:45）"
        );
        assert_eq!(time_words(Locale::ZhHans, 15 * 60), "申初（15:00）");
        assert_eq!(
            time_words(Locale::ZhHans, 11 * 60 + 30),
            "午初二刻（11:30）"
        );
        assert_eq!(time_words(Locale::ZhHans, 23 * 60 + 30), "三更（23:30）");
        assert_eq!(
            time_words(Locale::ZhHans, 24 * 60 + 4 * 60),
            "五更（04:00）"
        );
        assert_eq!(time_words(Locale::ZhHans, 19 * 60), "一更（19:00）");
        assert_eq!(time_words(Locale::En, 16 * 60 + 45), "16:45");
    }

    /// An enemy met only in the smoke has no count: at a width too narrow
    /// for the table, `status` says so, and does not wrap the words as a
    /// number of men (「兵力不知多少人」 in Chinese, once).
    #[test]
    fn a_felt_enemy_is_of_unknown_numbers_in_a_narrow_status() {
        let scene = crate::sim::testing::small_scene(|raw| raw);
        let mut battle = crate::sim::Battle::new(&scene, 1);
        let world = battle.state();
        let field = battle.field().clone();
        let mut known = known_of(&scene, &field, &world);
        let banner = scene.unit_idx("banner").expect("the small scene's banner");
        std::sync::Arc::make_mut(&mut known.picture).enemy[banner] =
            Some(crate::picture::Sighting {
                zone: 1,
                turn: known.turn,
                men: 4000,
                clarity: Clarity::Felt,
                bearing: Bearing::Fighting,
                source: Source::Seen,
                mounted: true,
                lost: false,
            });
        for locale in [Locale::En, Locale::ZhHans] {
            let narrow = view_of(&scene, &field, &known, locale, 30).status_with(&[]);
            let unknown = ui(locale, Ui::UnknownNumbers);
            assert!(narrow.contains(unknown), "{narrow}");
            assert!(!narrow.contains("不知多少人"), "{narrow}");
            assert!(!narrow.contains("unknown numbers men"), "{narrow}");
        }
    }

    /// A value that opens a sentence takes a capital, in whatever words it
    /// is said ("Over at 09:30. an unknown number…" was printed).
    #[test]
    fn a_value_that_opens_a_sentence_is_capitalised() {
        let scene = crate::sim::testing::small_scene(|raw| raw);
        let mut battle = crate::sim::Battle::new(&scene, 1);
        let world = battle.state();
        let field = battle.field().clone();
        let known = known_of(&scene, &field, &world);
        let view = view_of(&scene, &field, &known, Locale::En, 80);
        let told = |text: &str, arg: Arg| Told {
            text: crate::scene::Text::Plain(text.into()),
            args: vec![("n".into(), arg)],
        };
        assert_eq!(
            view.told(&told("Over at dawn. {n} men crossed.", Arg::Unknown)),
            "Over at dawn. An unknown number of men crossed."
        );
        assert_eq!(
            view.told(&told("It was cold! {n} men fell.", Arg::About(15_000))),
            "It was cold! Some 15,000 men fell."
        );
        let mid = view.told(&told("By then {n} men crossed.", Arg::Unknown));
        assert_eq!(mid, "By then an unknown number of men crossed.");
        // None before its noun is "no"; without the noun it stays "none".
        assert_eq!(
            view.told(&told("The allies lost {n} men.", Arg::Count(0))),
            "The allies lost no men."
        );
        assert_eq!(
            view.told(&told("The Jin lost {n}.", Arg::Rough(0))),
            "The Jin lost none."
        );
    }

    #[test]
    fn a_unit_with_a_plural_name_is_told_with_plural_verbs() {
        let scene = crate::sim::testing::small_scene(|mut raw| {
            raw.units[0].name = crate::scene::Text::Plain("the Grey Companies".into());
            raw.units[0].plural = true;
            raw
        });
        let mut battle = crate::sim::Battle::new(&scene, 1);
        let world = battle.state();
        let field = battle.field().clone();
        let world = known_of(&scene, &field, &world);
        let view = |locale| view_of(&scene, &field, &world, locale, 80);
        let told = |locale, entry: Entry| {
            let line = view(locale).entry(&entry).expect("told");
            line.chars()
                .filter(|c| {
                    *c != crate::repl::wrap::NAME_OPEN && *c != crate::repl::wrap::NAME_CLOSE
                })
                .collect::<String>()
        };
        assert_eq!(
            told(Locale::En, Entry::Routs { unit: 0 }),
            "the Grey Companies break and run!"
        );
        assert_eq!(
            told(Locale::En, Entry::Wavers { unit: 0 }),
            "the Grey Companies waver."
        );
        assert_eq!(
            told(Locale::ZhHans, Entry::Routs { unit: 0 }),
            "the Grey Companies溃散奔逃！"
        );
    }

    #[test]
    fn the_list_map_joins_zones_side_by_side_only_where_a_road_runs() {
        // The tent moved beside the south bank, with no road between them:
        // its road to the north bank is listed under the north bank's row.
        let scene = crate::sim::testing::small_scene(|mut raw| {
            raw.zones[3].at = (1, 0);
            raw
        });
        let mut battle = crate::sim::Battle::new(&scene, 1);
        let world = battle.state();
        let field = battle.field().clone();
        let world = known_of(&scene, &field, &world);
        let view = view_of(&scene, &field, &world, Locale::En, 80);
        let map: String = view
            .map_list()
            .chars()
            .filter(|c| *c != crate::repl::wrap::NAME_OPEN && *c != crate::repl::wrap::NAME_CLOSE)
            .collect();
        assert!(map.contains("\n[South bank]   [▲Tent]\n"), "{map}");
        assert!(map.contains("│ North bank ─ Ford, Tent\n"), "{map}");
        assert!(map.contains("│ Ford ─ South bank\n"), "{map}");
        assert!(!map.contains("South bank ─ Tent"), "{map}");
    }

    #[test]
    fn a_fold_within_one_watch_names_the_watch_once() {
        let scene = crate::sim::testing::small_scene(|raw| raw);
        let mut battle = crate::sim::Battle::new(&scene, 1);
        let world = battle.state();
        let field = battle.field().clone();
        let world = known_of(&scene, &field, &world);
        let view = view_of(&scene, &field, &world, Locale::ZhHans, 80);
        let same = view.turns_header(3, 4, 23 * 60 + 30, 24 * 60);
        assert!(same.starts_with("── 三更（23:30至00:00），"), "{same}");
        let across = view.turns_header(3, 4, 22 * 60 + 30, 23 * 60);
        assert!(
            across.starts_with("── 二更（22:30）至三更（23:00），"),
            "{across}"
        );
    }

    #[test]
    fn a_header_is_ruled_as_measured_whole() {
        use crate::repl::wrap::wrap;
        let scene = crate::sim::testing::small_scene(|raw| raw);
        let mut battle = crate::sim::Battle::new(&scene, 1);
        let world = battle.state();
        let field = battle.field().clone();
        let known = known_of(&scene, &field, &world);
        assert_eq!(width("── "), super::status::RULE_OPEN);
        assert_eq!(width(" ──"), super::status::RULE_CLOSE);
        let heads = [
            "Turn 3 · 20:30 · wind light from the north-west".to_string(),
            "第3回合 · 20:30 · 西北微风".to_string(),
            format!("Turn 4 · {NAME_OPEN}The Left Wing{NAME_CLOSE} · 「走了」"),
            "\u{1b}[1mbold\u{1b}[0m and plain".to_string(),
        ];
        for head in &heads {
            for columns in 10..80 {
                let view = view_of(&scene, &field, &known, Locale::En, columns);
                // The header as measured whole, rule and all.
                let full = format!("── {head} ──");
                let open = format!("── {head}");
                let whole = if width(&full) <= columns {
                    view.style.bold(&full)
                } else if width(&open) <= columns {
                    view.style.bold(&open)
                } else {
                    let wrapped = wrap(&open, columns, "   ");
                    view.style
                        .bold(wrapped.strip_prefix("   ").unwrap_or(&wrapped))
                };
                assert_eq!(view.rule(head), whole, "{head} at {columns}");
            }
        }
    }

    #[test]
    fn a_header_too_wide_for_the_line_drops_its_closing_rule() {
        let scene = crate::sim::testing::small_scene(|raw| raw);
        let mut battle = crate::sim::Battle::new(&scene, 1);
        let world = battle.state();
        let field = battle.field().clone();
        let world = known_of(&scene, &field, &world);
        let view = |columns| view_of(&scene, &field, &world, Locale::En, columns);
        let wide = view(100).turns_header(3, 7, 20 * 60 + 30, 22 * 60 + 30);
        assert!(wide.ends_with(" ──"), "{wide}");
        let narrow = view(40).turns_header(3, 7, 20 * 60 + 30, 22 * 60 + 30);
        assert!(
            narrow.starts_with("── Turns 3–7 · 20:30 to 22:30"),
            "{narrow}"
        );
        assert!(!narrow.ends_with(" ──"), "{narrow}");
        // Narrower than the header itself: wrapped at a word, every line
        // within the width.
        let tight = view(24).turns_header(13, 16, 8 * 60, 14 * 60);
        assert!(tight.lines().count() > 1, "{tight}");
        for line in tight.lines() {
            assert!(width(line) <= 24, "{tight}");
        }
        assert!(tight.starts_with("── Turns 13–16 ·"), "{tight}");
    }
}
