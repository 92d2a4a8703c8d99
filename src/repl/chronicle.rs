//! The turn told as prose: the simulation's typed entries composed into a
//! few sentences from the player's side.
//!
//! The simulation reports everything (every unit that wavered, every man
//! trampled); a reader wants what mattered. Composition:
//! - each unit ends the turn in one state: a unit that wavered and steadied
//!   again is not mentioned, one that broke and rallied within the turn is
//!   told in one sentence ("breaks and runs, but rallies");
//! - of his own units, only those his riders reach this turn: what befalls
//!   one cut off is told when word of it comes again (where it is,
//!   how many, in what state, how many lost since the last word);
//! - the enemy is told only as the player's side perceives him: units in
//!   zones it sees, losses estimated, fighting out of sight only as a sound;
//! - losses are totals (per place, per side), trivial ones dropped;
//! - facts are ranked (a bridge blown, routs, arrivals, the biggest fight,
//!   rallies, the cry, wavering, marches, weather) and at most
//!   [`SENTENCES`] are told; the rest is one command away (`report`);
//! - what was told last turn is remembered ([`Memory`]) so the same fight
//!   "goes on", the same smoke does not "clear" twice, and the wind is told
//!   only when it changes.
//!
//! Templates are per locale and keyed by a closed enum ([`Say`]): a missing
//! translation is a compile error, not an empty line.

use super::catalogue::{self, Say, Ui, capitalizes, ui};
use super::numbers::Sure;
use super::render::{View, wind_band, wind_phrase};
use super::wrap::capitalize;
use crate::picture::Bearing;
use crate::scene::{Compass, Locale, MoraleState};
use crate::sim::Entry;
use std::collections::{BTreeMap, BTreeSet};

/// At most this many sentences for an ordinary turn.
pub const SENTENCES: usize = 3;

/// Losses below this are not worth a sentence.
const TRIVIAL: u32 = 10;

/// What the chronicle told before, so it does not repeat itself.
#[derive(Debug, Clone, Default)]
pub struct Memory {
    /// The wind as last told (band, direction).
    wind: Option<(u8, Compass)>,
    /// Per zone: the smoke as last told (true = thick).
    smoke: BTreeMap<usize, bool>,
    /// Zones where fighting was told last turn.
    fights: BTreeSet<usize>,
    /// Commanders whose drums were told last turn.
    drums: BTreeSet<usize>,
    /// Per unit of the player's: how it last took a cry (-1 lost heart,
    /// 0 unmoved, 1 took heart), so each belief is told once.
    beliefs: BTreeMap<usize, i8>,
    /// Zones where the enemy was told coming on last turn.
    enemy_at: BTreeSet<usize>,
    /// Zones where, by his latest word, the enemy stood in a body at the
    /// last turn's end: his coming there is told no more.
    enemy_seen: BTreeSet<usize>,
    /// Zones where the enemy was told coming into sight before: his next
    /// coming there is told as coming again.
    enemy_appeared: BTreeSet<usize>,
    /// The turn header shows the wind: a change need not be told again.
    pub header_tells_wind: bool,
}

impl Memory {
    /// Starts remembering from the world as it is (after a load or an undo).
    pub fn reset(&mut self, strength: f64, toward: Compass) {
        *self = Memory::default();
        self.wind = Some((wind_band(strength), toward));
    }
}

fn fill(template: &str, args: &[(&str, String)]) -> String {
    crate::scene::placeholder::fill(template, |inside| {
        args.iter()
            .find(|(name, _)| *name == inside)
            .map(|(_, v)| v.clone())
    })
}

/// A unit's morale at the end of the turn, as far as the turn changed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    Wavered,
    Steadied,
    Routed,
    Shattered,
    Rallied,
    Surrendered,
}

pub use super::catalogue::Alert;

impl Alert {
    pub fn words(self, locale: Locale) -> &'static str {
        catalogue::alert(locale, self)
    }
}

/// Whether the own dead of a run of turns so far stop it: more than
/// `share` of the men his side had at the run's start (rule `stop_losses`).
pub fn heavy_losses(lost: u32, before: u32, share: f64) -> bool {
    before > 0 && lost > 0 && f64::from(lost) > share * f64::from(before)
}

/// `lost` as a whole percent of `of`, at least 1 (a stop is never "0 %").
pub fn percent(lost: u32, of: u32) -> u32 {
    if of == 0 {
        return 100;
    }
    ((100.0 * f64::from(lost) / f64::from(of)).round() as u32).clamp(1, 100)
}

/// A turn told: its sentences, and whether it needs the player.
#[derive(Debug, Clone, Default)]
pub struct Composed {
    pub sentences: Vec<String>,
    pub alert: Option<Alert>,
    /// The player's own dead in these entries, from every cause (fighting,
    /// a crush, a blast, an effect's casualties, officers cut down), told
    /// or not: what a run of turns weighs against `stop_losses`.
    pub own_lost: u32,
}

/// One thing worth a sentence, with its rank (lower is told first).
struct Fact {
    rank: u8,
    /// A measure to order facts of one rank (men involved).
    weight: u32,
    text: String,
}

/// What one pass over a turn's entries gathered for the sentences told
/// after it.
#[derive(Default)]
struct Gathered {
    /// Zones his own units that he hears of this turn left in it: their
    /// losses there are heard though they stand elsewhere now.
    left: BTreeSet<usize>,
    /// Each unit's first and last state this turn.
    fates: BTreeMap<usize, (Fate, Fate)>,
    /// Men and officers of each unit that gave up.
    surrendered: BTreeMap<usize, (u32, u32)>,
    /// How each of the player's units took a cry this turn.
    beliefs: BTreeMap<usize, i8>,
    /// Where each of the player's units went, and the crossing it took.
    marches: BTreeMap<usize, (usize, Option<usize>)>,
    /// Units that came up, by zone.
    arrivals: BTreeMap<usize, Vec<usize>>,
    /// Zones near his men where the enemy came into sight.
    enemy_comes: BTreeSet<usize>,
    /// Zones in sight, with none of his men, that the enemy came into.
    enemy_appears: BTreeSet<usize>,
    /// Per zone: (own lost, enemy lost, own trampled, enemy trampled).
    zone_losses: BTreeMap<usize, (u32, u32, u32, u32)>,
    /// Per zone: (own, enemy) killed by fire.
    burned: BTreeMap<usize, (u32, u32)>,
    /// Dead from effects and blasts: his own, and the enemy's seen.
    effect_losses: (u32, u32),
    /// Drums beating, by commander, and where.
    drums: BTreeMap<usize, usize>,
}

/// The own units that marched this turn, by (where to, the crossing they
/// took, running): [`View::march_groups`].
type Marches = BTreeMap<(usize, Option<usize>, bool), Vec<usize>>;

/// The own units that marched into `zone` this turn, not running, and the
/// crossing they took if they all took the same one: they are told coming
/// up into the fight there. None when none did.
fn joining(marches: &Marches, zone: usize) -> Option<(Option<usize>, Vec<usize>)> {
    let groups: Vec<(Option<usize>, &Vec<usize>)> = marches
        .iter()
        .filter(|((to, _, flee), _)| *to == zone && !*flee)
        .map(|((_, through, _), units)| (*through, units))
        .collect();
    let (first, _) = *groups.first()?;
    let through = first.filter(|_| groups.iter().all(|(t, _)| *t == first));
    let mut units: Vec<usize> = groups
        .into_iter()
        .flat_map(|(_, u)| u.iter().copied())
        .collect();
    units.sort_unstable();
    Some((through, units))
}

/// The facts of a turn as they are found, and the most urgent alert.
struct Found<'a> {
    facts: Vec<Fact>,
    alert: &'a mut Option<Alert>,
}

impl Found<'_> {
    fn raise(&mut self, alert: Alert) {
        if self.alert.is_none_or(|old| alert < old) {
            *self.alert = Some(alert);
        }
    }

    fn say(&mut self, rank: u8, weight: u32, text: String) {
        self.facts.push(Fact { rank, weight, text });
    }
}

impl View<'_> {
    /// A list of names: "A", "A and B", "A, B, C and D", "A, B, C and 3
    /// more"; 「甲、乙、丙、丁」, 「甲、乙、丙等5部」. Four are named in full:
    /// "and 1 more" would hide a name in the room it takes to write it.
    fn name_list(&self, units: &[usize]) -> String {
        let l = self.locale;
        let named = if units.len() <= 4 { units.len() } else { 3 };
        let shown: Vec<String> = units
            .iter()
            .take(named)
            .map(|u| self.unit_name(*u))
            .collect();
        catalogue::name_list(l, shown, units.len())
    }

    fn other_side(&self) -> usize {
        (0..self.field.n_sides)
            .find(|s| *s != self.side)
            .unwrap_or(0)
    }

    /// The other side's name as a sentence says it, for "the Jin lose
    /// about 300" (its article the author's: [`View::side_in_prose`]).
    fn enemy_name(&self) -> String {
        self.side_in_prose(self.other_side())
    }

    /// The turn's entries as at most [`SENTENCES`] sentences, most important
    /// first; `memory` is read and updated.
    /// `new_turn`: the entries are a turn's own (not an event's effects
    /// told later in the same turn), so what they did not repeat is
    /// forgotten.
    pub fn compose(&self, entries: &[Entry], memory: &mut Memory, new_turn: bool) -> Composed {
        let mut alert = None;
        let own_lost = self.own_lost(entries);
        let mut facts = self.facts(entries, memory, &mut alert, new_turn);
        facts.sort_by_key(|f| (f.rank, std::cmp::Reverse(f.weight)));
        facts.truncate(SENTENCES);
        let sentences = facts
            .into_iter()
            .map(|f| {
                if capitalizes(self.locale) {
                    capitalize(&f.text)
                } else {
                    f.text
                }
            })
            .collect();
        Composed {
            sentences,
            alert,
            own_lost,
        }
    }

    /// Zones the own units he hears of this turn moved out of in it.
    pub(crate) fn left_by_heard(&self, entries: &[Entry]) -> BTreeSet<usize> {
        entries
            .iter()
            .filter_map(|entry| match entry {
                Entry::Moves { unit, from, .. } if self.hears(*unit) => Some(*from),
                Entry::Crossed { unit, zone, .. } if self.hears(*unit) => Some(*zone),
                _ => None,
            })
            .collect()
    }

    /// The player's own dead in the entries, from every cause.
    pub fn own_lost(&self, entries: &[Entry]) -> u32 {
        let left = self.left_by_heard(entries);
        let by_side = |zone: usize, losses: &[(usize, u32)]| -> u32 {
            if !left.contains(&zone) && !self.hears_zone(zone) {
                return 0;
            }
            losses
                .iter()
                .filter(|(side, _)| *side == self.side)
                .map(|(_, men)| *men)
                .sum()
        };
        let by_unit = |hits: &[(usize, u32)]| -> u32 {
            hits.iter()
                .filter(|(unit, _)| self.hears(*unit))
                .map(|(_, men)| *men)
                .sum()
        };
        entries
            .iter()
            .map(|entry| match entry {
                Entry::Clash { zone, losses }
                | Entry::Trampled { zone, losses, .. }
                | Entry::Burned { zone, losses, .. } => by_side(*zone, losses),
                Entry::Destroyed { hits, .. } => by_unit(hits),
                // A scene's effect: told in its own words, which are the word.
                Entry::Casualties { unit, men } if self.owns(*unit) => *men,
                Entry::Surrenders { unit, officers, .. } if self.hears(*unit) => *officers,
                _ => 0,
            })
            .fold(0u32, u32::saturating_add)
    }

    fn facts(
        &self,
        entries: &[Entry],
        memory: &mut Memory,
        alert: &mut Option<Alert>,
        new_turn: bool,
    ) -> Vec<Fact> {
        let mut found = Found {
            facts: Vec::new(),
            alert,
        };
        let mut g = Gathered {
            left: self.left_by_heard(entries),
            ..Gathered::default()
        };
        // A turn of the wind that a scene's event then sets otherwise is
        // not told: the wind he feels is the event's.
        let wind_set = entries
            .iter()
            .rposition(|e| matches!(e, Entry::Wind { .. }));
        for (i, entry) in entries.iter().enumerate() {
            if matches!(entry, Entry::WindShifts { .. }) && wind_set.is_some_and(|set| set > i) {
                continue;
            }
            self.gather(entry, &mut g, memory, &mut found, new_turn);
        }
        self.tell_fates(&g, &mut found);
        if new_turn {
            self.tell_falls_heard(&mut found);
            self.tell_word_again(&mut found);
        }
        self.tell_arrivals(&g, &mut found);
        let marches = self.march_groups(&g);
        let joined = self.tell_fighting(&g, &marches, memory, &mut found, new_turn);
        self.tell_effect_losses(&g, &mut found);
        self.tell_drums(&g, memory, &mut found, new_turn);
        self.tell_cry(&mut g.beliefs, memory, &mut found);
        self.tell_marches(&marches, &joined, &mut found);
        self.tell_enemy_comes(&g, memory, &mut found);
        self.tell_enemy_appears(&g, memory, &mut found, new_turn);
        found.facts
    }

    /// Takes one entry in: what is told later is gathered in `g`, what is
    /// told as it comes is told at once.
    fn gather(
        &self,
        entry: &Entry,
        g: &mut Gathered,
        memory: &mut Memory,
        found: &mut Found,
        new_turn: bool,
    ) {
        let mut fate = |unit: usize, f: Fate| {
            g.fates
                .entry(unit)
                .and_modify(|(_, last)| *last = f)
                .or_insert((f, f));
        };
        // An own unit cut off from him: nothing of it is told as it
        // happens (it is told with the next word of it). A scene's
        // effects (casualties) are told: the scene's words are the word.
        let unit_of = match entry {
            Entry::Wavers { unit }
            | Entry::Steadies { unit }
            | Entry::Routs { unit }
            | Entry::Cascade { unit }
            | Entry::Shattered { unit }
            | Entry::Rallies { unit }
            | Entry::Surrenders { unit, .. }
            | Entry::RumorBelieved { unit, .. }
            | Entry::RumorDoubted { unit }
            | Entry::Moves { unit, .. }
            | Entry::Crossed { unit, .. }
            | Entry::Arrives { unit, .. } => Some(*unit),
            _ => None,
        };
        let again = |unit: usize| {
            new_turn
                && self
                    .known
                    .picture
                    .word_again
                    .iter()
                    .any(|(u, _)| *u == unit)
        };
        if unit_of.is_some_and(|unit| self.owns(unit) && (!self.hears(unit) || again(unit))) {
            return;
        }
        match entry {
            Entry::Wavers { unit } => fate(*unit, Fate::Wavered),
            Entry::Steadies { unit } => fate(*unit, Fate::Steadied),
            Entry::Routs { unit } | Entry::Cascade { unit } => fate(*unit, Fate::Routed),
            Entry::Shattered { unit } => fate(*unit, Fate::Shattered),
            Entry::Rallies { unit } => fate(*unit, Fate::Rallied),
            Entry::Surrenders {
                unit,
                men,
                officers,
            } => {
                fate(*unit, Fate::Surrendered);
                g.surrendered.insert(*unit, (*men, *officers));
            }
            Entry::RumorBelieved {
                unit,
                about,
                routed,
            } if self.owns(*unit) => {
                let bad_word = (self.unit_side(*unit) == *about) == *routed;
                g.beliefs.insert(*unit, if bad_word { -1 } else { 1 });
            }
            Entry::RumorDoubted { unit } if self.owns(*unit) => {
                g.beliefs.insert(*unit, 0);
            }
            Entry::Moves { unit, from, to } => {
                if self.owns(*unit) {
                    g.marches.entry(*unit).or_insert((*to, None)).0 = *to;
                } else if self.sees_zone(*to) && self.own_in(*to) {
                    found.raise(Alert::EnemySighted);
                    g.enemy_comes.insert(*to);
                } else if self.sees_zone(*to) && !self.sees_zone(*from) {
                    // Out of sight into sight: men moving about in plain
                    // view are told no more.
                    g.enemy_appears.insert(*to);
                }
            }
            Entry::Crossed { unit, zone, to } if self.owns(*unit) => {
                let march = g.marches.entry(*unit).or_insert((*to, None));
                march.0 = *to;
                march.1 = Some(*zone);
            }
            Entry::Arrives { unit, zone } => {
                if self.owns(*unit) {
                    found.raise(Alert::Arrived);
                } else if self.sees_zone(*zone) {
                    found.raise(Alert::EnemySighted);
                }
                if self.owns(*unit) || self.sees_zone(*zone) {
                    g.arrivals.entry(*zone).or_default().push(*unit);
                }
            }
            Entry::Clash { zone, losses } => {
                let heard = g.left.contains(zone) || self.hears_zone(*zone);
                let at = g.zone_losses.entry(*zone).or_default();
                for (side, men) in losses {
                    if *side == self.side {
                        if !heard {
                            continue;
                        }
                        at.0 += men;
                    } else {
                        at.1 += men;
                    }
                }
            }
            Entry::Trampled { zone, losses, .. } => {
                let heard = g.left.contains(zone) || self.hears_zone(*zone);
                let at = g.zone_losses.entry(*zone).or_default();
                for (side, men) in losses {
                    if *side == self.side {
                        if !heard {
                            continue;
                        }
                        at.2 += men;
                    } else {
                        at.3 += men;
                    }
                }
            }
            Entry::Burned { zone, losses, .. } => {
                let heard = g.left.contains(zone) || self.hears_zone(*zone);
                let at = g.burned.entry(*zone).or_default();
                for (side, men) in losses {
                    if *side == self.side {
                        if !heard {
                            continue;
                        }
                        at.0 += men;
                    } else {
                        at.1 += men;
                    }
                }
            }
            Entry::Casualties { unit, men } => {
                if self.owns(*unit) {
                    g.effect_losses.0 += men;
                } else if self.sees_unit(*unit) {
                    g.effect_losses.1 += men;
                }
            }
            Entry::Drums { commander, zone } => {
                g.drums.insert(*commander, *zone);
            }
            _ => self.tell_at_once(entry, g, memory, found, new_turn),
        }
    }

    /// What is told as it comes: a crossing destroyed, a commander's fall,
    /// fire, smoke and the wind.
    fn tell_at_once(
        &self,
        entry: &Entry,
        g: &mut Gathered,
        memory: &mut Memory,
        found: &mut Found,
        new_turn: bool,
    ) {
        let l = self.locale;
        match entry {
            Entry::Destroyed { zone, men, hits } => {
                found.raise(Alert::Destroyed);
                // His own dead are named in the same sentence, counted;
                // the enemy's seen dead are told with the turn's other
                // losses of his, as an estimate.
                let own_dead: u32 = hits
                    .iter()
                    .filter(|(unit, _)| self.hears(*unit))
                    .map(|(_, men)| *men)
                    .sum();
                g.effect_losses.1 += hits
                    .iter()
                    .filter(|(unit, _)| !self.owns(*unit) && self.sees_unit(*unit))
                    .map(|(_, men)| *men)
                    .sum::<u32>();
                let args = vec![
                    ("zone", self.zone_name(*zone)),
                    ("men", self.told_men(*men, false)),
                    ("own", self.told_men(own_dead, true)),
                ];
                if own_dead > 0 && u64::from(own_dead) * 10 >= u64::from(*men) * 9 {
                    found.say(0, *men, self.t(Say::DestroyedAllOwn, &args));
                } else if own_dead > 0 {
                    found.say(0, *men, self.t(Say::DestroyedOwn, &args));
                } else if *men > 0 {
                    found.say(0, *men, self.t(Say::Destroyed, &args));
                } else {
                    found.say(0, 0, self.t(Say::DestroyedEmpty, &args));
                }
            }
            // A commander struck down in the fighting, his own side's or
            // one seen: told first, whatever else the turn holds. Only in
            // the turn's own chronicle: a fall a scene's effect makes is
            // told in the scene's words, by the event that makes it.
            // One a text told this turn says has fallen is told by the
            // text alone (`Picture::falls_told`); it still stops `wait`.
            Entry::CommanderFalls { commander, fate } if new_turn => {
                if let Some(text) = self.commander_fall(*commander, *fate) {
                    let own = self.commander_side(*commander) == Some(self.side);
                    found.raise(if own {
                        Alert::CommanderFell
                    } else {
                        Alert::Story
                    });
                    if !self.known.picture.falls_told.contains(commander) {
                        found.say(0, u32::MAX, text);
                    }
                }
            }
            Entry::FireStarts { zone } => found.say(
                7,
                0,
                self.t(Say::FireStarts, &[("zone", self.zone_name(*zone))]),
            ),
            Entry::FireSpreads { zone } => found.say(
                7,
                0,
                self.t(Say::FireSpreads, &[("zone", self.zone_name(*zone))]),
            ),
            Entry::FireOut { zone } if self.near_own(*zone) => found.say(
                8,
                0,
                self.t(Say::FireOut, &[("zone", self.zone_name(*zone))]),
            ),
            Entry::SmokeThick { zone } | Entry::SmokeClears { zone } => {
                let thick = matches!(entry, Entry::SmokeThick { .. });
                if memory.smoke.get(zone) != Some(&thick) {
                    memory.smoke.insert(*zone, thick);
                    if self.near_own(*zone) {
                        let key = if thick {
                            Say::SmokeThick
                        } else {
                            Say::SmokeClears
                        };
                        found.say(8, 0, self.t(key, &[("zone", self.zone_name(*zone))]));
                    }
                }
            }
            Entry::Wind { strength, toward } => {
                let now = (wind_band(*strength), *toward);
                let same = match memory.wind {
                    Some((band, dir)) => band == now.0 && (dir == now.1 || band == 0),
                    None => false,
                };
                memory.wind = Some(now);
                if !same && !memory.header_tells_wind {
                    found.say(
                        8,
                        0,
                        self.t(
                            Say::WindNow,
                            &[("wind", wind_phrase(l, *strength, *toward))],
                        ),
                    );
                }
            }
            Entry::WindShifts {
                strength,
                toward,
                veers,
            } => {
                // A turn of the wind is told even when the header shows the
                // new wind: a reader does not compare headers.
                memory.wind = Some((wind_band(*strength), *toward));
                let key = if *veers {
                    Say::WindVeers
                } else {
                    Say::WindBacks
                };
                // After the fire and smoke near his men (8), which he must know first.
                found.say(
                    9,
                    0,
                    self.t(key, &[("from", catalogue::wind_from(l, *toward))]),
                );
            }
            _ => {}
        }
    }

    /// Fates: one final state per unit; the enemy only where seen.
    fn tell_fates(&self, g: &Gathered, found: &mut Found) {
        let l = self.locale;
        let mut by_fate: BTreeMap<(bool, u8), Vec<usize>> = BTreeMap::new();
        for (unit, (first, last)) in &g.fates {
            let visible = self.owns(*unit) || self.sees_unit(*unit);
            if !visible {
                continue;
            }
            let kind = match (first, last) {
                (Fate::Wavered, Fate::Steadied) => continue,
                (_, Fate::Routed) => 0,
                // His own, with no men left: destroyed, not shattered.
                (_, Fate::Shattered)
                    if self.owns(*unit)
                        && self.known.own_unit(*unit).is_some_and(|r| r.men == 0) =>
                {
                    6
                }
                (_, Fate::Shattered) => 1,
                (_, Fate::Surrendered) => 2,
                // Only a routing unit rallies: one that was not routing
                // when the turn began broke and rallied within it.
                (first, Fate::Rallied) if *first != Fate::Rallied && self.owns(*unit) => 7,
                (_, Fate::Rallied) => 3,
                (_, Fate::Wavered) => 4,
                (_, Fate::Steadied) => 5,
            };
            by_fate
                .entry((self.owns(*unit), kind))
                .or_default()
                .push(*unit);
        }
        for ((mine, kind), units) in &by_fate {
            let list = self.name_list(units);
            let weight = self.men_of(units);
            let args = vec![("list", list)];
            if *mine && (*kind <= 2 || *kind == 6) {
                found.raise(Alert::OwnBroke);
            }
            match (mine, kind) {
                (true, 0) => found.say(
                    1,
                    weight,
                    self.t(self.pick(units, Say::OwnRout, Say::OwnRoutMany), &args),
                ),
                (false, 0) => found.say(
                    2,
                    weight,
                    self.t(self.pick(units, Say::SeenRout, Say::SeenRoutMany), &args),
                ),
                (_, 1) => found.say(
                    1,
                    weight,
                    self.t(self.pick(units, Say::Shattered, Say::ShatteredMany), &args),
                ),
                (_, 2) => {
                    let men: u32 = units
                        .iter()
                        .filter_map(|u| g.surrendered.get(u))
                        .map(|s| s.0)
                        .sum();
                    let officers: u32 = units
                        .iter()
                        .filter_map(|u| g.surrendered.get(u))
                        .map(|s| s.1)
                        .sum();
                    let mut text = fill(
                        self.pick(units, Say::Surrender, Say::SurrenderMany).get(l),
                        &[
                            ("list", self.name_list(units)),
                            ("men", self.told_men(men, *mine)),
                        ],
                    );
                    if officers > 0 {
                        let sep = ui(l, Ui::SentenceGap);
                        text.push_str(sep);
                        text.push_str(&fill(
                            Say::Officers.get(l),
                            &[("men", self.told_men(officers, *mine))],
                        ));
                    }
                    found.say(1, men, text);
                }
                (true, 6) => found.say(
                    1,
                    weight,
                    self.t(
                        self.pick(units, Say::UnitDestroyed, Say::UnitDestroyedMany),
                        &args,
                    ),
                ),
                (true, 3) => found.say(
                    4,
                    weight,
                    self.t(self.pick(units, Say::Rally, Say::RallyMany), &args),
                ),
                (false, 3) => {}
                (true, 7) => found.say(
                    4,
                    weight,
                    self.t(
                        self.pick(units, Say::RoutRallied, Say::RoutRalliedMany),
                        &args,
                    ),
                ),
                (true, 4) => found.say(
                    5,
                    weight,
                    self.t(self.pick(units, Say::Waver, Say::WaverMany), &args),
                ),
                (true, 5) => found.say(
                    6,
                    weight,
                    self.t(self.pick(units, Say::Steady, Say::SteadyMany), &args),
                ),
                _ => {}
            }
        }
    }

    /// Own commanders whose fall in a fight comes to him now, after its
    /// turn (by a rider, or when word of them comes again): told first, as
    /// a fall seen is.
    fn tell_falls_heard(&self, found: &mut Found) {
        for &commander in &self.known.picture.falls_heard {
            if let Some(text) = self.commander_fall_heard(commander) {
                found.raise(Alert::CommanderFell);
                found.say(0, u32::MAX, text);
            }
        }
    }

    /// Own units not heard of as they were at the last look whose word
    /// came this turn: where they are, how many, in what state, and the men
    /// lost since the word before. Word after a silence (cut off, or
    /// running) is word at last; a rider's report of a unit out of his
    /// sight is told as a rider's, with the hour he was sent.
    fn tell_word_again(&self, found: &mut Found) {
        let l = self.locale;
        let trouble = |state: MoraleState| match state {
            MoraleState::Steady | MoraleState::Rallied => 0,
            MoraleState::Wavering => 1,
            MoraleState::Routing => 2,
            MoraleState::Surrendered | MoraleState::Shattered => 3,
        };
        // Per (word at last, place, hour): the reports, and whether any is
        // worse than the word before.
        type Report = (usize, u32, u32, MoraleState);
        let mut riders: BTreeMap<(bool, usize, u32), (Vec<Report>, bool)> = BTreeMap::new();
        for (unit, before) in &self.known.picture.word_again {
            let Some(word) = self.known.own.get(*unit).and_then(Option::as_ref) else {
                continue;
            };
            let now = &word.record;
            if !now.location.present {
                continue;
            }
            let lost = before.record.men.saturating_sub(now.men);
            let same = lost == 0
                && now.location.zone() == before.record.location.zone()
                && now.location.state() == before.record.location.state();
            if same {
                continue;
            }
            // Word at last after a silence, told with the hour of the
            // last word; a rider's report, with the hour he was sent.
            let rider = self.known.picture.by_rider.contains(unit);
            let hour = if rider { word.turn } else { before.turn };
            let report = (*unit, now.men, lost, now.location.state());
            let worse = trouble(now.location.state()) > trouble(before.record.location.state());
            let group = riders
                .entry((!rider, now.location.zone(), hour))
                .or_default();
            group.0.push(report);
            group.1 |= worse;
        }
        // One sentence per place and hour. Word at last stops `wait`; a
        // rider's report is ranked by what it says: losses and a worse
        // state first, a march with the marches.
        for ((at_last, zone, hour), (reports, worse)) in riders {
            let units: Vec<usize> = reports.iter().map(|r| r.0).collect();
            let men: u32 = reports.iter().map(|r| r.1).sum();
            let lost: u32 = reports.iter().map(|r| r.2).sum();
            let mut states: Vec<MoraleState> = Vec::new();
            for r in &reports {
                if !states.contains(&r.3) {
                    states.push(r.3);
                }
            }
            let states: Vec<String> = states
                .iter()
                .map(|s| catalogue::state_name(l, *s).to_string())
                .collect();
            let n_states = states.len();
            let rank = if at_last {
                found.raise(Alert::Story);
                1
            } else if lost >= TRIVIAL {
                found.raise(Alert::Attacked);
                1
            } else if worse {
                4
            } else {
                7
            };
            let (one, many) = match (at_last, lost > 0) {
                (true, true) => (Say::NewsLost, Say::NewsLostMany),
                (true, false) => (Say::News, Say::NewsMany),
                (false, true) => (Say::RiderLost, Say::RiderLostMany),
                (false, false) => (Say::Rider, Say::RiderMany),
            };
            let args = vec![
                ("list", self.name_list(&units)),
                ("since", catalogue::time_words(l, self.minute_of(hour))),
                ("zone", self.zone_name(zone)),
                ("men", self.told_men(men, true)),
                ("state", catalogue::name_list(l, states, n_states)),
                ("lost", self.told_men(lost, true)),
            ];
            found.say(
                rank,
                men.max(lost),
                self.t(self.pick(&units, one, many), &args),
            );
        }
    }

    /// Units that came up, own and seen.
    fn tell_arrivals(&self, g: &Gathered, found: &mut Found) {
        for (zone, units) in &g.arrivals {
            found.say(
                2,
                self.men_of(units),
                self.t(
                    self.pick(units, Say::Arrive, Say::ArriveMany),
                    &[
                        ("list", self.name_list(units)),
                        ("zone", self.zone_name(*zone)),
                    ],
                ),
            );
        }
    }

    /// Fighting: one sentence per place, the biggest first, and the crushes.
    /// Own units that marched into a place told fighting (`marches`, not
    /// running) are told in its sentence, coming up first: the places
    /// so told are returned, their marches told.
    fn tell_fighting(
        &self,
        g: &Gathered,
        marches: &Marches,
        memory: &mut Memory,
        found: &mut Found,
        new_turn: bool,
    ) -> BTreeSet<usize> {
        let l = self.locale;
        let mut fought = BTreeSet::new();
        let mut joined = BTreeSet::new();
        // Places where fighting is heard, not seen: one sentence for all.
        let mut heard_from: Vec<String> = Vec::new();
        for (zone, (own_lost, enemy_lost, own_trampled, enemy_trampled)) in &g.zone_losses {
            let seen = self.sees_zone(*zone);
            // His men there as he has word of them now (where the last word
            // of men cut off or out of sight put them, he hears only the
            // sound of it).
            let here = (self.own_in(*zone) && self.hears_zone(*zone)) || *own_lost > 0;
            let heard = *own_lost + *enemy_lost;
            let enemy_lost = if seen { *enemy_lost } else { 0 };
            let own_lost = *own_lost;
            let zone_name = self.zone_name(*zone);
            if own_lost < TRIVIAL && enemy_lost < TRIVIAL {
                if !seen && !here && self.near_own(*zone) && heard > 0 {
                    heard_from.push(zone_name.clone());
                }
            } else {
                // A fight that starts needs the player; one that goes on
                // does not stop `wait` every turn.
                if own_lost >= TRIVIAL && !memory.fights.contains(zone) {
                    found.raise(Alert::Attacked);
                }
                fought.insert(*zone);
                let weight = own_lost + enemy_lost;
                // The losses as a clause: "you lose 300 men; the Jin lose
                // about 200 men".
                let losses = || {
                    let mut parts = Vec::new();
                    if own_lost >= TRIVIAL {
                        parts.push(fill(
                            Say::LossOwn.get(l),
                            &[("men", self.told_men(own_lost, true))],
                        ));
                    }
                    if enemy_lost >= TRIVIAL {
                        parts.push(fill(
                            Say::LossSeen.get(l),
                            &[
                                ("enemy", self.enemy_name()),
                                ("men", self.said_in_prose(enemy_lost, Sure::Estimated)),
                            ],
                        ));
                    }
                    let parts: Vec<String> = parts
                        .into_iter()
                        .map(|p| p.trim_end_matches(['.', '。']).to_string())
                        .map(|p| if capitalizes(l) { lower_first(&p) } else { p })
                        .collect();
                    parts.join(ui(l, Ui::LossesSep))
                };
                if let Some((through, units)) = joining(marches, *zone) {
                    joined.insert(*zone);
                    let (key, ford) = match through {
                        Some(ford) => (
                            self.pick(&units, Say::CrossFight, Say::CrossFightMany),
                            self.zone_name(ford),
                        ),
                        None => (
                            self.pick(&units, Say::MarchFight, Say::MarchFightMany),
                            String::new(),
                        ),
                    };
                    found.say(
                        3,
                        weight,
                        self.t(
                            key,
                            &[
                                ("list", self.name_list(&units)),
                                ("ford", ford),
                                ("zone", zone_name.clone()),
                                ("losses", losses()),
                            ],
                        ),
                    );
                } else if memory.fights.contains(zone) {
                    found.say(
                        3,
                        weight,
                        self.t(
                            Say::FightGoesOn,
                            &[("zone", zone_name.clone()), ("losses", losses())],
                        ),
                    );
                } else {
                    let key = match (own_lost >= TRIVIAL, enemy_lost >= TRIVIAL) {
                        (true, true) => Say::Fight,
                        (true, false) => Say::FightOwnOnly,
                        _ => Say::FightSeenOnly,
                    };
                    found.say(
                        3,
                        weight,
                        self.t(
                            key,
                            &[
                                ("zone", zone_name.clone()),
                                ("own", self.told_men(own_lost, true)),
                                ("seen", self.said(enemy_lost, Sure::Estimated)),
                                ("enemy", self.enemy_name()),
                            ],
                        ),
                    );
                }
            }
            // A crush: his own trampled counted and named as his, the
            // enemy's only where seen, as an estimate. On open water the
            // crushed drown.
            let keys = if self.field.zones.get(*zone).is_some_and(|z| z.drowns()) {
                [Say::DrownedBoth, Say::DrownedOwn, Say::Drowned]
            } else {
                [Say::TrampledBoth, Say::TrampledOwn, Say::Trampled]
            };
            self.tell_dead(
                (zone_name, seen),
                (*own_trampled, *enemy_trampled),
                keys,
                found,
            );
        }
        if !heard_from.is_empty() {
            let n = heard_from.len();
            let zones = catalogue::name_list(l, heard_from, n);
            found.say(6, 0, self.t(Say::FightHeard, &[("zone", zones)]));
        }
        // The fire's dead, told the same way.
        for (zone, (own, enemy)) in &g.burned {
            let seen = self.sees_zone(*zone);
            if *own >= TRIVIAL {
                found.raise(Alert::Attacked);
            }
            self.tell_dead(
                (self.zone_name(*zone), seen),
                (*own, *enemy),
                [Say::BurnedBoth, Say::BurnedOwn, Say::Burned],
                found,
            );
        }
        if new_turn {
            memory.fights = fought;
        } else {
            memory.fights.extend(fought);
        }
        joined
    }

    /// Men dead in a zone of one cause (a crush, drowning, fire): his own
    /// counted and named as his, the enemy's only where `seen`, as an
    /// estimate; `keys` the sentences for both, his own only, the enemy's.
    fn tell_dead(
        &self,
        (zone_name, seen): (String, bool),
        (own, enemy): (u32, u32),
        [both, own_only, theirs]: [Say; 3],
        found: &mut Found,
    ) {
        let enemy = if seen { enemy } else { 0 };
        let all = own + enemy;
        if own >= TRIVIAL && enemy >= TRIVIAL {
            found.say(
                3,
                all,
                self.t(
                    both,
                    &[
                        ("zone", zone_name),
                        ("men", self.said_in_prose(all, Sure::Estimated)),
                        ("own", self.told_men(own, true)),
                    ],
                ),
            );
        } else if own >= TRIVIAL {
            found.say(
                3,
                all,
                self.t(
                    own_only,
                    &[("zone", zone_name), ("men", self.told_men(own, true))],
                ),
            );
        } else if enemy >= TRIVIAL {
            found.say(
                3,
                all,
                self.t(
                    theirs,
                    &[
                        ("zone", zone_name),
                        ("men", self.said_in_prose(enemy, Sure::Estimated)),
                    ],
                ),
            );
        }
    }

    /// Dead from effects and blasts, own counted, the enemy's estimated.
    fn tell_effect_losses(&self, g: &Gathered, found: &mut Found) {
        if g.effect_losses.0 >= TRIVIAL {
            found.say(
                3,
                g.effect_losses.0,
                self.t(
                    Say::LossOwn,
                    &[("men", self.told_men(g.effect_losses.0, true))],
                ),
            );
        }
        if g.effect_losses.1 >= TRIVIAL {
            found.say(
                3,
                g.effect_losses.1,
                self.t(
                    Say::LossSeen,
                    &[
                        ("enemy", self.enemy_name()),
                        (
                            "men",
                            self.said_in_prose(g.effect_losses.1, Sure::Estimated),
                        ),
                    ],
                ),
            );
        }
    }

    /// Drums: told when they start, not every turn they go on.
    fn tell_drums(&self, g: &Gathered, memory: &mut Memory, found: &mut Found, new_turn: bool) {
        let mut beating = BTreeSet::new();
        for (commander, zone) in &g.drums {
            beating.insert(*commander);
            if memory.drums.contains(commander) {
                continue;
            }
            let mine = self.commander_side(*commander) == Some(self.side);
            let yours = self.role == Some(*commander);
            if yours {
                found.say(
                    4,
                    0,
                    self.t(Say::DrumsYours, &[("zone", self.zone_name(*zone))]),
                );
            } else if mine || self.sees_zone(*zone) {
                found.say(
                    4,
                    0,
                    self.t(
                        Say::Drums,
                        &[
                            ("commander", self.commander_name(*commander)),
                            ("zone", self.zone_name(*zone)),
                        ],
                    ),
                );
            } else {
                found.say(
                    4,
                    0,
                    self.t(Say::DrumsHeardFar, &[("zone", self.zone_name(*zone))]),
                );
            }
        }
        if new_turn {
            memory.drums = beating;
        } else {
            memory.drums.extend(beating);
        }
    }

    /// The cry: each unit's belief told once, when it changes.
    fn tell_cry(&self, beliefs: &mut BTreeMap<usize, i8>, memory: &mut Memory, found: &mut Found) {
        beliefs.retain(|unit, belief| memory.beliefs.insert(*unit, *belief) != Some(*belief));
        if !beliefs.is_empty() {
            let shaken: Vec<usize> = beliefs
                .iter()
                .filter(|(_, b)| **b < 0)
                .map(|(u, _)| *u)
                .collect();
            let heartened: Vec<usize> = beliefs
                .iter()
                .filter(|(_, b)| **b > 0)
                .map(|(u, _)| *u)
                .collect();
            if !shaken.is_empty() {
                found.say(
                    4,
                    self.men_of(&shaken),
                    self.t(
                        self.pick(&shaken, Say::Shaken, Say::ShakenMany),
                        &[("list", self.name_list(&shaken))],
                    ),
                );
            }
            if !heartened.is_empty() {
                found.say(
                    5,
                    self.men_of(&heartened),
                    self.t(
                        self.pick(&heartened, Say::Heartened, Say::HeartenedMany),
                        &[("list", self.name_list(&heartened))],
                    ),
                );
            }
            if shaken.is_empty() && heartened.is_empty() {
                found.say(6, 0, self.t(Say::Doubted, &[]));
            }
        }
    }

    /// Marches of the player's units, by where they went, the crossing
    /// they took and whether they flee; men still running from an earlier
    /// turn's rout flee there, they do not march (one routed this turn is
    /// told as a rout, not here).
    fn march_groups(&self, g: &Gathered) -> Marches {
        let fleeing = |unit: usize| {
            self.known.own_unit(unit).is_some_and(|u| {
                matches!(
                    u.location.state(),
                    crate::scene::MoraleState::Routing | crate::scene::MoraleState::Shattered
                )
            })
        };
        let mut by_dest: Marches = BTreeMap::new();
        for (unit, (to, through)) in &g.marches {
            let still_moving = g.fates.get(unit).is_some_and(|(_, last)| {
                matches!(last, Fate::Routed | Fate::Shattered | Fate::Surrendered)
            });
            if still_moving {
                continue; // told as a rout
            }
            by_dest
                .entry((*to, *through, fleeing(*unit)))
                .or_default()
                .push(*unit);
        }
        by_dest
    }

    /// The marches, but those into a place whose fighting told them
    /// (`joined`).
    fn tell_marches(&self, by_dest: &Marches, joined: &BTreeSet<usize>, found: &mut Found) {
        for ((to, through, flee), units) in by_dest {
            if !flee && joined.contains(to) {
                continue;
            }
            match through {
                Some(ford) => found.say(
                    6,
                    self.men_of(units),
                    self.t(
                        self.pick(units, Say::Cross, Say::CrossMany),
                        &[
                            ("list", self.name_list(units)),
                            ("ford", self.zone_name(*ford)),
                            ("zone", self.zone_name(*to)),
                        ],
                    ),
                ),
                None => found.say(
                    6,
                    self.men_of(units),
                    self.t(
                        if *flee {
                            self.pick(units, Say::Flee, Say::FleeMany)
                        } else {
                            self.pick(units, Say::March, Say::MarchMany)
                        },
                        &[
                            ("list", self.name_list(units)),
                            ("zone", self.zone_name(*to)),
                        ],
                    ),
                ),
            }
        }
    }

    /// The enemy coming on where he was not told coming last turn, and is
    /// still seen there in a body at the turn's end: men who came on and
    /// broke in the same turn (a charge, a surrender) are told as running,
    /// not as coming on.
    fn tell_enemy_comes(&self, g: &Gathered, memory: &mut Memory, found: &mut Found) {
        let told_before = std::mem::replace(&mut memory.enemy_at, g.enemy_comes.clone());
        for zone in g.enemy_comes.difference(&told_before).copied() {
            let mut seen = self
                .known
                .picture
                .enemy
                .iter()
                .flatten()
                .filter(|s| s.zone == zone && s.turn == self.known.picture.turn)
                .peekable();
            let in_a_body = seen
                .clone()
                .any(|s| !matches!(s.bearing, Bearing::Running | Bearing::Broken));
            if seen.peek().is_some() && !in_a_body {
                continue;
            }
            found.say(
                2,
                seen.map(|s| s.men).sum(),
                self.t(
                    Say::EnemyComes,
                    &[("enemy", self.enemy_name()), ("zone", self.zone_name(zone))],
                ),
            );
        }
    }

    /// The enemy come into sight, in a body, where he was not believed to
    /// stand at the last turn's end and none of the player's men are (men
    /// of his there are told coming on): across a river, on the next hill.
    /// Raises the alert that stops `wait`.
    fn tell_enemy_appears(
        &self,
        g: &Gathered,
        memory: &mut Memory,
        found: &mut Found,
        new_turn: bool,
    ) {
        let now = self.known.picture.turn;
        // Per zone: the men seen there this turn in a body; and the zones
        // where, by his latest word, the enemy stands in a body.
        let mut fresh = BTreeMap::<usize, u32>::new();
        let mut believed = BTreeSet::new();
        for s in self.known.picture.enemy.iter().flatten() {
            if s.lost || matches!(s.bearing, Bearing::Running | Bearing::Broken) {
                continue;
            }
            believed.insert(s.zone);
            if s.turn == now && s.clarity != crate::picture::Clarity::Felt {
                *fresh.entry(s.zone).or_default() += s.men;
            }
        }
        for zone in &g.enemy_appears {
            let Some(&men) = fresh.get(zone) else {
                continue;
            };
            if memory.enemy_seen.contains(zone) || g.enemy_comes.contains(zone) || men == 0 {
                continue;
            }
            found.raise(Alert::EnemySighted);
            let key = if memory.enemy_appeared.insert(*zone) {
                Say::EnemyAppears
            } else {
                Say::EnemyAppearsAgain
            };
            found.say(
                4,
                men,
                self.t(
                    key,
                    &[
                        ("enemy", self.enemy_name()),
                        ("zone", self.zone_name(*zone)),
                        ("men", self.told_men(men, false)),
                    ],
                ),
            );
        }
        if new_turn {
            memory.enemy_seen = believed;
        }
    }

    /// A chronicle template filled in, in the view's language.
    fn t(&self, key: Say, args: &[(&str, String)]) -> String {
        fill(key.get(self.locale), args)
    }

    /// The template for one unit or for many: one unit with a plural name
    /// ("the Grey Companies") takes the plural verb as a list does.
    fn pick(&self, units: &[usize], one: Say, many: Say) -> Say {
        match units {
            [unit] if !self.scene.units().get(*unit).is_some_and(|u| u.plural) => one,
            _ => many,
        }
    }

    /// The men of these units as the player knows them: his own counted,
    /// the enemy's as last seen.
    fn men_of(&self, units: &[usize]) -> u32 {
        units
            .iter()
            .map(|u| match self.known.own_unit(*u) {
                Some(record) => record.men,
                None => self.known.picture.sighting(*u).map_or(0, |s| s.men),
            })
            .sum()
    }

    /// The player's side has men in the zone.
    fn own_in(&self, zone: usize) -> bool {
        self.known.own_men_in(zone) > 0
    }

    /// A commander's side, from the scene (sides of commanders never change).
    pub(crate) fn commander_side(&self, commander: usize) -> Option<usize> {
        self.scene.commanders().get(commander).map(|c| c.side.idx())
    }

    /// The zone is the player's concern: his men are there or next to it.
    fn near_own(&self, zone: usize) -> bool {
        self.own_in(zone)
            || self
                .field
                .neighbours
                .get(zone)
                .is_some_and(|n| n.iter().any(|z| self.own_in(*z)))
    }
}

fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repl::render::Style;
    use crate::sim::WorldState;
    use crate::sim::testing::Ids;

    /// The small world (Ming foot on the south bank; the Banner on the north
    /// bank and the Han foot at the tent, both Jin), seen by the Ming, who
    /// see the south bank and the ford but not the north bank or the tent.
    fn tell(entries: &[Entry], memory: &mut Memory) -> Composed {
        tell_in(
            crate::sim::testing::small_scene(|raw| raw),
            |_| {},
            entries,
            memory,
        )
    }

    /// `report` tells a turn's fighting in one place once, its sub-steps'
    /// losses summed side by side, and a crush beside it on its own line.
    #[test]
    fn report_sums_a_places_fights_of_a_turn() {
        let report = |entries: &[Entry]| {
            tell_known(
                crate::sim::testing::small_scene(|raw| raw),
                |_| {},
                |_| {},
                entries,
                &mut Memory::default(),
                true,
            )
            .sentences
        };
        let clash = |losses: Vec<(usize, u32)>| Entry::Clash { zone: 1, losses };
        let entries = [
            clash(vec![(0, 1124), (1, 300)]),
            Entry::Trampled {
                zone: 1,
                men: 40,
                losses: vec![(0, 40)],
            },
            clash(vec![(0, 194), (1, 900)]),
        ];
        let lines = report(&entries);
        let fights: Vec<&String> = lines.iter().filter(|s| s.starts_with("Fighting")).collect();
        assert_eq!(
            fights,
            ["Fighting at Ford: you lose 1,318 men, Jin lose some 1,200 men."],
            "{lines:?}"
        );
        assert_eq!(lines.len(), 2, "{lines:?}");
        // One fight a place: as before.
        assert_eq!(
            report(&entries[..1]),
            ["Fighting at Ford: you lose 1,124 men, Jin lose about 300 men."]
        );
    }

    /// `tell` in another scene, with the world changed by `alter` first.
    fn tell_in(
        scene: crate::scene::Scene,
        alter: impl FnOnce(&mut WorldState),
        entries: &[Entry],
        memory: &mut Memory,
    ) -> Composed {
        tell_known(scene, alter, |_| {}, entries, memory, false)
    }

    /// `tell_in`, with what the side knows changed by `know` after.
    fn tell_known(
        scene: crate::scene::Scene,
        alter: impl FnOnce(&mut WorldState),
        know: impl FnOnce(&mut crate::picture::Known),
        entries: &[Entry],
        memory: &mut Memory,
        report: bool,
    ) -> Composed {
        let mut battle = crate::sim::Battle::new(&scene, 7);
        let mut world: WorldState = battle.state();
        world.vision.sees = vec![
            vec![true, true, false, false],
            vec![false, true, true, true],
        ];
        alter(&mut world);
        let field = battle.field().clone();
        let mut known = crate::picture::Known::without_commander(&scene, &field, &world, 0);
        know(&mut known);
        let view = View {
            scene: &scene,
            field: &field,
            known: &known,
            locale: Locale::En,
            side: 0,
            role: None,
            style: Style {
                colour: false,
                columns: 80,
            },
        };
        let mut told = view.compose(entries, memory, true);
        if report {
            // `report`'s lines instead of the turn's prose.
            told.sentences = view.entries(entries);
        }
        // Names carry marks that keep them whole when wrapped; wrapping
        // removes them, and so does the test.
        for sentence in &mut told.sentences {
            sentence.retain(|c| {
                c != crate::repl::wrap::NAME_OPEN && c != crate::repl::wrap::NAME_CLOSE
            });
        }
        told
    }

    #[test]
    fn an_own_unit_cut_off_is_told_only_when_word_of_it_comes() {
        // Unit 0 (3,000 foot on the south bank) out of his riders'
        // reach since turn 2, in a zone he does not see: its rout and its
        // losses are not told as they happen.
        let cut_off = |known: &mut crate::picture::Known| {
            let picture = std::sync::Arc::make_mut(&mut known.picture);
            picture.turn = 4;
            picture.sees.iter_mut().for_each(|z| *z = false);
            picture.seen_now.iter_mut().for_each(|z| *z = false);
            if let Some(Some(word)) = known.own.get_mut(0) {
                word.turn = 2;
            }
        };
        let scene = || crate::sim::testing::small_scene(|raw| raw);
        let entries = foot_routs();
        // Not in the turn's prose, nor in `report`'s full account of it.
        foot_untold(cut_off);
        let told = tell_known(
            scene(),
            |_| {},
            |_| {},
            &entries,
            &mut Memory::default(),
            true,
        );
        assert!(
            told.sentences.iter().any(|s| s.contains("Ming foot")),
            "{:?}",
            told.sentences
        );
        // Heard of (the same turn, as things are): told.
        let told = tell_known(
            scene(),
            |_| {},
            |_| {},
            &entries,
            &mut Memory::default(),
            false,
        );
        assert!(
            told.sentences.iter().any(|s| s.contains("Ming foot")),
            "{:?}",
            told.sentences
        );
        assert_eq!(told.own_lost, 400);
        // Word of it comes again: told, with the men lost since the
        // last word; its entries of the turn are in that sentence.
        let again = |known: &mut crate::picture::Known| {
            let before = known.own[0].clone().expect("own unit");
            let mut before = crate::picture::OwnWord { turn: 2, ..before };
            before.record.men += 500;
            let picture = std::sync::Arc::make_mut(&mut known.picture);
            picture.turn = 4;
            picture.word_again = vec![(0, before)];
        };
        let told = tell_known(
            scene(),
            |_| {},
            again,
            &entries[..1],
            &mut Memory::default(),
            false,
        );
        assert_eq!(told.sentences.len(), 1, "{:?}", told.sentences);
        assert!(
            told.sentences[0].starts_with("Word at last from Ming foot, none since ")
                && told.sentences[0].ends_with("lost since."),
            "{:?}",
            told.sentences
        );
    }

    /// The foot (unit 0) routs on the south bank, where the turn's
    /// fighting costs the side 400 men.
    fn foot_routs() -> [Entry; 2] {
        [
            Entry::Routs { unit: 0 },
            Entry::Clash {
                zone: 0,
                losses: vec![(0, 400), (1, 100)],
            },
        ]
    }

    /// With what the side knows changed by `know`: nothing of the foot's
    /// rout nor of the losses where it stands is told, in the turn's prose
    /// or in `report`.
    fn foot_untold(know: impl Fn(&mut crate::picture::Known)) {
        for report in [false, true] {
            let told = tell_known(
                crate::sim::testing::small_scene(|raw| raw),
                |_| {},
                &know,
                &foot_routs(),
                &mut Memory::default(),
                report,
            );
            assert!(
                told.sentences
                    .iter()
                    .all(|s| !s.contains("Ming foot") && !s.contains("you lose")),
                "{:?}",
                told.sentences
            );
            assert_eq!(told.own_lost, 0);
        }
    }

    #[test]
    fn an_own_unit_a_text_brought_word_of_is_told_by_the_text_alone() {
        // The foot out of his sight, its word of this turn brought by a
        // text told (`units_told`): the text alone tells of it.
        foot_untold(|known| {
            let picture = std::sync::Arc::make_mut(&mut known.picture);
            picture.sees.iter_mut().for_each(|z| *z = false);
            picture.seen_now.iter_mut().for_each(|z| *z = false);
            picture.units_told = vec![0];
        });
    }

    #[test]
    fn a_unit_is_told_in_its_final_state_only() {
        let mut memory = Memory::default();
        // Wavered and steadied again within the turn: nothing to tell.
        let told = tell(
            &[Entry::Wavers { unit: 0 }, Entry::Steadies { unit: 0 }],
            &mut memory,
        );
        assert!(told.sentences.is_empty(), "{:?}", told.sentences);
        // Broke and rallied within the turn: one sentence, but the break
        // is told (a bare "rallies" would rally men never said to run).
        let told = tell(
            &[Entry::Routs { unit: 0 }, Entry::Rallies { unit: 0 }],
            &mut memory,
        );
        assert_eq!(told.sentences, ["Ming foot breaks and runs, but rallies."]);
        // Running when the turn began (told then), rallied in it.
        let told = tell(&[Entry::Rallies { unit: 0 }], &mut memory);
        assert_eq!(told.sentences, ["Ming foot rallies."]);
        // Believed the cry, then saw for itself: told as it ended, not both.
        let told = tell(
            &[
                Entry::RumorBelieved {
                    unit: 0,
                    about: 0,
                    routed: true,
                },
                Entry::RumorDoubted { unit: 0 },
            ],
            &mut memory,
        );
        assert_eq!(
            told.sentences,
            ["Your men can see for themselves and pay the cry no heed."]
        );
    }

    #[test]
    fn the_enemy_is_told_only_as_perceived() {
        let mut memory = Memory::default();
        // The Banner breaks on the north bank, out of the Ming's sight: untold.
        let told = tell(&[Entry::Routs { unit: 1 }], &mut memory);
        assert!(told.sentences.is_empty(), "{:?}", told.sentences);
        // Fighting out of sight, next to nobody of his: untold; in the ford,
        // which he sees, the enemy's losses are an estimate.
        let told = tell(
            &[Entry::Clash {
                zone: 1,
                losses: vec![(0, 123), (1, 1234)],
            }],
            &mut memory,
        );
        assert_eq!(
            told.sentences,
            ["Fighting at Ford: you lose 123 men, the Jin some 1,200."]
        );
        assert_eq!(told.alert, Some(Alert::Attacked));
        // The same fight next turn "goes on".
        let told = tell(
            &[Entry::Clash {
                zone: 1,
                losses: vec![(0, 50), (1, 60)],
            }],
            &mut memory,
        );
        assert_eq!(
            told.sentences,
            ["The fighting at Ford goes on (you lose 50 men; the Jin lose about 60 men)."]
        );
    }

    #[test]
    fn trivial_losses_are_dropped_and_at_most_three_sentences_are_told() {
        let mut memory = Memory::default();
        let told = tell(
            &[
                Entry::Casualties { unit: 0, men: 3 },
                Entry::Clash {
                    zone: 1,
                    losses: vec![(0, 0), (1, 2)],
                },
            ],
            &mut memory,
        );
        assert!(told.sentences.is_empty(), "{:?}", told.sentences);
        let told = tell(
            &[
                Entry::Destroyed {
                    zone: 1,
                    men: 40,
                    hits: vec![(1, 40)],
                },
                Entry::Routs { unit: 0 },
                Entry::Casualties { unit: 0, men: 300 },
                Entry::FireStarts { zone: 0 },
                Entry::Moves {
                    unit: 0,
                    from: 0,
                    to: 1,
                },
            ],
            &mut memory,
        );
        assert_eq!(
            told.sentences,
            [
                "Ford is destroyed, and about 40 men go down with it!",
                "Ming foot breaks and runs!",
                "You lose 300 men.",
            ]
        );
        assert_eq!(told.alert, Some(Alert::Destroyed));
    }

    #[test]
    fn a_blast_names_the_players_own_dead() {
        // The ford blown with Ming foot (his) and the Banner (the Jin's) on it.
        let told = tell(
            &[Entry::Destroyed {
                zone: 1,
                men: 1_910,
                hits: vec![(0, 1_010), (1, 900)],
            }],
            &mut Memory::default(),
        );
        assert_eq!(told.own_lost, 1_010);
        assert_eq!(told.alert, Some(Alert::Destroyed));
        assert!(
            told.sentences[0].starts_with("Ford is destroyed, and ")
                && told.sentences[0].ends_with(" men go down with it, 1,010 of them yours!"),
            "{:?}",
            told.sentences
        );
        // All of the dead his: said so, not as a share of a total.
        let told = tell(
            &[Entry::Destroyed {
                zone: 1,
                men: 500,
                hits: vec![(0, 500)],
            }],
            &mut Memory::default(),
        );
        assert_eq!(
            told.sentences,
            ["Ford is destroyed, and 500 of your men go down with it!"]
        );
        assert_eq!(told.own_lost, 500);
    }

    #[test]
    fn a_crush_tells_the_players_own_trampled_apart() {
        let told = tell(
            &[Entry::Trampled {
                zone: 1,
                men: 300,
                losses: vec![(0, 200), (1, 100)],
            }],
            &mut Memory::default(),
        );
        assert_eq!(told.own_lost, 200);
        assert_eq!(told.sentences.len(), 1, "{:?}", told.sentences);
        assert!(
            told.sentences[0].starts_with("In the crush at Ford, ")
                && told.sentences[0].ends_with(" men are trampled, 200 of them yours."),
            "{:?}",
            told.sentences
        );
        // Only the enemy's, where seen: an estimate, nothing of his.
        let told = tell(
            &[Entry::Trampled {
                zone: 1,
                men: 120,
                losses: vec![(1, 120)],
            }],
            &mut Memory::default(),
        );
        assert_eq!(told.own_lost, 0);
        assert!(!told.sentences[0].contains("your"), "{:?}", told.sentences);
    }

    #[test]
    fn status_says_a_unit_waits_for_its_order_or_is_held_by_an_enemy_it_sees() {
        use crate::sim::movement::UnitOrder;
        let scene = crate::sim::testing::small_scene(|raw| raw);
        let mut battle = crate::sim::Battle::new(&scene, 7);
        let field = battle.field().clone();
        let stuck = |world: &WorldState, couriers: &[crate::story::Courier]| {
            let known = crate::picture::Known::without_commander(&scene, &field, world, 0);
            let view = View {
                scene: &scene,
                field: &field,
                known: &known,
                locale: Locale::En,
                side: 0,
                role: None,
                style: Style {
                    colour: false,
                    columns: 80,
                },
            };
            view.stuck(0, couriers)
        };
        // Unit 0 (the Ming's) is sent to the north bank and stands on the south
        // bank, the Banner with it, in plain sight: held.
        let mut world: WorldState = battle.state();
        world.units[0].orders.set_order(UnitOrder::MoveTo(2));
        world.units[1].location.set_zone(0);
        assert_eq!(stuck(&world, &[]), Some(Ui::StuckHeld));
        // An order on its way says more than anything it does meanwhile.
        let courier = crate::story::Courier {
            unit: scene.unit("ming-foot"),
            order: crate::story::UnitCommand::Hold,
            arrives: 3,
        };
        assert_eq!(
            stuck(&world, std::slice::from_ref(&courier)),
            Some(Ui::StuckCourier)
        );
        // Nobody in its way, or holding: not held up.
        world.units[1].location.set_zone(3);
        assert_eq!(stuck(&world, &[]), None);
        world.units[0].orders.set_order(UnitOrder::Hold);
        world.units[1].location.set_zone(0);
        assert_eq!(stuck(&world, &[]), None);
    }

    #[test]
    fn own_losses_count_every_cause() {
        let told = tell(
            &[
                Entry::Clash {
                    zone: 1,
                    losses: vec![(0, 100), (1, 1_000)],
                },
                Entry::Trampled {
                    zone: 1,
                    men: 60,
                    losses: vec![(0, 40), (1, 20)],
                },
                Entry::Casualties { unit: 0, men: 7 },
                Entry::Casualties { unit: 1, men: 900 },
                Entry::Surrenders {
                    unit: 0,
                    men: 3_000,
                    officers: 90,
                },
            ],
            &mut Memory::default(),
        );
        // Fighting, the crush, an effect and officers cut down; the men
        // who gave themselves up are not dead.
        assert_eq!(told.own_lost, 100 + 40 + 7 + 90);
    }

    #[test]
    fn a_cry_is_good_or_bad_word_by_the_side_a_unit_fights_for_now() {
        // The Banner (Jin) has gone over to the Ming: a cry that the Jin are
        // routed heartens it.
        let told = tell_in(
            crate::sim::testing::small_scene(|raw| raw),
            |world| world.units[1].side = Some(0),
            &[Entry::RumorBelieved {
                unit: 1,
                about: 1,
                routed: true,
            }],
            &mut Memory::default(),
        );
        assert_eq!(told.sentences, ["Banner takes heart at the cry."]);
    }

    #[test]
    fn a_unit_with_a_plural_name_takes_the_plural_verb() {
        let scene = crate::sim::testing::small_scene(|mut raw| {
            raw.units[0].name = crate::scene::Text::Plain("Grey Companies".into());
            raw.units[0].plural = true;
            raw
        });
        let told = tell_in(
            scene,
            |_| {},
            &[Entry::Routs { unit: 0 }],
            &mut Memory::default(),
        );
        assert_eq!(told.sentences, ["Grey Companies break and run!"]);
        // Without the mark, a name is one thing.
        let told = tell(&[Entry::Routs { unit: 0 }], &mut Memory::default());
        assert_eq!(told.sentences, ["Ming foot breaks and runs!"]);
    }

    #[test]
    fn a_commander_struck_down_in_the_fighting_is_told_first() {
        let fall = Entry::CommanderFalls {
            commander: 0,
            fate: crate::scene::Fate::Killed,
        };
        let clash = Entry::Clash {
            zone: 0,
            losses: vec![(0, 500), (1, 900)],
        };
        // He has fallen, and his side's word of him says so.
        let fallen = |world: &mut WorldState| {
            world.commanders[0].fallen = Some(crate::scene::Fate::Killed);
        };
        let scene = || crate::sim::testing::small_scene(|raw| raw);
        let told = tell_in(
            scene(),
            fallen,
            &[clash.clone(), fall.clone()],
            &mut Memory::default(),
        );
        assert_eq!(told.sentences[0], "Zhang is killed at South bank!");
        assert_eq!(told.alert, Some(Alert::CommanderFell));
        // The Khan falls in his tent, out of the Ming's sight: untold.
        let unseen = Entry::CommanderFalls {
            commander: 1,
            fate: crate::scene::Fate::Killed,
        };
        let told = tell(&[unseen], &mut Memory::default());
        assert!(told.sentences.is_empty(), "{:?}", told.sentences);
        // Nothing of him told, with what the side knows changed by `know`:
        // the alert raised.
        let untold = |know: fn(&mut crate::picture::Known)| {
            let told = tell_known(
                scene(),
                fallen,
                know,
                &[clash.clone(), fall.clone()],
                &mut Memory::default(),
                false,
            );
            assert!(
                told.sentences.iter().all(|s| !s.contains("Zhang")),
                "{:?}",
                told.sentences
            );
            told.alert
        };
        // One of his own whose word has not come yet: untold till it comes.
        let alert = untold(|known| {
            if let Some(Some(word)) = known.commanders.get_mut(0) {
                word.fallen = None;
            }
        });
        assert_ne!(alert, Some(Alert::CommanderFell));
        // One a text told this turn says has fallen: the text tells it, not
        // the chronicle again; it still needs the player.
        let alert = untold(|known| {
            std::sync::Arc::make_mut(&mut known.picture).falls_told = vec![0];
        });
        assert_eq!(alert, Some(Alert::CommanderFell));
    }

    #[test]
    fn units_that_march_into_a_fight_are_told_coming_up_into_it() {
        let march = Entry::Moves {
            unit: 0,
            from: 1,
            to: 0,
        };
        let clash = Entry::Clash {
            zone: 0,
            losses: vec![(0, 500), (1, 900)],
        };
        // Into a fight that starts there, or goes on: one sentence, the
        // march first.
        let told = tell(&[march.clone(), clash.clone()], &mut Memory::default());
        assert_eq!(
            told.sentences,
            [
                "Ming foot moves up to South bank and into the fighting there: you lose 500 men; \
              the Jin lose about 900 men."
            ],
        );
        let mut memory = Memory::default();
        memory.fights.insert(0);
        let told = tell(&[march.clone(), clash.clone()], &mut memory);
        assert_eq!(told.sentences.len(), 1, "{:?}", told.sentences);
        assert!(
            told.sentences[0].starts_with("Ming foot moves up to South bank and into the fighting"),
            "{:?}",
            told.sentences
        );
        // A march with no fight where it ends is told as a march; a fight
        // with no march into it as a fight.
        let elsewhere = Entry::Moves {
            unit: 0,
            from: 0,
            to: 1,
        };
        let told = tell(&[elsewhere, clash], &mut Memory::default());
        assert_eq!(told.sentences.len(), 2, "{:?}", told.sentences);
        assert!(told.sentences[0].starts_with("Fighting at South bank"));
        assert_eq!(told.sentences[1], "Ming foot moves to Ford.");
    }

    #[test]
    fn four_units_are_named_and_a_longer_list_is_cut_after_three() {
        // Ming foot and four more Ming companies, all on the south bank.
        let scene = || {
            crate::sim::testing::small_scene(|mut raw| {
                for n in 1..=4 {
                    let mut unit = raw.units[0].clone();
                    unit.id = format!("company-{n}");
                    unit.name = crate::scene::Text::Plain(format!("Company {n}"));
                    raw.units.push(unit);
                }
                raw
            })
        };
        let routs = |units: &[usize]| -> Vec<Entry> {
            units.iter().map(|&unit| Entry::Routs { unit }).collect()
        };
        let told = tell_in(
            scene(),
            |_| {},
            &routs(&[0, 3, 4, 5]),
            &mut Memory::default(),
        );
        assert_eq!(
            told.sentences,
            ["Ming foot, Company 1, Company 2 and Company 3 break and run!"]
        );
        let told = tell_in(
            scene(),
            |_| {},
            &routs(&[0, 3, 4, 5, 6]),
            &mut Memory::default(),
        );
        assert_eq!(
            told.sentences,
            ["Ming foot, Company 1, Company 2 and 2 more break and run!"]
        );
    }

    #[test]
    fn every_template_is_written_in_both_languages() {
        for say in Say::ALL {
            for locale in [Locale::En, Locale::ZhHans] {
                assert!(!say.get(locale).is_empty(), "{say:?} in {locale:?}");
            }
            let en = crate::scene::placeholder::spans(say.get(Locale::En));
            let zh = crate::scene::placeholder::spans(say.get(Locale::ZhHans));
            let names = |spans: Vec<(usize, &str)>| -> BTreeSet<String> {
                spans.into_iter().map(|(_, s)| s.to_string()).collect()
            };
            assert_eq!(names(en), names(zh), "{say:?}: the same placeholders");
        }
    }

    #[test]
    fn wind_words_name_where_it_comes_from_and_still_air_has_no_direction() {
        assert_eq!(wind_phrase(Locale::En, 0.05, Compass::North), "still air");
        assert_eq!(
            wind_phrase(Locale::En, 0.3, Compass::North),
            "a light wind from the south"
        );
        assert_eq!(wind_phrase(Locale::ZhHans, 0.05, Compass::North), "无风");
        assert_eq!(wind_phrase(Locale::ZhHans, 0.5, Compass::North), "南风阵阵");
    }
}
