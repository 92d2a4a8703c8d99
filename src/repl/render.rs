//! Rendering: the story's outputs and the player's views as localized text.
//!
//! Generic narration comes from per-locale templates with named placeholders
//! (`{unit}`, `{zone}`, `{men}`…), never from gluing strings together. The
//! player is told only what their side can see: an enemy unit in smoke is
//! "unknown", and what happens to it there goes untold.

use super::catalogue::{
    self, Detail, Doing, Msg, Order, Troops, Ui, bearing, capitalizes, modifier_name, msg,
    state_name, template, ui,
};
use super::numbers::Sure;
use super::wrap::{KEEP, NAME_CLOSE, NAME_OPEN, pad, width, wrap};
use crate::picture::{Bearing, Clarity, Known, Reckoning, Reveal, Sighting, Source};
use crate::scene::{Colour, Locale, MoraleState, Scene, Text, ZoneKind};
use crate::sim::{Entry, Field};
use crate::story::{Arg, Told, UnitCommand, clock, group_thousands};

pub use super::catalogue::time_words;

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
            return format!("{NAME_OPEN}{text}{NAME_CLOSE}");
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
        format!("\u{1b}[{code}m{text}\u{1b}[0m")
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
    /// The commander the player plays, when there is one.
    pub role: Option<String>,
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
        let filled = crate::scene::placeholder::fill(told.text.get(l), |inside| {
            let (_, arg) = told.args.iter().find(|(name, _)| name == inside)?;
            Some(match arg {
                Arg::Count(n) => self.said_in_prose(*n, Sure::Counted),
                Arg::About(n) => self.said_in_prose(*n, Sure::Estimated),
                Arg::Rough(n) => self.said_in_prose(*n, Sure::Rough),
                Arg::Unknown => ui(l, Ui::UnknownNumber).to_string(),
                Arg::Turn(n) => n.to_string(),
                Arg::Clock(minute) => time_words(l, *minute),
                Arg::Name(name) => self.mid_sentence(name.get(l)),
                Arg::Nobody => ui(l, Ui::Nobody).to_string(),
            })
        });
        if capitalizes(l) {
            capitalize(&sentence_starts(&filled))
        } else {
            filled
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
        match self
            .scene
            .side_idx(&def.side)
            .and_then(|s| self.scene.sides().get(s))
        {
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
        format!("{NAME_OPEN}{}{NAME_CLOSE}", self.mid_sentence(name))
    }

    /// English names are written as they open a sentence ("The ford…"); in
    /// running text the article is lower-case. Sentences are capitalized after.
    fn mid_sentence(&self, name: &str) -> String {
        match name.strip_prefix("The ") {
            Some(rest) if capitalizes(self.locale) => format!("the {rest}"),
            _ => name.to_string(),
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
        let yours = self
            .scene
            .commanders()
            .get(commander)
            .is_some_and(|c| Some(&c.id) == self.role.as_ref());
        let commander = self.commander_name(commander);
        msg(
            self.locale,
            Msg::DrumsOf {
                yours,
                commander: &commander,
            },
        )
    }

    pub fn commander_name(&self, commander: usize) -> String {
        self.scene
            .commanders()
            .get(commander)
            .map(|c| c.name.get(self.locale).to_string())
            .unwrap_or_default()
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
            Msg::Body {
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
    /// enemy's estimated.
    pub(crate) fn told_men(&self, men: u32, own: bool) -> String {
        match (own, men < 10_000) {
            // In Chinese prose a figure is said, not printed: 约五千.
            (true, true) if catalogue::says_small_figures(self.locale) => {
                self.said(men, Sure::Counted)
            }
            (true, true) => group_thousands(men),
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

    /// A turn's chronicle as lines: what happened to many units alike is told
    /// in one line ("Wavering: A, B, C."), in the order it first happened.
    pub fn entries(&self, entries: &[Entry]) -> Vec<String> {
        enum Slot {
            Line(String),
            Group(Detail, Vec<(&'static str, String)>, Vec<usize>),
        }
        let mut slots: Vec<Slot> = Vec::new();
        for entry in entries {
            let group = self.group_of(entry);
            match group {
                Some((key, args, unit)) => {
                    if !self.sees_unit(unit) && !self.owns(unit) {
                        continue;
                    }
                    let found = slots.iter_mut().find_map(|slot| match slot {
                        Slot::Group(k, a, units) if *k == key && *a == args => Some(units),
                        _ => None,
                    });
                    match found {
                        Some(units) => {
                            if !units.contains(&unit) {
                                units.push(unit);
                            }
                        }
                        None => slots.push(Slot::Group(key, args, vec![unit])),
                    }
                }
                None => {
                    if let Some(line) = self.entry(entry) {
                        slots.push(Slot::Line(line));
                    }
                    // A blast's dead, unit by unit, as casualties are told.
                    if let Entry::Destroyed { hits, .. } = entry {
                        for &(unit, men) in hits {
                            if let Some(line) = self.entry(&Entry::Casualties { unit, men }) {
                                slots.push(Slot::Line(line));
                            }
                        }
                    }
                }
            }
        }
        let sep = ui(self.locale, Ui::ListSep);
        slots
            .into_iter()
            .map(|slot| match slot {
                Slot::Line(line) => line,
                Slot::Group(key, mut args, units) => {
                    // Enemy bodies nobody could tell apart are counted, not
                    // listed again and again: "three bodies of … horse".
                    let mut names: Vec<(String, usize)> = Vec::new();
                    for u in &units {
                        let name = self.unit_name(*u);
                        match names.iter_mut().find(|(n, _)| *n == name) {
                            Some((_, count)) => *count += 1,
                            None => names.push((name, 1)),
                        }
                    }
                    let names: Vec<String> = names
                        .into_iter()
                        .map(|(name, count)| self.bodies(&name, count))
                        .collect();
                    args.push(("units", names.join(sep)));
                    fill(template(self.locale, key), &args)
                }
            })
            .map(|line| {
                if capitalizes(self.locale) {
                    capitalize(&line)
                } else {
                    line
                }
            })
            .collect()
    }

    /// `count` enemy bodies of one label: "a body of … horse" ×3 is "3
    /// bodies of … horse", 「一队…」 ×3 「三队…」.
    fn bodies(&self, name: &str, count: usize) -> String {
        catalogue::bodies(self.locale, name, count)
    }

    /// The template for one unit: its plural form when the scene says the
    /// unit's English name is plural.
    fn unit_template(&self, key: Detail, unit: usize) -> &'static str {
        let plural = self.scene.units().get(unit).is_some_and(|u| u.plural);
        plural
            .then(|| catalogue::plural_template(self.locale, key))
            .flatten()
            .unwrap_or_else(|| template(self.locale, key))
    }

    /// Whether a change in a unit's heart shows to the player: always for
    /// his own; for the enemy's, wavering only close up (ranks breaking),
    /// steadying never (nobody sees a man take heart), the rest (a rout, a
    /// rally, a break-up) whenever it is seen.
    fn shows(&self, entry: &Entry, unit: usize) -> bool {
        if self.owns(unit) {
            return true;
        }
        match entry {
            Entry::Wavers { .. } => self
                .known
                .picture
                .sighting(unit)
                .is_some_and(|s| s.clarity <= Clarity::Close),
            Entry::Steadies { .. } => false,
            _ => true,
        }
    }

    pub(crate) fn owns(&self, unit: usize) -> bool {
        self.unit_side(unit) == self.side
    }

    /// Entries told in groups: the template, its other arguments, and the unit.
    fn group_of(&self, entry: &Entry) -> Option<Grouped> {
        let own = |unit: usize| self.owns(unit);
        Some(match entry {
            Entry::RumorBelieved {
                unit,
                about,
                routed,
            } if own(*unit) => {
                let bad_news = (self.unit_side(*unit) == *about) == *routed;
                (
                    if bad_news {
                        Detail::GShaken
                    } else {
                        Detail::GHeartened
                    },
                    vec![],
                    *unit,
                )
            }
            Entry::RumorDoubted { unit } if own(*unit) => (Detail::GDoubted, vec![], *unit),
            Entry::Moves { unit, to, .. } if own(*unit) => {
                (Detail::GMoves, vec![("zone", self.zone_name(*to))], *unit)
            }
            Entry::Crossed { unit, zone, .. } => (
                Detail::GCrossed,
                vec![("zone", self.zone_name(*zone))],
                *unit,
            ),
            Entry::Wavers { unit } | Entry::Steadies { unit } if !self.shows(entry, *unit) => {
                return None;
            }
            Entry::Wavers { unit } => (Detail::GWavers, vec![], *unit),
            Entry::Steadies { unit } => (Detail::GSteadies, vec![], *unit),
            Entry::Routs { unit } => (Detail::GRouts, vec![], *unit),
            Entry::Cascade { unit } if !own(*unit) => (Detail::GRouts, vec![], *unit),
            Entry::Cascade { unit } => (Detail::GCascade, vec![], *unit),
            Entry::Shattered { unit } => (Detail::GShattered, vec![], *unit),
            Entry::Rallies { unit } => (Detail::GRallies, vec![], *unit),
            Entry::DrumsHeard { unit, commander } if own(*unit) => (
                Detail::GDrumsHeard,
                vec![("drums", self.drums_of(*commander))],
                *unit,
            ),
            Entry::RumorBelieved { .. }
            | Entry::RumorDoubted { .. }
            | Entry::Moves { .. }
            | Entry::DrumsHeard { .. } => {
                return None;
            }
            _ => return None,
        })
    }

    /// One chronicle entry as a sentence, or None when the player would not know.
    pub fn entry(&self, entry: &Entry) -> Option<String> {
        let l = self.locale;
        let own = |unit: usize| self.unit_side(unit) == self.side;
        let unit_args = |unit: usize| vec![("unit", self.unit_name(unit))];
        let line = match entry {
            Entry::Wind { strength, toward } => fill(
                template(l, Detail::Wind),
                &[("wind", super::chronicle::wind_phrase(l, *strength, *toward))],
            ),
            Entry::FireStarts { zone } => fill(
                template(l, Detail::FireStarts),
                &[("zone", self.zone_name(*zone))],
            ),
            Entry::FireSpreads { zone } => fill(
                template(l, Detail::FireSpreads),
                &[("zone", self.zone_name(*zone))],
            ),
            Entry::FireOut { zone } => fill(
                template(l, Detail::FireOut),
                &[("zone", self.zone_name(*zone))],
            ),
            Entry::SmokeThick { zone } => fill(
                template(l, Detail::SmokeThick),
                &[("zone", self.zone_name(*zone))],
            ),
            Entry::SmokeClears { zone } => fill(
                template(l, Detail::SmokeClears),
                &[("zone", self.zone_name(*zone))],
            ),
            Entry::RumorBelieved {
                unit,
                about,
                routed,
            } => {
                // What an enemy believes is his own: never told.
                if !own(*unit) {
                    return None;
                }
                let bad_news = (self.unit_side(*unit) == *about) == *routed;
                fill(
                    self.unit_template(
                        if bad_news {
                            Detail::RumorLost
                        } else {
                            Detail::RumorWon
                        },
                        *unit,
                    ),
                    &unit_args(*unit),
                )
            }
            Entry::RumorDoubted { unit } => {
                if !own(*unit) {
                    return None;
                }
                fill(
                    self.unit_template(Detail::RumorDoubted, *unit),
                    &unit_args(*unit),
                )
            }
            Entry::Moves { unit, from, to } => {
                if !own(*unit) {
                    return None;
                }
                fill(
                    template(l, Detail::Moves),
                    &[
                        ("unit", self.unit_name(*unit)),
                        ("from", self.zone_name(*from)),
                        ("to", self.zone_name(*to)),
                    ],
                )
            }
            Entry::Crossed { unit, zone, .. } => {
                if !self.sees_unit(*unit) {
                    return None;
                }
                fill(
                    template(l, Detail::Crossed),
                    &[
                        ("unit", self.unit_name(*unit)),
                        ("zone", self.zone_name(*zone)),
                    ],
                )
            }
            Entry::Jammed { .. } => return None,
            Entry::Trampled { zone, men, losses } => {
                let own_men: u32 = losses
                    .iter()
                    .filter(|(side, _)| *side == self.side)
                    .map(|(_, men)| *men)
                    .sum();
                if !self.sees_zone(*zone) && own_men == 0 {
                    return None;
                }
                // Counted where the men are all his own; where the enemy's
                // are trampled too, what he sees of it, an estimate; out of
                // sight, his own only.
                let men = if own_men == *men {
                    self.told_men(own_men, true)
                } else if self.sees_zone(*zone) {
                    self.said_in_prose(*men, Sure::Estimated)
                } else {
                    self.told_men(own_men, true)
                };
                fill(
                    template(l, Detail::Trampled),
                    &[("zone", self.zone_name(*zone)), ("men", men)],
                )
            }
            Entry::Clash { zone, losses } => {
                let parts: Vec<String> = losses
                    .iter()
                    .filter(|(side, _)| *side == self.side || self.sees_zone(*zone))
                    .map(|(side, men)| {
                        let (who, men) = if *side == self.side {
                            (ui(l, Ui::You).to_string(), self.told_men(*men, true))
                        } else {
                            (self.side_name(*side), self.said(*men, Sure::Estimated))
                        };
                        fill(
                            template(l, Detail::ClashSide),
                            &[("side", who), ("men", men)],
                        )
                    })
                    .collect();
                if parts.is_empty() {
                    return None;
                }
                let sep = ui(l, Ui::ClauseSep);
                fill(
                    template(l, Detail::Clash),
                    &[("zone", self.zone_name(*zone)), ("losses", parts.join(sep))],
                )
            }
            Entry::Casualties { unit, men } => {
                if !self.sees_unit(*unit) {
                    return None;
                }
                let men = if own(*unit) {
                    self.told_men(*men, true)
                } else {
                    self.said_in_prose(*men, Sure::Estimated)
                };
                fill(
                    template(l, Detail::Casualties),
                    &[("unit", self.unit_name(*unit)), ("men", men)],
                )
            }
            Entry::Wavers { unit }
            | Entry::Steadies { unit }
            | Entry::Routs { unit }
            | Entry::Cascade { unit }
            | Entry::Shattered { unit }
            | Entry::Rallies { unit } => {
                if !self.sees_unit(*unit) || !self.shows(entry, *unit) {
                    return None;
                }
                let key = match entry {
                    Entry::Wavers { .. } => Detail::Wavers,
                    Entry::Steadies { .. } => Detail::Steadies,
                    Entry::Routs { .. } => Detail::Routs,
                    // Why an enemy breaks is his own; that he runs is seen.
                    Entry::Cascade { .. } if !own(*unit) => Detail::Routs,
                    Entry::Cascade { .. } => Detail::Cascade,
                    Entry::Shattered { .. } => Detail::Shattered,
                    _ => Detail::Rallies,
                };
                fill(self.unit_template(key, *unit), &unit_args(*unit))
            }
            // The enemy's drums out of sight: heard, from where, not whose.
            Entry::Drums { commander, zone }
                if self.commander_side(*commander) != Some(self.side) && !self.sees_zone(*zone) =>
            {
                fill(
                    template(l, Detail::DrumsFar),
                    &[("zone", self.zone_name(*zone))],
                )
            }
            Entry::Drums { commander, zone } => fill(
                template(l, Detail::Drums),
                &[
                    ("commander", self.commander_name(*commander)),
                    ("zone", self.zone_name(*zone)),
                ],
            ),
            Entry::DrumsHeard { unit, commander } => {
                if !own(*unit) {
                    return None;
                }
                fill(
                    self.unit_template(Detail::DrumsHeard, *unit),
                    &[
                        ("unit", self.unit_name(*unit)),
                        ("drums", self.drums_of(*commander)),
                    ],
                )
            }
            Entry::Surrenders {
                unit,
                men,
                officers,
            } => {
                if !self.sees_unit(*unit) {
                    return None;
                }
                let mut line = fill(
                    template(l, Detail::Surrenders),
                    &[
                        ("unit", self.unit_name(*unit)),
                        ("men", self.told_men(*men, own(*unit))),
                    ],
                );
                if *officers > 0 {
                    line.push(' ');
                    line.push_str(&fill(
                        template(l, Detail::Officers),
                        &[("men", self.told_men(*officers, own(*unit)))],
                    ));
                }
                line
            }
            Entry::Arrives { unit, zone } => {
                if !self.sees_unit(*unit) && !self.sees_zone(*zone) {
                    return None;
                }
                fill(
                    template(l, Detail::Arrives),
                    &[
                        ("unit", self.unit_name(*unit)),
                        ("zone", self.zone_name(*zone)),
                    ],
                )
            }
            Entry::Destroyed { zone, men, .. } => fill(
                template(l, Detail::Destroyed),
                &[
                    ("zone", self.zone_name(*zone)),
                    ("men", self.told_men(*men, false)),
                ],
            ),
            Entry::CommanderFalls { commander, fate } => {
                return self.commander_fall(*commander, *fate);
            }
            Entry::Obscured { zone, by } => return Some(self.obscurant_line(*zone, *by, true)),
            Entry::Unobscured { zone, by } => {
                return Some(self.obscurant_line(*zone, *by, false));
            }
        };
        Some(line)
    }

    /// An order as the player reads it: "hold", "advance to the ford".
    pub fn order_words(&self, order: &UnitCommand) -> String {
        let l = self.locale;
        let zone = |id: &str| {
            self.scene
                .zone_idx(id)
                .map(|z| self.zone_name(z))
                .unwrap_or_default()
        };
        let place = match order {
            UnitCommand::Advance(z) | UnitCommand::Attack(z) => zone(z),
            _ => String::new(),
        };
        let order = match order {
            UnitCommand::Hold => Order::Hold,
            UnitCommand::Advance(_) => Order::Advance(&place),
            UnitCommand::Attack(_) => Order::Attack(&place),
            UnitCommand::Withdraw => Order::Withdraw,
            UnitCommand::Rally => Order::Rally,
        };
        msg(l, Msg::Order(order))
    }

    /// What the player is told when he sends an order.
    pub fn ordered(&self, unit: usize, order: &UnitCommand, arrives: Option<u32>) -> String {
        let l = self.locale;
        let name = self.unit_name(unit);
        let what = self.order_words(order);
        let minute = |turn: u32| {
            let meta = self.scene.meta();
            meta.start_minute
                .saturating_add(turn.saturating_mul(meta.turn_minutes))
        };
        // "The Red Banners have the order", "reach them": a plural name
        // takes the plural, as in the chronicle.
        let plural = self.scene.units().get(unit).is_some_and(|u| u.plural);
        let (unit, what) = (name.as_str(), what.as_str());
        msg(
            l,
            match arrives {
                None => Msg::OrderedNow { unit, what, plural },
                Some(turn) => Msg::OrderedRider {
                    unit,
                    what,
                    plural,
                    minute: minute(turn),
                },
            },
        )
    }

    /// A courier reached his unit, or found it broken.
    pub fn order_delivered(&self, unit: usize, lost: bool) -> String {
        let l = self.locale;
        let name = self.unit_name(unit);
        let unit = name.as_str();
        msg(
            l,
            if lost {
                Msg::OrderLost { unit }
            } else {
                Msg::OrderDelivered { unit }
            },
        )
    }

    /// `orders`: what each of the player's units is doing, and the orders on
    /// their way.
    pub fn orders(&self, couriers: &[crate::story::Courier]) -> String {
        use crate::sim::movement::UnitOrder;
        let l = self.locale;
        let mut lines = Vec::new();
        lines.push(self.style.bold(ui(l, Ui::OrdersInForce)));
        for (idx, word) in self.known.own.iter().enumerate() {
            let Some(word) = word else { continue };
            let unit = &word.record;
            if !self.owns(idx)
                || !unit.location.present
                || !unit.morale.state.can_fight_or_flee()
                || unit.men == 0
            {
                continue;
            }
            let mut doing = if unit.morale.state == MoraleState::Routing {
                ui(l, Ui::RunningDeaf).to_string()
            } else {
                self.doing(unit.orders.order)
            };
            // Where it is bound, when it should get there: a zone a turn by
            // the shortest road (crowded crossings and fights slow it).
            let goal = match unit.orders.order {
                UnitOrder::MoveTo(z) => Some(z),
                UnitOrder::RallyTo(c) => self
                    .known
                    .commanders
                    .get(c)
                    .and_then(|c| c.as_ref())
                    .map(|c| c.zone),
                _ => None,
            };
            if unit.morale.state != MoraleState::Routing
                && let Some(goal) = goal
                && goal != unit.location.zone
                && let Some(hops) = self.hops(unit.location.zone, goal)
            {
                let at = clock(self.minute_of(self.known.turn.saturating_add(hops)));
                doing = msg(
                    l,
                    Msg::DoingThereBy {
                        doing: &doing,
                        at: &at,
                    },
                );
            }
            let id = self
                .scene
                .units()
                .get(idx)
                .map(|u| u.id.as_str())
                .unwrap_or("");
            let at = self.zone_name(unit.location.zone);
            lines.push(msg(
                l,
                Msg::OrdersLine {
                    unit: &self.unit_name(idx),
                    id,
                    at: &at,
                    doing: &doing,
                },
            ));
        }
        if !couriers.is_empty() {
            lines.push(self.style.bold(ui(l, Ui::OnTheirWay)));
            for courier in couriers {
                let Some(idx) = self.scene.unit_idx(&courier.unit) else {
                    continue;
                };
                let meta = self.scene.meta();
                let minute = meta
                    .start_minute
                    .saturating_add(courier.arrives.saturating_mul(meta.turn_minutes));
                let what = self.order_words(&courier.order);
                lines.push(msg(
                    l,
                    Msg::CourierLine {
                        unit: &self.unit_name(idx),
                        what: &what,
                        minute,
                    },
                ));
            }
        }
        lines.join("\n")
    }

    /// What a unit's order has it do: "holding", "making for the ford".
    pub fn doing(&self, order: crate::sim::movement::UnitOrder) -> String {
        use crate::sim::movement::UnitOrder;
        let goal = match order {
            UnitOrder::MoveTo(z) => self.zone_name(z),
            UnitOrder::RallyTo(c) => self.commander_name(c),
            UnitOrder::Hold | UnitOrder::Pursue => String::new(),
        };
        let doing = match order {
            UnitOrder::Hold => Doing::Hold,
            UnitOrder::MoveTo(_) => Doing::MoveTo(&goal),
            UnitOrder::Pursue => Doing::Pursue,
            UnitOrder::RallyTo(_) => Doing::RallyTo(&goal),
        };
        msg(self.locale, Msg::Doing(doing))
    }

    /// Zones between two, by the roads (None: no road joins them).
    pub fn hops(&self, from: usize, to: usize) -> Option<u32> {
        let n = self.field.neighbours.len();
        let mut dist = vec![u32::MAX; n];
        let mut queue = std::collections::VecDeque::new();
        *dist.get_mut(from)? = 0;
        queue.push_back(from);
        while let Some(z) = queue.pop_front() {
            if z == to {
                return Some(dist[z]);
            }
            for &o in self.field.neighbours.get(z).map_or(&[][..], Vec::as_slice) {
                if o < n && dist[o] == u32::MAX {
                    dist[o] = dist[z] + 1;
                    queue.push_back(o);
                }
            }
        }
        None
    }

    /// The turn header: "── Turn 3 · 15:45 · a light wind from the south ──",
    /// 「── 申初三刻（15:45）· 微微南风 ──」 (the clock in the period's terms
    /// names the moment; a turn number would mean nothing to the reader).
    /// One of the scene's obscurants hiding a zone, or lifting, in its own name.
    fn obscurant_line(&self, zone: usize, by: usize, thick: bool) -> String {
        let l = self.locale;
        let name = self
            .scene
            .obscurants()
            .nth(by)
            .map(|(_, o)| o.name.get(l).to_string())
            .unwrap_or_default();
        let key = if thick {
            Detail::Obscured
        } else {
            Detail::Unobscured
        };
        fill(
            template(l, key),
            &[("name", name), ("zone", self.zone_name(zone))],
        )
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
        let l = self.locale;
        // The played commander reads of his own fall in the second person.
        let yours = self
            .scene
            .commanders()
            .get(commander)
            .is_some_and(|c| Some(&c.id) == self.role.as_ref());
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

    /// The turn header: "── Turn 3 · 15:45 · a fresh wind, blowing north ──".
    pub fn turn_header(&self, turn: u32, minute: u32) -> String {
        let l = self.locale;
        let weather = &self.known.weather;
        let wind = super::chronicle::wind_phrase(l, weather.wind, weather.toward);
        let head = msg(
            l,
            Msg::TurnHeader {
                turn,
                minute,
                wind: &wind,
            },
        );
        self.rule(&head)
    }

    /// The header of quiet turns told together: "── Turns 3–6 · 15:15 to 16:00 ──".
    /// A header between rules; the closing rule is left off when it would
    /// not fit the line (it would wrap onto a line of its own).
    fn rule(&self, head: &str) -> String {
        let full = format!("── {head} ──");
        let open = format!("── {head}");
        if width(&full) <= self.style.columns {
            self.style.bold(&full)
        } else if width(&open) <= self.style.columns {
            self.style.bold(&open)
        } else {
            // Too wide even without its closing rule: wrapped at a word, as
            // the terminal would otherwise break it mid-word.
            let wrapped = wrap(&open, self.style.columns, "   ");
            self.style
                .bold(wrapped.strip_prefix("   ").unwrap_or(&wrapped))
        }
    }

    pub fn turns_header(&self, first: u32, last: u32, from: u32, to: u32) -> String {
        let l = self.locale;
        let weather = &self.known.weather;
        let wind = super::chronicle::wind_phrase(l, weather.wind, weather.toward);
        let head = msg(
            l,
            Msg::TurnsHeader {
                first,
                last,
                from,
                to,
                wind: &wind,
            },
        );
        self.rule(&head)
    }

    /// `status` with no order on its way.
    pub fn status(&self) -> String {
        self.status_with(&[])
    }

    /// Why an own unit is not where its order sends it, from what the
    /// simulation knows and the player may: an order still on its way, a
    /// crossing it is still in (crowded, dark or deep), or an enemy known to
    /// stand in its way. None when it is not held up.
    pub(crate) fn stuck(&self, idx: usize, couriers: &[crate::story::Courier]) -> Option<Ui> {
        use crate::sim::movement::UnitOrder;
        let unit = self.known.own_unit(idx)?;
        let id = &self.scene.units().get(idx)?.id;
        if couriers.iter().any(|c| &c.unit == id) {
            return Some(Ui::StuckCourier);
        }
        let zone = unit.location.zone;
        let going = match unit.orders.order {
            UnitOrder::MoveTo(to) => to != zone,
            _ => false,
        };
        if !going || !unit.morale.state.obeys() {
            return None;
        }
        let info = self.field.zones.get(zone)?;
        if info.is_crossing() && unit.orders.progress < f64::from(unit.men) {
            let blind = !self.known.picture.sees.get(zone).copied().unwrap_or(true);
            let crowded = self.known.own.iter().enumerate().any(|(other, word)| {
                other != idx
                    && word.as_ref().is_some_and(|w| {
                        w.record.location.present
                            && w.record.location.zone == zone
                            && w.record.men > 0
                            && w.record.morale.state.can_fight_or_flee()
                    })
            }) || self.known.enemy_in(zone);
            // Alone on a dry span in clear air it is only walking over.
            return if crowded {
                Some(Ui::StuckCrowd)
            } else if blind {
                Some(Ui::StuckDark)
            } else {
                (info.depth_m > 0.0).then_some(Ui::StuckDepth)
            };
        }
        self.known.enemy_in(zone).then_some(Ui::StuckHeld)
    }

    /// `status`: every unit the player can see, with strength, state and a
    /// morale bar, under headings; as a list when the table would not fit.
    /// `status`, with the orders on their way (`couriers`), which say why a
    /// unit has not moved yet.
    pub fn status_with(&self, couriers: &[crate::story::Courier]) -> String {
        let l = self.locale;
        let head: Vec<String> = catalogue::status_head(l)
            .iter()
            .map(|h| h.to_string())
            .collect();
        let mut sides: Vec<usize> = (0..self.scene.sides().len()).collect();
        sides.sort_by_key(|s| *s != self.side);
        // Per side: its heading and its rows (None: a unit out of sight).
        let mut groups: Vec<(String, Vec<StatusRow>)> = Vec::new();
        for side in sides {
            let mine = if side == self.side {
                ui(l, Ui::YourSide)
            } else {
                ""
            };
            let heading = self.style.bold(&format!("{}{mine}", self.side_name(side)));
            let mut rows = Vec::new();
            if side == self.side {
                for (idx, word) in self.known.own.iter().enumerate() {
                    let Some(word) = word else { continue };
                    let unit = &word.record;
                    if self.unit_side(idx) != side || !unit.location.present {
                        continue;
                    }
                    let name = capitalize(&self.unit_name(idx));
                    // No men left: it has left the field, where it was last.
                    if unit.men == 0 {
                        rows.push((
                            name,
                            Some([
                                capitalize(&self.zone_name(unit.location.zone)),
                                String::new(),
                                String::new(),
                                ui(l, Ui::UnitDestroyed).to_string(),
                            ]),
                        ));
                        continue;
                    }
                    let filled = (unit.morale.value / 10.0).round().clamp(0.0, 10.0) as usize;
                    let bar = format!("{}{}", "█".repeat(filled), "░".repeat(10 - filled));
                    let mut state = state_name(l, unit.morale.state).to_string();
                    if word.turn < self.known.turn {
                        state = self.stale(&state, word.turn);
                    }
                    if let Some(why) = self.stuck(idx, couriers) {
                        state = format!("{state}{}{}", ui(l, Ui::ClauseSep), ui(l, why));
                    }
                    rows.push((
                        name,
                        Some([
                            capitalize(&self.zone_name(unit.location.zone)),
                            group_thousands(unit.men),
                            format!("{bar} {:>3.0}", unit.morale.value),
                            state,
                        ]),
                    ));
                }
            } else {
                // The other side as the picture holds it: only units that
                // were ever seen or reported, with estimates, never morale.
                for (name, sighting) in self.enemy_groups(side) {
                    rows.push((capitalize(&name), Some(self.sighting_cells(&sighting))));
                }
                if rows.is_empty() {
                    rows.push((self.style.dim(ui(l, Ui::NoneSeen)), None));
                }
            }
            groups.push((heading, rows));
        }
        let unknown = String::new();
        // The table: widths from every row, the men right-aligned.
        let mut widths = head.iter().map(|h| width(h)).collect::<Vec<_>>();
        for (_, rows) in &groups {
            for (name, cells) in rows {
                widths[0] = widths[0].max(width(name));
                match cells {
                    Some(cells) => {
                        for (i, cell) in cells.iter().enumerate() {
                            widths[i + 1] = widths[i + 1].max(width(cell));
                        }
                    }
                    None => widths[1] = widths[1].max(width(&unknown)),
                }
            }
        }
        let total = 2 + widths.iter().sum::<usize>() + 2 * (widths.len() - 1);
        let mut lines = vec![wrap(&self.whereabouts(), self.style.columns, "")];
        if total <= self.style.columns {
            let row = |cells: &[String]| {
                let mut line = String::from("  ");
                for (i, cell) in cells.iter().enumerate() {
                    let w = widths[i];
                    if i == 2 {
                        line.push_str(&" ".repeat(w.saturating_sub(width(cell))));
                        line.push_str(cell);
                    } else if i + 1 == cells.len() {
                        line.push_str(cell);
                    } else {
                        line.push_str(&pad(cell, w));
                    }
                    if i + 1 < cells.len() {
                        line.push_str("  ");
                    }
                }
                line.trim_end().to_string()
            };
            lines.push(self.style.dim(&row(&head)));
            for (heading, rows) in groups {
                lines.push(heading);
                for (name, cells) in rows {
                    match cells {
                        Some([a, b, c, d]) => lines.push(row(&[name, a, b, c, d])),
                        None => lines.push(row(&[name, unknown.clone()])),
                    }
                }
            }
        } else {
            // Too narrow for the table: each unit on a line, its numbers below.
            let sep = " · ";
            for (heading, rows) in groups {
                lines.push(heading);
                for (name, cells) in rows {
                    lines.push(wrap(&name, self.style.columns, "  "));
                    let detail = match cells {
                        Some([place, men, morale, state]) => {
                            let men = if men.is_empty() || men.ends_with("unknown numbers") {
                                men
                            } else {
                                msg(l, Msg::MenCell { men: &men })
                            };
                            // The bar, its figure and the state move as one.
                            let morale = morale.split_whitespace().collect::<Vec<_>>();
                            let state = if morale.is_empty() {
                                state
                            } else {
                                let keep = KEEP.to_string();
                                format!("{}{KEEP}{state}", morale.join(&keep))
                            };
                            [place, men, state]
                                .into_iter()
                                .filter(|cell| !cell.is_empty())
                                .collect::<Vec<_>>()
                                .join(sep)
                        }
                        None => unknown.clone(),
                    };
                    lines.push(wrap(&detail, self.style.columns, "      "));
                }
            }
        }
        lines.join("\n")
    }

    /// `map list`: the zones listed north to south, with smoke, fire and
    /// the men seen.
    pub fn map_list(&self) -> String {
        let mut rows: Vec<i32> = self.scene.zones().iter().map(|z| z.at.1).collect();
        rows.sort_unstable_by(|a, b| b.cmp(a));
        rows.dedup();
        let mut lines = vec![wrap(&self.whereabouts(), self.style.columns, "")];
        let l = self.locale;
        lines.push(self.style.dim(ui(l, Ui::NorthUp)));
        for y in &rows {
            let mut zones: Vec<usize> = (0..self.scene.zones().len())
                .filter(|z| self.scene.zones()[*z].at.1 == *y)
                .collect();
            zones.sort_by_key(|z| self.scene.zones()[*z].at.0);
            let cells: Vec<String> = zones.iter().map(|&z| self.zone_cell(z)).collect();
            // The row of zones, broken before a " ─ " where it would not fit.
            // A cell wider than the line itself is wrapped.
            let columns = self.style.columns;
            let fit = |row: String| {
                if width(&row) > columns {
                    wrap(&row, columns, "    ")
                } else {
                    row
                }
            };
            // Two zones side by side are joined by " ─ " only where a road
            // runs between them; every other road is listed under the row.
            let adjacent = |a: usize, b: usize| self.scene.adjacent(a).contains(&b);
            let mut row = String::new();
            for (k, cell) in cells.into_iter().enumerate() {
                let link = if k > 0 && adjacent(zones[k - 1], zones[k]) {
                    " ─ "
                } else {
                    "   "
                };
                if row.is_empty() {
                    row = cell;
                } else if width(&row) + 3 + width(&cell) <= columns {
                    row.push_str(link);
                    row.push_str(&cell);
                } else {
                    lines.push(fit(std::mem::take(&mut row)));
                    row = format!(" {link}{cell}");
                }
            }
            if !row.is_empty() {
                lines.push(fit(row));
            }
            let sep = ui(l, Ui::ItemSep);
            for &z in &zones {
                let units = self.zone_units(z);
                if units.is_empty() {
                    continue;
                }
                let line = if zones.len() > 1 {
                    let colon = ui(l, Ui::Colon);
                    format!(
                        "{}{colon}{}",
                        capitalize(&self.zone_name(z)),
                        units.join(sep)
                    )
                } else {
                    units.join(sep)
                };
                lines.push(wrap(&line, self.style.columns, "    "));
            }
            // The roads from this row not drawn in it, each once: to a zone
            // of a row below, or to one of its own row not beside it.
            for (k, &z) in zones.iter().enumerate() {
                let others: Vec<String> = self
                    .scene
                    .adjacent(z)
                    .iter()
                    .filter(|&&o| {
                        let at = self.scene.zones()[o].at.1;
                        let beside = zones
                            .iter()
                            .position(|&x| x == o)
                            .is_some_and(|p| p + 1 == k || k + 1 == p);
                        at < *y || (at == *y && o > z && !beside)
                    })
                    .map(|&o| self.zone_name(o))
                    .collect();
                if others.is_empty() {
                    continue;
                }
                let list = others.join(ui(l, Ui::ListSep));
                let line = format!("    │ {} ─ {list}", capitalize(&self.zone_name(z)));
                lines.push(self.style.dim(&wrap(&line, self.style.columns, "      ")));
            }
        }
        let legend = ui(l, Ui::Legend);
        lines.push(wrap(&self.style.dim(legend), self.style.columns, ""));
        lines.join("\n")
    }

    pub(crate) fn zone_cell(&self, zone: usize) -> String {
        let l = self.locale;
        let Some(record) = self.known.zones.get(zone) else {
            return String::new();
        };
        let info = &self.field.zones[zone];
        let mut marks = Vec::new();
        let kind = match info.kind {
            ZoneKind::Ford => "≈",
            ZoneKind::Bridge => "=",
            ZoneKind::Camp => "▲",
            ZoneKind::Road => "·",
            _ => "",
        };
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
            msg(l, Msg::Marks { marks: &marks })
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
                || unit.location.zone != zone
                || !unit.morale.state.can_fight_or_flee()
                || unit.men == 0
            {
                continue;
            }
            let mut state = state_name(self.locale, unit.morale.state).to_string();
            if word.turn < self.known.turn {
                state = self.stale(&state, word.turn);
            }
            let label = match self.scene.units().get(idx) {
                Some(u) if labels => format!(
                    "{}{}",
                    ui(self.locale, Ui::LabelGap),
                    self.style
                        .dim(&msg(self.locale, Msg::UnitLabel { id: &u.id }))
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
                Msg::SeenInZone {
                    name: &name,
                    men: &men,
                    bearing: &bearing,
                },
            );
            let current = sighting.turn == self.known.picture.turn;
            out.push(if current {
                line
            } else {
                let at = clock(self.minute_of(sighting.turn));
                let line = msg(
                    self.locale,
                    Msg::SeenAt {
                        line: &line,
                        at: &at,
                    },
                );
                self.style.dim(&line)
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
                Msg::Troops {
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

    /// A state or place with the age of the word that gave it: "holding
    /// (word of 15:45)", 「坚守（15:45消息）」.
    fn stale(&self, what: &str, turn: u32) -> String {
        let at = clock(self.minute_of(turn));
        msg(self.locale, Msg::Stale { what, at: &at })
    }

    /// The clock minute of a turn.
    fn minute_of(&self, turn: u32) -> u32 {
        let meta = self.scene.meta();
        meta.start_minute
            .saturating_add(turn.saturating_mul(meta.turn_minutes))
    }

    /// What the commander knows of an enemy unit, as `status` cells:
    /// where (and since when), how many (as said), nothing for morale, and
    /// how it behaves.
    pub(crate) fn sighting_cells(&self, s: &Sighting) -> [String; 4] {
        let l = self.locale;
        let now = s.turn == self.known.picture.turn;
        let at = clock(self.minute_of(s.turn));
        let zone = capitalize(&self.zone_name(s.zone));
        let reported = matches!(s.source, Source::Reported { .. });
        let place = match (s.lost, now, reported) {
            (true, _, _) => msg(
                l,
                Msg::PlaceGone {
                    zone: &self.zone_name(s.zone),
                    zone_cap: &zone,
                    at: &at,
                },
            ),
            (false, true, false) => zone,
            (false, true, true) => msg(l, Msg::PlaceReported { zone: &zone }),
            (false, false, false) => msg(
                l,
                Msg::PlaceSeen {
                    zone: &zone,
                    at: &at,
                },
            ),
            (false, false, true) => msg(
                l,
                Msg::PlaceReportedAt {
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

    /// Where the commander stands and what he sees from there: "You are at
    /// the main camp; you see the south bank and the ford." (issue 20).
    pub fn whereabouts(&self) -> String {
        let l = self.locale;
        let picture = &self.known.picture;
        let Some(at) = picture.at.filter(|_| !picture.fallen) else {
            return ui(l, Ui::NotInField).to_string();
        };
        let seen: Vec<String> = picture
            .sees
            .iter()
            .enumerate()
            .filter(|&(z, &s)| s && z != at)
            .map(|(z, _)| self.zone_name(z))
            .collect();
        let here = self.zone_name(at);
        let blind_here = !picture.sees.get(at).copied().unwrap_or(false);
        let smoky = self
            .known
            .zones
            .get(at)
            .is_some_and(|z| z.burning.smoke >= self.field.rules.smoke_blind);
        let text = msg(
            l,
            Msg::Whereabouts {
                here: &here,
                blind: blind_here,
                smoky,
                seen: &seen,
            },
        );
        capitalize(&text)
    }

    /// `why`: what moved each of the player's units' morale last turn.
    pub fn why(&self) -> String {
        let mut lines = Vec::new();
        for (idx, word) in self.known.own.iter().enumerate() {
            let Some(word) = word.as_ref().filter(|w| w.turn == self.known.turn) else {
                continue;
            };
            let unit = &word.record;
            if self.unit_side(idx) != self.side || unit.morale.last.is_empty() {
                continue;
            }
            // One term per cause (a turn of several quarter-hours notes a
            // cause at each), in the order first met, in whole points;
            // what rounds to nothing is left out.
            let mut merged: Vec<(crate::sim::morale::Modifier, f64)> = Vec::new();
            for (modifier, delta) in &unit.morale.last {
                match merged.iter_mut().find(|(m, _)| m == modifier) {
                    Some((_, total)) => *total += delta,
                    None => merged.push((*modifier, *delta)),
                }
            }
            let parts: Vec<String> = merged
                .iter()
                .filter(|(_, delta)| delta.round() != 0.0)
                .map(|(modifier, delta)| {
                    format!(
                        "{} {:+.0}",
                        modifier_name(self.locale, *modifier),
                        delta.round()
                    )
                })
                .collect();
            if parts.is_empty() {
                continue;
            }
            let sep = ui(self.locale, Ui::ClauseSep);
            lines.push(format!(
                "{}{}{}",
                capitalize(&self.unit_name(idx)),
                ui(self.locale, Ui::Colon),
                parts.join(sep)
            ));
        }
        if lines.is_empty() {
            return ui(self.locale, Ui::NoWhy).to_string();
        }
        lines
            .into_iter()
            .map(|l| wrap(&l, self.style.columns, "  ").trim_start().to_string())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The losses table of the ending screen: the player's own side as
    /// counted, the other side as he reckons it (the reveal tells the truth).
    pub fn losses(&self) -> String {
        let l = self.locale;
        let mut lines = Vec::new();
        for side in 0..self.scene.sides().len() {
            let name = self.side_name(side);
            if side == self.side {
                let left = self.known.own_men();
                // Men brought: of the units that came to the field.
                let brought: u32 = self
                    .known
                    .own
                    .iter()
                    .enumerate()
                    .filter(|(_, w)| w.as_ref().is_some_and(|w| w.record.location.present))
                    .filter_map(|(i, _)| self.field.units.get(i))
                    .map(|u| u.start_men)
                    .sum();
                let lost = catalogue::count(l, brought.saturating_sub(left));
                let left = catalogue::count(l, left);
                lines.push(msg(
                    l,
                    Msg::OwnLosses {
                        side: &name,
                        lost: &lost,
                        left: &left,
                    },
                ));
            } else {
                let standing = match self.known.picture.reckon(
                    self.field,
                    crate::picture::Body::Side,
                    |_, u| u.side == side,
                ) {
                    Reckoning::About(men) => Some(self.said(men, Sure::Estimated)),
                    Reckoning::Rough(men) => Some(self.said(men, Sure::Rough)),
                    Reckoning::Unknown => None,
                };
                lines.push(msg(
                    l,
                    Msg::TheirReckoning {
                        side: &name,
                        men: standing.as_deref(),
                    },
                ));
            }
        }
        lines
            .iter()
            .map(|line| {
                let wrapped = wrap(line.trim_start(), self.style.columns, "    ");
                format!("  {}", wrapped.trim_start())
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// "What you did not know": after the ending, the commander's picture
    /// against the truth — the other side's real strength and losses,
    /// where its units really were when he could not see them, what he
    /// reckoned wrong, and the cries his men heard, true or false.
    pub fn reveal(&self, reveal: &Reveal) -> Vec<String> {
        let l = self.locale;
        let mut lines = Vec::new();
        let reckoned = |r: Reckoning| match r {
            Reckoning::About(n) => Some(self.said(n, Sure::Estimated)),
            Reckoning::Rough(n) => Some(self.said(n, Sure::Rough)),
            Reckoning::Unknown => None,
        };
        // The truth, counted: figures in English, said in Chinese numerals.
        let count = |n: u32| catalogue::count(l, n);
        for side in &reveal.others {
            let name = self.side_name(side.side);
            let (brought, lost, standing) =
                (count(side.brought), count(side.lost), count(side.standing));
            let guess = reckoned(side.reckoned);
            lines.push(msg(
                l,
                Msg::RevealSide {
                    side: &name,
                    brought: &brought,
                    lost: &lost,
                    standing: &standing,
                    guess: guess.as_deref(),
                },
            ));
        }
        let list = |items: Vec<String>| -> String {
            let sep = ui(l, Ui::ItemSep);
            let n = items.len();
            if n > 6 {
                let more = n - 5;
                let mut shown = items.into_iter().take(5).collect::<Vec<_>>();
                shown.push(msg(l, Msg::AndMore { more }));
                shown.join(sep)
            } else {
                items.join(sep)
            }
        };
        let true_name = |unit: usize| {
            let name = self
                .scene
                .units()
                .get(unit)
                .map(|u| u.name.get(l).to_string())
                .unwrap_or_default();
            let name = self.style.paint(
                self.scene
                    .sides()
                    .get(self.unit_side(unit))
                    .map_or(Colour::Yellow, |s| s.colour),
                &name,
            );
            format!("{NAME_OPEN}{}{NAME_CLOSE}", self.mid_sentence_owned(name))
        };
        // Never seen at all, though they were on the field.
        let unseen: Vec<String> = reveal
            .units
            .iter()
            .filter(|u| u.known.is_none() && u.standing)
            .map(|u| {
                let (name, men, zone) = (true_name(u.unit), count(u.men), self.zone_name(u.zone));
                msg(
                    l,
                    Msg::UnseenUnit {
                        unit: &name,
                        men: &men,
                        zone: &zone,
                    },
                )
            })
            .collect();
        if !unseen.is_empty() {
            let items = list(unseen);
            lines.push(msg(l, Msg::NeverSeen { items: &items }));
        }
        // Last seen elsewhere than they were.
        let moved: Vec<String> = reveal
            .units
            .iter()
            .filter_map(|u| {
                let s = u.known?;
                let current = s.turn == self.known.picture.turn && !s.lost;
                if current || !u.standing || s.zone == u.zone {
                    return None;
                }
                let at = time_words(l, self.minute_of(s.turn));
                let (name, was, is) = (
                    true_name(u.unit),
                    self.zone_name(s.zone),
                    self.zone_name(u.zone),
                );
                Some(msg(
                    l,
                    Msg::MovedUnit {
                        unit: &name,
                        at: &at,
                        was: &was,
                        is: &is,
                    },
                ))
            })
            .collect();
        if !moved.is_empty() {
            let items = list(moved);
            lines.push(msg(l, Msg::NotWhereThought { items: &items }));
        }
        // Reckoned wrong: the last estimate a third or more off the truth,
        // for units still seen at the end.
        let wrong: Vec<String> = reveal
            .units
            .iter()
            .filter_map(|u| {
                let s = u.known?;
                let current = s.turn == self.known.picture.turn && !s.lost;
                if !current || !u.standing || u.men == 0 {
                    return None;
                }
                let off = (f64::from(s.men) - f64::from(u.men)).abs() / f64::from(u.men);
                if off < 0.33 {
                    return None;
                }
                let (name, guess, truth) = (
                    true_name(u.unit),
                    self.said(s.men, Sure::Estimated),
                    count(u.men),
                );
                Some(msg(
                    l,
                    Msg::WrongUnit {
                        unit: &name,
                        guess: &guess,
                        truth: &truth,
                    },
                ))
            })
            .collect();
        if !wrong.is_empty() {
            let items = list(wrong);
            lines.push(msg(l, Msg::ReckonedWrong { items: &items }));
        }
        for cry in &reveal.cries {
            let about = self.side_name(cry.about);
            let at = time_words(l, self.minute_of(cry.turn));
            let claim = msg(
                l,
                Msg::Claim {
                    side: &about,
                    routed: cry.routed,
                },
            );
            lines.push(msg(
                l,
                Msg::Cry {
                    claim: &claim,
                    believers: cry.believers,
                    at: &at,
                    true_then: cry.true_then,
                },
            ));
        }
        lines
    }

    /// [`View::mid_sentence`] of a name already painted.
    fn mid_sentence_owned(&self, name: String) -> String {
        if capitalizes(self.locale) && name.contains("The ") {
            name.replacen("The ", "the ", 1)
        } else {
            name
        }
    }

    /// A line about the weather where the player's commander is.
    pub fn weather_line(&self, zone: usize) -> String {
        let l = self.locale;
        let smoke = self
            .known
            .zones
            .get(zone)
            .map(|z| z.burning.smoke)
            .unwrap_or(0.0);
        let weather = &self.known.weather;
        let wind = super::chronicle::wind_phrase(l, weather.wind, weather.toward);
        msg(
            l,
            Msg::WeatherLine {
                wind: &wind,
                zone: &self.zone_name(zone),
                smoke: smoke_words(l, self.field, smoke),
            },
        )
    }
}

/// A said figure that opens a sentence ("… cold. some 15,000 of your
/// men") takes a capital, as the sentence's first word would.
fn sentence_starts(text: &str) -> String {
    const OPENERS: [&str; 6] = ["some ", "about ", "nearly ", "over ", "a few ", "several "];
    let mut out = text.to_string();
    for opener in OPENERS {
        for stop in [". ", "! ", "? "] {
            let from = format!("{stop}{opener}");
            if out.contains(&from) {
                let to = format!("{stop}{}", capitalize(opener));
                out = out.replace(&from, &to);
            }
        }
    }
    out
}

/// Upper-cases the first letter, skipping colour codes before it.
pub(crate) fn capitalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_escape = false;
    let mut done = false;
    for c in text.chars() {
        if done {
            out.push(c);
        } else if in_escape {
            out.push(c);
            in_escape = !c.is_ascii_alphabetic();
        } else if c == '\u{1b}' {
            out.push(c);
            in_escape = true;
        } else if c == NAME_OPEN || c == NAME_CLOSE {
            out.push(c);
        } else {
            out.extend(c.to_uppercase());
            done = true;
        }
    }
    out
}

/// The `saves` table, in the player's language: slot, battle, role, turn and
/// time, or why a slot cannot be read; as a list when the table would not
/// fit `columns`.
pub fn saves_table(dir: &std::path::Path, locale: Locale, columns: usize) -> String {
    use crate::save;
    let mut rows = match save::list(dir) {
        Ok(rows) => rows,
        Err(err) => return wrap(&err.to_string(), columns, ""),
    };
    // Newest first (the game just saved at the top), unreadable files last;
    // slots of one second in name order.
    rows.sort_by_key(|row| std::cmp::Reverse(row.summary.as_ref().map_or(0, |s| s.saved_at)));
    if rows.is_empty() {
        let text = msg(
            locale,
            Msg::SavesIn {
                dir: &dir.display().to_string(),
            },
        );
        return wrap(&text, columns, "");
    }
    let head = catalogue::saves_head(locale);
    let unreadable = ui(locale, Ui::Unreadable);
    let mut table = vec![head.iter().map(|s| s.to_string()).collect::<Vec<_>>()];
    for row in &rows {
        table.push(match &row.summary {
            Ok(s) => vec![
                row.slot.clone(),
                s.scene.clone(),
                s.role.clone(),
                s.turn.to_string(),
                save::timestamp(s.saved_at),
            ],
            Err(why) => vec![row.slot.clone(), format!("{unreadable} ({why})")],
        });
    }
    let widths: Vec<usize> = (0..5)
        .map(|c| {
            table
                .iter()
                .filter(|r| r.len() == 5)
                .filter_map(|r| r.get(c))
                .map(|cell| width(cell))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line_of = |r: &Vec<String>| {
        r.iter()
            .zip(&widths)
            .map(|(cell, w)| pad(cell, *w))
            .collect::<Vec<_>>()
            .join("  ")
            .trim_end()
            .to_string()
    };
    let fits = widths.iter().sum::<usize>() + 8 <= columns
        && table.iter().all(|r| width(&line_of(r)) <= columns);
    if fits {
        return table.iter().map(line_of).collect::<Vec<_>>().join("\n");
    }
    // Too narrow: one slot to a line, what it holds below.
    let mut lines = Vec::new();
    for r in table.iter().skip(1) {
        lines.push(wrap(&r[0], columns, ""));
        let detail = if r.len() == 5 {
            let turn = msg(locale, Msg::SaveTurn { turn: &r[3] });
            format!("{} · {} · {turn} · {} UTC", r[1], r[2], r[4])
        } else {
            r[1].clone()
        };
        lines.push(wrap(&detail, columns, "    "));
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::WorldState;

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
