//! The declarations the lowering looks references up in, gathered before
//! the walk: the story's own ids (turning points, events, endings), every
//! flag the scene sets, clears or reads, and what `TurnsSince` watches.

use super::super::raw::{Condition, Effect, Prose, RawScene};
use super::super::resolved::{EndingId, EventId, FlagId, Resolved, TpId, Watch, WatchId};
use std::collections::HashSet;

/// The story's indexes, built on `raw` (the first of a repeated id wins;
/// the walk reports the repeat).
pub(super) fn story_indexes(raw: &RawScene) -> Resolved {
    let mut resolved = Resolved::default();
    let out = &mut resolved;
    for (idx, tp) in raw.turning_points.iter().enumerate() {
        out.tp_index.entry(tp.id.clone()).or_insert(TpId::at(idx));
    }
    for (idx, event) in raw.events.iter().enumerate() {
        out.event_index
            .entry(event.id.clone())
            .or_insert(EventId::at(idx));
    }
    for (idx, ending) in raw.endings.iter().enumerate() {
        out.ending_index
            .entry(ending.id.clone())
            .or_insert(EndingId::at(idx));
    }
    let mut flags: Vec<String> = Vec::new();
    let mut watched: Vec<String> = Vec::new();
    for_each_condition_of(raw, &mut |c| names(c, &mut flags, &mut watched));
    for_each_effect_of(raw, &mut |effect| {
        if let Effect::SetFlag(flag) | Effect::ClearFlag(flag) = effect {
            flags.push(flag.clone());
        }
    });
    flags.sort_unstable();
    flags.dedup();
    watched.sort_unstable();
    watched.dedup();
    let mut stamped: Vec<String> = Vec::new();
    let mut no_flags = Vec::new();
    for tp in &raw.turning_points {
        names(&tp.when, &mut no_flags, &mut stamped);
    }
    for event in &raw.events {
        names(&event.when, &mut no_flags, &mut stamped);
    }
    for ending in &raw.endings {
        names(&ending.when, &mut no_flags, &mut stamped);
    }
    for (idx, flag) in flags.iter().enumerate() {
        out.flag_index.insert(flag.clone(), FlagId::at(idx));
    }
    out.flags = flags;
    out.watched = watched
        .into_iter()
        .enumerate()
        .map(|(idx, id)| {
            out.watch_index.insert(id.clone(), WatchId::at(idx));
            Watch {
                stamped: stamped.contains(&id),
                event: out.event_index.get(&id).copied(),
                tp: out.tp_index.get(&id).copied(),
                flag: out.flag_index.get(&id).copied(),
                id,
            }
        })
        .collect();
    resolved
}

/// Every flag a `SetFlag` effect of the scene sets.
pub(super) fn set_flags(raw: &RawScene) -> HashSet<&str> {
    let options = raw.turning_points.iter().flat_map(|tp| &tp.options);
    options
        .flat_map(|option| &option.effects)
        .chain(raw.events.iter().flat_map(|event| &event.effects))
        .filter_map(|effect| match effect {
            Effect::SetFlag(flag) => Some(flag.as_str()),
            _ => None,
        })
        .collect()
}

/// Every condition of the raw scene, including those inside text variants.
fn for_each_condition_of(raw: &RawScene, f: &mut dyn FnMut(&Condition)) {
    let prose = |p: &Prose, f: &mut dyn FnMut(&Condition)| {
        if let Prose::Variants(items) = p {
            for v in items {
                f(&v.when);
                v.claims.iter().for_each(&mut *f);
            }
        }
    };
    let effects = |effects: &[Effect], f: &mut dyn FnMut(&Condition)| {
        for effect in effects {
            if let Effect::Narrate(p) = effect {
                prose(p, f);
            }
        }
    };
    prose(&raw.meta.intro, f);
    for tp in &raw.turning_points {
        f(&tp.when);
        prose(&tp.situation, f);
        for option in &tp.options {
            option.claims.iter().for_each(&mut *f);
            prose(&option.narration, f);
            if let Some(p) = &option.perceived {
                prose(p, f);
            }
            effects(&option.effects, f);
        }
    }
    for event in &raw.events {
        f(&event.when);
        if let Some(p) = &event.text {
            prose(p, f);
        }
        effects(&event.effects, f);
    }
    for ending in &raw.endings {
        f(&ending.when);
        prose(&ending.text, f);
        prose(&ending.summary, f);
        if let Some(p) = &ending.history {
            prose(p, f);
        }
    }
    for v in &raw.atmosphere {
        f(&v.when);
        v.claims.iter().for_each(&mut *f);
    }
    if let Some(prelude) = &raw.prelude {
        if let Some(p) = &prelude.text {
            prose(p, f);
        }
        effects(&prelude.effects, f);
    }
}

fn for_each_effect_of(raw: &RawScene, f: &mut dyn FnMut(&Effect)) {
    for tp in &raw.turning_points {
        tp.options.iter().flat_map(|o| &o.effects).for_each(&mut *f);
    }
    raw.events.iter().flat_map(|e| &e.effects).for_each(&mut *f);
    if let Some(prelude) = &raw.prelude {
        prelude.effects.iter().for_each(&mut *f);
    }
}

/// Flag names and `TurnsSince` ids anywhere in a condition.
fn names(condition: &Condition, flags: &mut Vec<String>, watched: &mut Vec<String>) {
    match condition {
        Condition::Flag(flag) => flags.push(flag.clone()),
        Condition::TurnsSince(id, _) => {
            watched.push(id.clone());
            // A watched id that is neither an event nor a turning point is a flag.
            flags.push(id.clone());
        }
        Condition::All(items) | Condition::Any(items) => {
            items.iter().for_each(|c| names(c, flags, watched));
        }
        Condition::Not(item) => names(item, flags, watched),
        _ => {}
    }
}
