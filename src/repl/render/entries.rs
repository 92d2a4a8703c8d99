//! The turn's chronicle entries as sentences: each entry the played side
//! saw, grouped where many units did the same.

use super::*;
use std::borrow::Cow;

/// A turn's losses in one place told once: the fights (or crushes, or
/// fires) of its sub-steps at the same zone summed side by side, in the
/// place of the first, so `report` says "Fighting at X: you lose 1,318
/// men", not one line a sub-step under the same words. Borrowed when no
/// place has two.
fn one_line_a_place(entries: &[Entry]) -> Cow<'_, [Entry]> {
    let key = |entry: &Entry| match entry {
        Entry::Clash { zone, .. } => Some((0, *zone)),
        Entry::Trampled { zone, .. } => Some((1, *zone)),
        Entry::Burned { zone, .. } => Some((2, *zone)),
        _ => None,
    };
    let repeats = entries.iter().enumerate().any(|(i, entry)| {
        key(entry).is_some_and(|k| entries[..i].iter().any(|e| key(e) == Some(k)))
    });
    if !repeats {
        return Cow::Borrowed(entries);
    }
    let add = |into: &mut Vec<(usize, u32)>, from: &[(usize, u32)]| {
        for &(side, men) in from {
            match into.iter_mut().find(|(s, _)| *s == side) {
                Some((_, total)) => *total = total.saturating_add(men),
                None => into.push((side, men)),
            }
        }
    };
    let mut merged: Vec<Entry> = Vec::with_capacity(entries.len());
    for entry in entries {
        let first = key(entry).and_then(|k| merged.iter_mut().find(|e| key(e) == Some(k)));
        match (first, entry) {
            (Some(Entry::Clash { losses, .. }), Entry::Clash { losses: more, .. }) => {
                add(losses, more)
            }
            (
                Some(Entry::Trampled { men, losses, .. } | Entry::Burned { men, losses, .. }),
                Entry::Trampled {
                    men: more_men,
                    losses: more,
                    ..
                }
                | Entry::Burned {
                    men: more_men,
                    losses: more,
                    ..
                },
            ) => {
                *men = men.saturating_add(*more_men);
                add(losses, more);
            }
            _ => merged.push(entry.clone()),
        }
    }
    Cow::Owned(merged)
}

impl View<'_> {
    /// A turn's chronicle as lines: what happened to many units alike is told
    /// in one line ("Wavering: A, B, C."), in the order it first happened.
    pub fn entries(&self, entries: &[Entry]) -> Vec<String> {
        enum Slot {
            Line(String),
            Group(Detail, Vec<(&'static str, String)>, Vec<usize>),
        }
        let mut slots: Vec<Slot> = Vec::new();
        let entries = one_line_a_place(entries);
        // Of his own units cut off, nothing; their losses in a place he
        // has no word of, neither (as the turn's prose).
        let left = self.left_by_heard(&entries);
        let heard = |zone: usize| left.contains(&zone) || self.hears_zone(zone);
        let mine = |side: &usize| *side == self.side;
        for entry in entries.iter() {
            let unheard;
            // The other sides' part of a loss list, and the men in it.
            let theirs = |losses: &[(usize, u32)]| -> Vec<(usize, u32)> {
                losses.iter().filter(|(s, _)| !mine(s)).copied().collect()
            };
            let count = |losses: &[(usize, u32)]| losses.iter().map(|l| l.1).sum::<u32>();
            let entry = match entry {
                Entry::Clash { zone, losses } if !heard(*zone) => {
                    unheard = Entry::Clash {
                        zone: *zone,
                        losses: theirs(losses),
                    };
                    &unheard
                }
                Entry::Trampled { zone, losses, .. } if !heard(*zone) => {
                    let losses = theirs(losses);
                    unheard = Entry::Trampled {
                        zone: *zone,
                        men: count(&losses),
                        losses,
                    };
                    &unheard
                }
                Entry::Burned { zone, losses, .. } if !heard(*zone) => {
                    let losses = theirs(losses);
                    unheard = Entry::Burned {
                        zone: *zone,
                        men: count(&losses),
                        losses,
                    };
                    &unheard
                }
                Entry::Surrenders { unit, .. } if self.owns(*unit) && !self.hears(*unit) => {
                    continue;
                }
                _ => entry,
            };
            let group = self.group_of(entry);
            match group {
                Some((key, args, unit)) => {
                    if !self.sees_unit(unit) || (self.owns(unit) && !self.hears(unit)) {
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
    pub(super) fn bodies(&self, name: &str, count: usize) -> String {
        catalogue::bodies(self.locale, name, count)
    }

    /// The template for one unit: its plural form when the scene says the
    /// unit's English name is plural.
    pub(super) fn unit_template(&self, key: Detail, unit: usize) -> &'static str {
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
    pub(super) fn shows(&self, entry: &Entry, unit: usize) -> bool {
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

    /// Entries told in groups: the template, its other arguments, and the unit.
    pub(super) fn group_of(&self, entry: &Entry) -> Option<Grouped> {
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
        match entry {
            Entry::Wind { .. }
            | Entry::WindShifts { .. }
            | Entry::FireStarts { .. }
            | Entry::FireSpreads { .. }
            | Entry::FireOut { .. }
            | Entry::SmokeThick { .. }
            | Entry::SmokeClears { .. }
            | Entry::Obscured { .. }
            | Entry::Unobscured { .. } => self.weather_entry(entry),
            Entry::Trampled { .. }
            | Entry::Burned { .. }
            | Entry::Clash { .. }
            | Entry::Casualties { .. }
            | Entry::Destroyed { .. }
            | Entry::Surrenders { .. } => self.loss_entry(entry),
            _ => self.unit_entry(entry),
        }
    }

    /// Wind, fire, smoke and what hides a zone.
    fn weather_entry(&self, entry: &Entry) -> Option<String> {
        let l = self.locale;
        let line = match entry {
            Entry::Wind { strength, toward }
            | Entry::WindShifts {
                strength, toward, ..
            } => fill(
                template(l, Detail::Wind),
                &[("wind", super::wind_phrase(l, *strength, *toward))],
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
            Entry::Obscured { zone, by } => return Some(self.obscurant_line(*zone, *by, true)),
            Entry::Unobscured { zone, by } => {
                return Some(self.obscurant_line(*zone, *by, false));
            }
            _ => return None,
        };
        Some(line)
    }

    /// The dead: in a fight, a crush, an effect, a blast, a surrender.
    fn loss_entry(&self, entry: &Entry) -> Option<String> {
        let l = self.locale;
        let own = |unit: usize| self.unit_side(unit) == self.side;
        let line = match entry {
            Entry::Trampled { zone, men, losses } | Entry::Burned { zone, men, losses } => {
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
                let key = if matches!(entry, Entry::Burned { .. }) {
                    Detail::Burned
                } else if self.field.zones.get(*zone).is_some_and(|z| z.drowns()) {
                    Detail::Drowned
                } else {
                    Detail::Trampled
                };
                fill(
                    template(l, key),
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
            Entry::Destroyed { zone, men, .. } => fill(
                template(l, Detail::Destroyed),
                &[
                    ("zone", self.zone_name(*zone)),
                    ("men", self.told_men(*men, false)),
                ],
            ),
            _ => return None,
        };
        Some(line)
    }

    /// What units did and felt, drums, and a commander's fall.
    fn unit_entry(&self, entry: &Entry) -> Option<String> {
        let l = self.locale;
        let own = |unit: usize| self.unit_side(unit) == self.side;
        let unit_args = |unit: usize| vec![("unit", self.unit_name(unit))];
        let line = match entry {
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
            Entry::CommanderFalls { commander, fate } => {
                return self.commander_fall(*commander, *fate);
            }
            _ => return None,
        };
        Some(line)
    }
}
