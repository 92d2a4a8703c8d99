//! The loader's bounds on every number a save holds, and a save's fit to
//! the battle it names: what loading refuses before any replay.

use super::*;

/// The most men a unit has (the scene checker's bound).
pub const MAX_MEN: u32 = 1_000_000;

/// The highest turn any battle reaches (scenes have at most 1,000 turns).
pub const MAX_TURN: u32 = 1_000;

/// Bounds every number in a save that does not need the scene to judge, so
/// that no hand-edited value can overflow a counter later.
pub fn check_bounds(file: &SaveFile) -> Result<(), String> {
    let world = &file.state.world;
    if file.turn > MAX_TURN || world.turn > MAX_TURN {
        return Err(format!(
            "its turn ({}) is past the last turn any battle has ({MAX_TURN})",
            file.turn.max(world.turn)
        ));
    }
    // The header is what `saves` lists and `play` offers: it must say what
    // the state holds.
    if file.turn != world.turn {
        return Err(format!(
            "its header says turn {} but the game it holds is at turn {}",
            file.turn, world.turn
        ));
    }
    // A save looked at, not read, has its commands still in its journal.
    let commands = file.journal.as_ref().map_or(file.log.len(), |j| j.commands);
    if commands > MAX_LOG {
        return Err(format!(
            "its command log holds {commands} commands, more than any battle takes ({MAX_LOG})"
        ));
    }
    if file.checkpoints.len() > commands + 1 || file.prints.len() > commands + 1 {
        return Err("it holds more checkpoints than commands".into());
    }
    let in_unit = |x: f64| x.is_finite() && (0.0..=1.0).contains(&x);
    let finite = |x: f64| x.is_finite() && x.abs() <= 1e12;
    if !finite(world.weather.wind) {
        return Err(format!(
            "its wind ({}) is not a usable number",
            world.weather.wind
        ));
    }
    for (idx, unit) in world.units.iter().enumerate() {
        let m = &unit.morale;
        let ok = m.value.is_finite()
            && (0.0..=100.0).contains(&m.value)
            && finite(unit.orders.progress)
            && unit.orders.progress >= 0.0
            && finite(m.fear)
            && m.last.iter().all(|(_, d)| d.abs() <= MAX_NOTED)
            && m.last.len() <= MAX_LAST;
        if !ok {
            return Err(format!(
                "unit #{} has a morale or progress out of range",
                idx + 1
            ));
        }
    }
    for (idx, unit) in world.units.iter().enumerate() {
        if unit.men > MAX_MEN || unit.lost_this_turn > MAX_MEN {
            return Err(format!(
                "unit #{} has {} men, more than a unit can have ({MAX_MEN})",
                idx + 1,
                unit.men.max(unit.lost_this_turn)
            ));
        }
    }
    for zone in &world.zones {
        let b = &zone.burning;
        if ![b.fire, b.fuel, b.smoke].into_iter().all(finite)
            || !zone.haze.levels.iter().copied().all(finite)
        {
            // Crossing counts are sums over the game, kept within u32 by the
            // engine (saturating); the battle bounds them (`check_fits`).
            return Err("a zone's fire or smoke is out of range".into());
        }
    }
    for commander in &world.commanders {
        if !finite(commander.leadership) || commander.drums_left > MAX_MEN {
            return Err("a commander's leadership is not a usable number".into());
        }
    }
    for rumor in &world.rumors.active {
        if !in_unit(rumor.credibility) {
            return Err("a rumor's credibility is out of range".into());
        }
    }
    for (what, rng) in [
        ("battle's", &world.rng),
        ("policy's", &file.state.policy_rng),
    ] {
        if rng.word_pos > MAX_WORD_POS {
            return Err(format!(
                "the {what} random stream is at draw {}, past any game's ({MAX_WORD_POS})",
                rng.word_pos
            ));
        }
    }
    if world.rumors.active.len() > crate::sim::rumor::MAX_RUMORS {
        return Err("it holds more rumors than any battle spreads".into());
    }
    Ok(())
}

/// Whether a saved state fits the scene it names: counts and every index in
/// range, so a hand-edited or foreign state cannot reach code that indexes.
pub fn check_fits(scene: &Scene, file: &SaveFile) -> Result<(), String> {
    let world = &file.state.world;
    let story = &file.state.story;
    let (n_units, n_zones, n_sides) = (
        scene.units().len(),
        scene.zones().len(),
        scene.sides().len(),
    );
    let n_commanders = scene.commanders().len();
    let count = |what: &str, saved: usize, scene_has: usize| {
        if saved == scene_has {
            Ok(())
        } else {
            Err(format!(
                "it holds {saved} {what} but the battle `{}` has {scene_has}",
                scene.id()
            ))
        }
    };
    let max_turn = scene.meta().max_turns.saturating_add(1);
    if world.turn > max_turn || file.turn > max_turn {
        return Err(format!(
            "its turn ({}) is past the battle's last ({})",
            world.turn.max(file.turn),
            scene.meta().max_turns
        ));
    }
    count("units", world.units.len(), n_units)?;
    count("commanders", world.commanders.len(), n_commanders)?;
    count("zones", world.zones.len(), n_zones)?;
    count("sides' wet-cloth orders", world.wet_cloth.len(), n_sides)?;
    let zone_ok = |z: usize| z < n_zones;
    for (idx, unit) in world.units.iter().enumerate() {
        let bad = !zone_ok(unit.location.zone)
            || unit.side.is_some_and(|side| side >= n_sides)
            || unit.orders.came_from.is_some_and(|z| !zone_ok(z))
            || match unit.orders.order.into() {
                UnitOrder::MoveTo(z) => !zone_ok(z),
                UnitOrder::RallyTo(c) => c >= n_commanders,
                UnitOrder::Hold | UnitOrder::Pursue => false,
            };
        if bad {
            return Err(format!(
                "unit `{}` is placed, ordered or sided outside the battle's zones and sides",
                scene.units()[idx].id
            ));
        }
    }
    for (idx, commander) in world.commanders.iter().enumerate() {
        if commander.idx != idx || commander.side >= n_sides || !zone_ok(commander.zone) {
            return Err(format!(
                "commander `{}` does not fit the battle",
                scene.commanders()[idx].id
            ));
        }
    }
    if world
        .zones
        .iter()
        .any(|z| z.passage.crossed.len() != n_sides)
    {
        return Err("a zone's crossing counts do not match the sides".into());
    }
    // A unit crosses at most once a turn, and no unit gains men.
    let most_crossed = scene
        .units()
        .iter()
        .map(|u| u64::from(u.men))
        .sum::<u64>()
        .saturating_mul(u64::from(max_turn));
    if let Some((idx, n)) = world.zones.iter().enumerate().find_map(|(idx, z)| {
        z.passage
            .crossed
            .iter()
            .find(|&&n| u64::from(n) > most_crossed)
            .map(|&n| (idx, n))
    }) {
        return Err(format!(
            "it says {n} men crossed at `{}`, more than the battle's men could in its turns ({most_crossed})",
            scene.zones()[idx].id
        ));
    }
    for rumor in &world.rumors.active {
        if rumor.about >= n_sides
            || rumor.reached.len() != n_zones
            || rumor.believers.iter().any(|&u| u >= n_units)
        {
            return Err("a rumor names sides, zones or units the battle does not have".into());
        }
    }
    let vision = &world.vision;
    if vision.blind.len() != n_zones
        || vision.sees.len() != n_sides
        || vision.sees.iter().any(|z| z.len() != n_zones)
    {
        return Err("its sight lines do not match the battle's zones".into());
    }
    for (tp, option) in &story.chosen {
        let known = scene
            .turning_point(tp)
            .is_some_and(|t| t.options.iter().any(|o| &o.id == option));
        if !known {
            return Err(format!(
                "it records the choice `{tp}`/`{option}`, which the battle does not have"
            ));
        }
    }
    if let Some(tp) = &story.pending
        && scene.turning_point(tp).is_none()
    {
        return Err(format!(
            "it waits on a turning point `{tp}` that does not exist"
        ));
    }
    if let Some(ending) = &story.ended
        && scene.ending(ending).is_none()
    {
        return Err(format!(
            "it ended with `{ending}`, which the battle does not have"
        ));
    }
    Ok(())
}
