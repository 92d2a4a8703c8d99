//! Combat: opposing units in one zone take losses.
//!
//! Lanchester's laws, per zone and side: melee is linear (only as many can
//! strike as face an enemy, so losses are bounded by the smaller force) and
//! missile fire is square (every gun counts). Fighting power is men × the
//! kind's melee or missile × a state factor (routing units strike no one and
//! die `routing_exposure` times faster) × thick smoke × cavalry deep in water.
//! Cover protects a unit that holds. Losses are shared by men within a side.

use super::TurnIo;
use super::chronicle::{Chronicle, Entry};
use super::components::{
    CommanderState, Location, Modifier, Morale, Orders, Strength, UnitInfo, UnitOrder, UnitSpec,
    Vision, ZoneIdx,
};
use super::field::Field;

use super::rng::BattleRng;
use super::weather::Burning;

use crate::scene::{Fate, MoraleState, Rules};
use bevy_ecs::prelude::*;

/// How hard a unit in this state strikes.
pub fn state_factor(state: MoraleState) -> f64 {
    match state {
        MoraleState::Steady => 1.0,
        MoraleState::Rallied => 0.85,
        MoraleState::Wavering => 0.7,
        _ => 0.0,
    }
}

/// What combat needs of a unit that can fight, read once, in unit-index
/// order; `lost` is what it loses, written back once every zone is fought.
/// Kept small (56 bytes): the list is walked several times a sub-step, and
/// at a million units it is half a million fighters. Its quality, for the
/// rare test at a charge, is the field's, by `idx`.
#[derive(Debug, Clone, Copy)]
struct Fighter {
    /// The unit, to write its losses to.
    entity: Entity,
    /// Its index and side, as `u32`s (the list is walked five times a
    /// sub-step: 48 bytes a fighter, not 56).
    idx: u32,
    side: u32,
    melee: f64,
    missile: f64,
    men: u32,
    lost: u32,
    state: MoraleState,
    mounted: bool,
    /// Ordered to hold where it stands.
    holds: bool,
    /// Ordered on to another zone (on the march).
    marching: bool,
}

impl Fighter {
    /// The unit's index.
    #[inline]
    fn idx(&self) -> usize {
        self.idx as usize
    }

    /// Its side.
    #[inline]
    fn side(&self) -> usize {
        self.side as usize
    }
}

/// The combat system's working lists, kept between turns so a turn
/// allocates nothing once they have grown.
#[derive(Default)]
pub struct CombatScratch {
    falls: Vec<(usize, Fate)>,
    fighters: Vec<Fighter>,
    by_zone: Vec<Vec<usize>>,
    /// Per zone: who stands there to fight.
    fronts: Vec<Front>,
    /// The fronts of the last sub-step: while they stand (most sub-steps of
    /// a fight), the walk that finds the fronts gathers the fighters too.
    guess: Vec<Front>,
    men: Vec<f64>,
    melee: Vec<f64>,
    missile: Vec<f64>,
    losses_by_side: Vec<f64>,
    side_units: Vec<usize>,
    exposures: Vec<f64>,
    standing: Vec<(usize, usize)>,
    /// Per zone: its fire; per zone and side: the men it killed.
    fires: Vec<f64>,
    burned: Vec<u32>,
    /// The foot charged by horse in the sub-step (fighter, morale lost,
    /// broken), written to the units before the blows.
    charged: Vec<(usize, f64, bool)>,
    /// Per unit index: the men it lost in the sub-step (written back in one
    /// walk over the units).
    lost: Vec<u32>,
    /// What each side lost in a zone (side, men), for the chronicle: kept
    /// here, copied into an entry only when the chronicle keeps entries (a
    /// simulated game's keeps none, and made a list a fight for nothing).
    report: Vec<(usize, u32)>,
}

/// Who stands in a zone to fight, as combat first reads the units.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Front {
    Empty,
    /// Units of this side only.
    Held(usize),
    /// Units of two sides or more.
    Contested,
}

/// Whether a unit is on the field as a body of men that can fight or be
/// hurt (read from its men and its `Location`, which holds its morale's
/// state: not its `Morale`).
fn fights(strength: &Strength, location: &Location) -> bool {
    strength.men > 0 && location.stands()
}

/// A unit as combat's pass over the units reads it.
type UnitItem<'a> = (
    Entity,
    &'a UnitInfo,
    &'a Strength,
    &'a Location,
    &'a Orders,
    &'a Morale,
);

/// The units as combat and the fire read and hurt them.
type Fighters<'w, 's> = super::components::StepUnits<'w, 's>;

/// Fire kills `fire_casualties` × its level of the men of every unit on the
/// field in a burning zone, per 刻 of the sub-step; the dead count as the
/// unit's losses this turn (morale reads them) and are told by zone and side.
/// No chance is drawn: the streams are as they were.
fn burn(
    io: &mut TurnIo,
    (fires, burned): (&mut Vec<f64>, &mut Vec<u32>),
    zones: &Query<(&ZoneIdx, &Burning)>,
    units: &mut Fighters,
) {
    let dt = io.dt();
    let super::TurnIo {
        field,
        chronicle,
        busy,
        ..
    } = io;
    let (n, n_sides) = (field.zones.len(), field.n_sides);
    refill(fires, n, 0.0);
    let mut any = false;
    zones.iter().for_each(|(idx, burning)| {
        if let Some(slot) = fires.get_mut(idx.0)
            && burning.fire > 0.0
        {
            *slot = burning.fire;
            any = true;
        }
    });
    if !any {
        return;
    }
    refill(burned, n * n_sides, 0);
    let rate = field.rules.fire_casualties * dt;
    let mut killed = false;
    units
        .iter_mut()
        .for_each(|(_, info, mut strength, location, _, _)| {
            let fire = fires.get(location.zone()).copied().unwrap_or(0.0);
            if fire <= 0.0 || !fights(&strength, &location) {
                return;
            }
            let lost = (f64::from(strength.men) * (fire * rate).clamp(0.0, 1.0))
                .round()
                .clamp(0.0, f64::from(strength.men)) as u32;
            if lost == 0 {
                return;
            }
            strength.men -= lost;
            strength.lost_this_turn += lost;
            if let Some(slot) = burned.get_mut(location.zone() * n_sides + info.side()) {
                *slot = slot.saturating_add(lost);
            }
            killed = true;
        });
    if !killed {
        return;
    }
    // Men dying: the next sub-step is not quiet.
    *busy = true;
    chronicle.push_losses_by_zone(burned, n_sides, |zone, men, losses| Entry::Burned {
        zone,
        men,
        losses,
    });
}

/// Empties `list` and fills it with `len` copies of `value`, keeping its memory.
fn refill<T: Clone>(list: &mut Vec<T>, len: usize, value: T) {
    list.clear();
    list.resize(len, value);
}

/// Fire kills the men standing in it; then, in every zone where men of two
/// sides stand, each side's losses are found and shared among its men, and
/// a commander where his side is losing may fall. The losses are written to
/// the units once every zone is fought, and each fall shocks the men of the
/// fallen.
#[allow(clippy::too_many_arguments)]
pub fn combat_system(
    io: &mut TurnIo,
    scratch: &mut CombatScratch,
    vision: &Vision,
    rng: &mut BattleRng,
    commanders: &mut Query<&mut CommanderState>,
    zones: &Query<(&ZoneIdx, &Burning)>,
    units: &mut Fighters,
) {
    let dt = io.dt();
    // Fire kills the men standing in it, fighting or not (off unless a
    // scene's rules turn it on: nothing is read then).
    if io.field.rules.fire_casualties > 0.0 {
        let CombatScratch { fires, burned, .. } = scratch;
        burn(&mut *io, (fires, burned), zones, units);
        // (Men may have burned.)
        super::stir(&mut io.stirs);
    }
    let super::TurnIo {
        field,
        chronicle,
        busy,
        stirs,
        ..
    } = &mut *io;
    let (field, chronicle) = (&*field, chronicle);
    let CombatScratch {
        falls,
        fighters,
        by_zone,
        fronts,
        men,
        melee,
        missile,
        losses_by_side,
        side_units,
        exposures,
        standing,
        charged,
        lost,
        report,
        guess,
        ..
    } = scratch;
    falls.clear();
    charged.clear();
    let rules = &field.rules;
    let n_sides = field.n_sides;
    let n = field.zones.len();
    // Only where men of two sides stand is anybody hurt (or a commander at
    // risk). A turn with none is over at once.
    // When the last sub-step had a front, the fighters are gathered on
    // the same walk, as if its fronts stood; kept when they did (and the
    // units were met in index order), gathered again otherwise. Only in a
    // battle of many units: a few stay in the caches, and a second walk
    // over them costs less than a guess that failed.
    let guessed =
        field.units.len() >= ONE_WALK_FROM && guess.len() == n && guess.contains(&Front::Contested);
    let any_contested = if guessed {
        fronts_and_fighters(field, guess, fronts, (fighters, by_zone), units)
    } else {
        find_fronts(fronts, n, units)
    };
    let gathered = guessed && *fronts == *guess && fighters.is_sorted_by_key(|fighter| fighter.idx);
    guess.clone_from(fronts);
    if !any_contested {
        return;
    }
    // A fight: the next sub-step is not quiet.
    *busy = true;
    if !gathered {
        gather_fighters(field, fronts, (fighters, by_zone), units);
    }
    for (zone, here) in by_zone.iter().enumerate() {
        let info_zone = &field.zones[zone];
        if here.is_empty() {
            continue;
        }
        // What the zone does to every fighter in it, found once.
        let blind = vision.is_blind(zone);
        let deep = info_zone.depth_m > rules.deep_water_m;
        strike_power(
            here,
            fighters,
            (blind, deep),
            rules,
            (men, melee, missile),
            n_sides,
        );
        let sides_here = men.iter().filter(|m| **m > 0.0).count();
        if sides_here < 2 {
            continue;
        }
        // Horse charges the foot it finds out of a fortified place: those
        // that break at the shock strike no blow in this sub-step (drawn
        // only when the rule is on, so the stream is as it was).
        if rules.charge_rout > 0.0 || rules.charge_morale > 0.0 {
            let before = charged.len();
            charge(
                here,
                fighters,
                &field.units,
                (info_zone.cover, deep),
                (rules, dt),
                charged,
                rng,
            );
            if charged[before..].iter().any(|&(_, _, broke)| broke) {
                strike_power(
                    here,
                    fighters,
                    (blind, deep),
                    rules,
                    (men, melee, missile),
                    n_sides,
                );
            }
        }
        side_losses((men, melee, missile), losses_by_side, rules, dt, rng);
        share_losses(
            here,
            fighters,
            losses_by_side,
            (side_units, exposures),
            info_zone.cover,
            rules,
            report,
        );
        if !chronicle.off && report.iter().any(|(_, lost)| *lost > 0) {
            chronicle.push(Entry::Clash {
                zone,
                losses: report.clone(),
            });
        }
        // A commander where his side is losing may fall (never drawn when
        // the rule is off, so the random stream is as it always was).
        if rules.commander_fall_chance > 0.0 {
            commander_falls(
                zone,
                (men, losses_by_side),
                commanders,
                standing,
                falls,
                (rules, dt),
                rng,
            );
        }
    }
    // The last unit (by index) that lost men, if any did, and each one's
    // losses by index: found on one walk, for the stir and for writing the
    // losses.
    let last_hit = note_losses(fighters, lost);
    // Men lost, a unit broken by a charge or a commander fallen.
    if !falls.is_empty() || charged.iter().any(|&(_, _, broke)| broke) || last_hit.is_some() {
        super::stir(stirs);
    }
    mark_falls(falls, commanders, chronicle);
    write_charges(charged, fighters, chronicle, units);
    write_losses(last_hit, lost, units);
    if falls.is_empty() {
        return;
    }
    shock_the_led(falls, field, units);
}

/// Which zones hold fighting units of two sides or more (`fronts`, per
/// zone), read in any order: the sides a zone holds do not depend on it.
/// Whether any zone does.
fn find_fronts(fronts: &mut Vec<Front>, n: usize, units: &Fighters) -> bool {
    refill(fronts, n, Front::Empty);
    let mut any_contested = false;
    units
        .iter()
        .for_each(|(_, info, strength, location, _, _)| {
            if fights(strength, location)
                && let Some(front) = fronts.get_mut(location.zone())
            {
                *front = match *front {
                    Front::Empty => Front::Held(info.side()),
                    Front::Held(side) if side != info.side() => {
                        any_contested = true;
                        Front::Contested
                    }
                    held => held,
                };
            }
        });
    any_contested
}

/// The fighting units of each contested zone (`fighters`, in unit order),
/// and for each zone where in that list its fighters are (`by_zone`).
fn gather_fighters(
    field: &Field,
    fronts: &[Front],
    (fighters, by_zone): (&mut Vec<Fighter>, &mut Vec<Vec<usize>>),
    units: &Fighters,
) {
    let n = field.zones.len();
    // One pass, not one per zone. Emptied, not dropped: each zone's list
    // keeps its memory. In unit-index order: as the units are stored,
    // checked once they are listed; when the world holds them otherwise,
    // the pass is made again, sorted.
    by_zone.resize_with(n, Vec::new);
    by_zone.truncate(n);
    // Whether a unit joins the fight: checked where the units are stepped
    // (inlined there), so the rest of `gather` is called only for the
    // fighters, about half the units ([`gather_one`]).
    let joins = |(_, _, strength, location, _, _): &UnitItem| {
        fights(strength, location) && fronts.get(location.zone()) == Some(&Front::Contested)
    };
    let empty = |fighters: &mut Vec<Fighter>, by_zone: &mut Vec<Vec<usize>>| {
        fighters.clear();
        for here in by_zone.iter_mut() {
            here.clear();
        }
    };
    empty(fighters, by_zone);
    units.iter().for_each(|item| {
        if joins(&item) {
            gather_one(field, fighters, by_zone, item);
        }
    });
    // Checked on the short list of fighters, not on the way past every unit:
    // in index order, it is the list the sorted pass would make.
    if !fighters.is_sorted_by_key(|fighter| fighter.idx) {
        empty(fighters, by_zone);
        units
            .iter()
            .sort_by_key::<&UnitInfo, _>(|info| info.idx())
            .filter(joins)
            .for_each(|item| gather_one(field, fighters, by_zone, item));
    }
}

/// The fewest units for which combat finds its fronts and gathers its
/// fighters on one walk (see [`fronts_and_fighters`]).
const ONE_WALK_FROM: usize = 4096;

/// Lists a unit that joins the fight among the `fighters`, and where in
/// that list it is in its zone's list (`by_zone`), as
/// [`gather_fighters`] does.
#[inline]
fn gather_one(
    field: &Field,
    fighters: &mut Vec<Fighter>,
    by_zone: &mut [Vec<usize>],
    (entity, info, strength, location, orders, _): UnitItem,
) {
    let rules = &field.rules;
    // (By index; by the scene's name of its kind for an index the
    // field has not.)
    let kind = field
        .kind_rules(info.idx())
        .or_else(|| {
            field
                .units
                .get(info.idx())
                .map(|spec| rules.kind(&spec.kind))
        })
        .unwrap_or_else(|| rules.kind(&crate::scene::UnitKind::new("")));
    by_zone[location.zone()].push(fighters.len());
    fighters.push(Fighter {
        entity,
        idx: info.idx_u32(),
        side: info.side_u32(),
        melee: kind.melee,
        missile: kind.missile,
        men: strength.men,
        lost: 0,
        state: location.state(),
        mounted: info.mounted,
        holds: orders.holds(),
        marching: matches!(orders.order(), UnitOrder::MoveTo(to) if to != location.zone()),
    });
}

/// [`find_fronts`] and, on the same walk, [`gather_fighters`] as if the
/// fronts were `guess` (the last sub-step's): the fighters are this
/// sub-step's when the fronts found are the guess.
fn fronts_and_fighters(
    field: &Field,
    guess: &[Front],
    fronts: &mut Vec<Front>,
    (fighters, by_zone): (&mut Vec<Fighter>, &mut Vec<Vec<usize>>),
    units: &Fighters,
) -> bool {
    let n = field.zones.len();
    refill(fronts, n, Front::Empty);
    by_zone.resize_with(n, Vec::new);
    by_zone.truncate(n);
    fighters.clear();
    for here in by_zone.iter_mut() {
        here.clear();
    }
    let mut any_contested = false;
    units.iter().for_each(|item| {
        let (_, info, strength, location, _, _) = item;
        if fights(strength, location)
            && let Some(front) = fronts.get_mut(location.zone())
        {
            *front = match *front {
                Front::Empty => Front::Held(info.side()),
                Front::Held(side) if side != info.side() => {
                    any_contested = true;
                    Front::Contested
                }
                held => held,
            };
            if guess.get(location.zone()) == Some(&Front::Contested) {
                gather_one(field, fighters, by_zone, item);
            }
        }
    });
    any_contested
}

/// The men of each side in a zone, and how hard they strike in melee and
/// with missiles, summed over its fighters (`here`) in their order: each
/// strikes by its state, less in thick smoke (`blind`), and riders less in
/// deep water (`deep`).
fn strike_power(
    here: &[usize],
    fighters: &[Fighter],
    (blind, deep): (bool, bool),
    rules: &Rules,
    (men, melee, missile): (&mut Vec<f64>, &mut Vec<f64>, &mut Vec<f64>),
    n_sides: usize,
) {
    refill(men, n_sides, 0.0);
    refill(melee, n_sides, 0.0);
    refill(missile, n_sides, 0.0);
    for &i in here {
        let fighter = &fighters[i];
        let mut power = state_factor(fighter.state);
        if blind {
            power *= rules.smoke_combat;
        }
        if fighter.mounted && deep {
            power *= rules.cavalry_in_water;
        }
        let m = f64::from(fighter.men);
        men[fighter.side()] += m;
        melee[fighter.side()] += m * fighter.melee * power;
        missile[fighter.side()] += m * fighter.missile * power;
    }
}

/// What each side in a zone loses in the sub-step (`losses_by_side`), before
/// it is shared among its units: the enemy's melee on the front engaged
/// and all the enemy's missiles, times the side's luck.
fn side_losses(
    (men, melee, missile): (&[f64], &[f64], &[f64]),
    losses_by_side: &mut Vec<f64>,
    rules: &Rules,
    dt: f64,
    rng: &mut BattleRng,
) {
    let n_sides = men.len();
    refill(losses_by_side, n_sides, 0.0);
    #[allow(clippy::needless_range_loop)]
    for side in 0..n_sides {
        if men[side] <= 0.0 {
            continue;
        }
        let enemy_men: f64 = (0..n_sides).filter(|s| *s != side).map(|s| men[s]).sum();
        let enemy_melee: f64 = (0..n_sides).filter(|s| *s != side).map(|s| melee[s]).sum();
        let enemy_missile: f64 = (0..n_sides)
            .filter(|s| *s != side)
            .map(|s| missile[s])
            .sum();
        // Linear law: the engaged front is the smaller force.
        let engaged = if enemy_men > 0.0 {
            (men[side] / enemy_men).min(1.0)
        } else {
            0.0
        };
        // The volleys' effect and the press of the melee are luck: one
        // draw per side and fight in each sub-step (none while the rule
        // is off, so the stream is as it was).
        let luck = if rules.combat_luck > 0.0 {
            rng.luck(rules.combat_luck)
        } else {
            1.0
        };
        losses_by_side[side] = (rules.melee_rate * enemy_melee * engaged
            + rules.missile_rate * enemy_missile)
            * dt
            * luck;
    }
}

/// Each side's losses in a zone shared among its units there by exposure
/// (each fighter's `lost`): routing men die faster, and cover (`cover`)
/// shelters those that hold. What each side lost, side by side, for the
/// chronicle: written to `report` (emptied first).
fn share_losses(
    here: &[usize],
    fighters: &mut [Fighter],
    losses_by_side: &[f64],
    (side_units, exposures): (&mut Vec<usize>, &mut Vec<f64>),
    cover: f64,
    rules: &Rules,
    report: &mut Vec<(usize, u32)>,
) {
    report.clear();
    for (side, &side_losses) in losses_by_side.iter().enumerate() {
        if side_losses <= 0.0 {
            continue;
        }
        // Share the side's losses by exposure: routing men die faster, cover shelters holders.
        side_units.clear();
        side_units.extend(here.iter().copied().filter(|&i| fighters[i].side() == side));
        exposures.clear();
        exposures.extend(side_units.iter().map(|&i| {
            let fighter = &fighters[i];
            let mut weight = f64::from(fighter.men);
            if fighter.state == MoraleState::Routing {
                weight *= rules.routing_exposure;
            }
            if fighter.holds && fighter.state != MoraleState::Routing {
                weight *= 1.0 - cover * 0.5;
            }
            weight
        }));
        let plain: f64 = side_units.iter().map(|&i| f64::from(fighters[i].men)).sum();
        let weighted: f64 = exposures.iter().sum();
        if plain <= 0.0 || weighted <= 0.0 {
            continue;
        }
        // Exposure scales the total too: a routing side loses more than it would standing.
        let total = side_losses * weighted / plain;
        let mut side_lost = 0;
        for (&i, exposure) in side_units.iter().zip(exposures.iter()) {
            let lost = (total * exposure / weighted).round();
            // Read before any loss is written: each unit fights in one zone, once.
            let fighter = &mut fighters[i];
            let lost = lost.clamp(0.0, f64::from(fighter.men)) as u32;
            fighter.lost = lost;
            side_lost += lost;
        }
        report.push((side, side_lost));
    }
}

/// Horse charges foot (rules `charge_morale` and `charge_rout`): in a zone
/// where a side's horse stands in good order (steady or rallied, not in
/// deep water) facing the foot of another side, each foot unit not yet
/// broken feels the shock at once, before the blows of the sub-step: it
/// loses `charge_morale` a 刻 and breaks with chance `charge_rout` a 刻 ×
/// (1 − its quality), both × its exposure: the charging horse's men over
/// the foot's men there (at most 1), × (1 − the zone's cover) for foot that
/// hold their ground (a fortified camp, a wood, a wall), × 1 for foot on
/// the march. A unit that breaks routs at once: it strikes no blow in this
/// sub-step, and takes the blows of men running. Noted in `charged`
/// (fighter, morale lost, broken), its state set in `fighters`.
fn charge(
    here: &[usize],
    fighters: &mut [Fighter],
    specs: &[UnitSpec],
    (cover, deep): (f64, bool),
    (rules, dt): (&Rules, f64),
    charged: &mut Vec<(usize, f64, bool)>,
    rng: &mut BattleRng,
) {
    // Riders deep in a river do not charge.
    if deep {
        return;
    }
    // A unit's quality (0..1): the scene's.
    let quality = |idx: usize| specs.get(idx).map_or(0.0, |spec| spec.quality);
    let charging = |fighter: &Fighter| {
        fighter.mounted && matches!(fighter.state, MoraleState::Steady | MoraleState::Rallied)
    };
    let standing_foot = |fighter: &Fighter| !fighter.mounted && !fighter.state.is_broken();
    for &i in here {
        let fighter = fighters[i];
        if !standing_foot(&fighter) {
            continue;
        }
        let (horse, foot) = here.iter().fold((0.0, 0.0), |(horse, foot), &j| {
            let other = &fighters[j];
            if other.side != fighter.side && charging(other) {
                (horse + f64::from(other.men), foot)
            } else if other.side == fighter.side && standing_foot(other) {
                (horse, foot + f64::from(other.men))
            } else {
                (horse, foot)
            }
        });
        if horse <= 0.0 || foot <= 0.0 {
            continue;
        }
        let ground = if fighter.marching {
            1.0
        } else {
            (1.0 - cover).clamp(0.0, 1.0)
        };
        let exposure = (horse / foot).min(1.0) * ground;
        if exposure <= 0.0 {
            continue;
        }
        let shock = rules.charge_morale * exposure * dt;
        let broke = rules.charge_rout > 0.0
            && rng.chance(super::field::per_step(
                (rules.charge_rout * (1.0 - quality(fighter.idx())) * exposure).clamp(0.0, 1.0),
                dt,
            ));
        if broke {
            fighters[i].state = MoraleState::Routing;
        }
        if shock > 0.0 || broke {
            charged.push((i, shock, broke));
        }
    }
}

/// The shock of each charge written to the foot it struck (`why` shows it
/// as the charge), and each that broke set routing and told.
fn write_charges(
    charged: &[(usize, f64, bool)],
    fighters: &[Fighter],
    chronicle: &mut Chronicle,
    units: &mut Fighters,
) {
    for &(i, shock, broke) in charged {
        let fighter = &fighters[i];
        if let Ok((_, _, _, mut location, mut orders, mut morale)) = units.get_mut(fighter.entity) {
            if shock > 0.0 {
                morale.feel(Modifier::Charged, -shock);
            }
            if broke && !location.state().is_broken() {
                location.set_state(MoraleState::Routing);
                // Broken men stop to no order but flight.
                orders.set_order(UnitOrder::Hold);
                chronicle.push(Entry::Routs {
                    unit: fighter.idx(),
                });
            }
        }
    }
}

/// The commanders standing in a zone, by index, who fall in the sub-step
/// where their side is losing (a larger share of its men lost than an
/// enemy's there), each with his fate (`falls`): one draw for each at risk,
/// and one more for the fate of each who falls.
fn commander_falls(
    zone: usize,
    (men, losses_by_side): (&[f64], &[f64]),
    commanders: &Query<&mut CommanderState>,
    standing: &mut Vec<(usize, usize)>,
    falls: &mut Vec<(usize, Fate)>,
    (rules, dt): (&Rules, f64),
    rng: &mut BattleRng,
) {
    let n_sides = men.len();
    let share = |side: usize| losses_by_side[side] / men[side].max(1.0);
    let losing = |side: usize| {
        men[side] > 0.0
            && (0..n_sides)
                .filter(|s| *s != side && men[*s] > 0.0)
                .any(|s| share(side) > share(s))
    };
    standing.clear();
    standing.extend(
        commanders
            .iter()
            .filter(|c| c.zone == zone && c.fallen.is_none() && c.side < n_sides)
            .map(|c| (c.idx, c.side)),
    );
    standing.sort_unstable();
    for &(commander, side) in standing.iter() {
        if losing(side) && rng.chance(super::field::per_step(rules.commander_fall_chance, dt)) {
            let roll = rng.unit();
            let fate = if roll < rules.fall_killed {
                Fate::Killed
            } else if roll < rules.fall_killed + rules.fall_captured {
                Fate::Captured
            } else {
                Fate::Wounded
            };
            falls.push((commander, fate));
        }
    }
}

/// Each commander who fell is marked fallen, his drums spent, and his fall
/// is told, in the order the zones were fought.
fn mark_falls(
    falls: &[(usize, Fate)],
    commanders: &mut Query<&mut CommanderState>,
    chronicle: &mut Chronicle,
) {
    for &(commander, fate) in falls.iter() {
        for mut state in commanders.iter_mut() {
            if state.idx == commander {
                state.fallen = Some(fate);
                state.drums_left = 0;
            }
        }
        chronicle.push(Entry::CommanderFalls { commander, fate });
    }
}

/// The men each fighter lost, by unit index (`lost`, up to the last that
/// lost any), on one walk over the fighters; that last unit's index, if
/// any lost men.
fn note_losses(fighters: &[Fighter], lost: &mut Vec<u32>) -> Option<usize> {
    lost.clear();
    // Room for every fighter's index at once (the list is in index order,
    // so its last has the greatest): not grown fighter by fighter.
    lost.resize(fighters.last().map_or(0, |fighter| fighter.idx() + 1), 0);
    let mut last_hit = None;
    for fighter in fighters.iter().filter(|fighter| fighter.lost > 0) {
        let idx = fighter.idx();
        if lost.len() <= idx {
            lost.resize(idx + 1, 0);
        }
        lost[idx] = fighter.lost;
        last_hit = last_hit.max(Some(idx));
    }
    last_hit
}

/// The losses, written to the units that took them (each its own), in one
/// walk over the units: a lookup of each fighter by its entity cost more
/// than the walk (in a small battle most units fight). `lost`: each unit's
/// losses by index ([`note_losses`]).
/// `last_hit`: the greatest index of a fighter that lost men (none: none did).
fn write_losses(last_hit: Option<usize>, lost: &[u32], units: &mut Fighters) {
    if last_hit.is_none() {
        return;
    }
    units.iter_mut().for_each(|(_, info, mut strength, ..)| {
        if let Some(&men) = lost.get(info.idx())
            && men > 0
        {
            strength.men -= men;
            strength.lost_this_turn += men;
        }
    });
}

/// The shock of each fall to the men of the fallen, on the field and able
/// to fight or flee (each unit its own): half of `fall_shock` for a wound,
/// all of it for death or capture.
fn shock_the_led(falls: &[(usize, Fate)], field: &Field, units: &mut Fighters) {
    let rules = &field.rules;
    let shock = |fate: Fate| {
        if fate == Fate::Wounded {
            -rules.fall_shock / 2.0
        } else {
            -rules.fall_shock
        }
    };
    for (_, info, _, location, _, mut morale) in units.iter_mut() {
        if !location.stands() {
            continue;
        }
        for &(commander, fate) in falls.iter() {
            if field.units.get(info.idx()).and_then(|spec| spec.leader) == Some(commander) {
                let shock = shock(fate);
                morale.value = (morale.value + shock).clamp(0.0, 100.0);
                morale.push(Modifier::CommanderFell, shock);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::scene::MoraleState;
    use crate::sim::components::{Modifier, Morale, Orders, UnitInfo, UnitOrder};
    use crate::sim::testing::{small_world, state_of, unit_men};
    use bevy_ecs::prelude::*;

    /// The small world's Ming foot (unit 0, quality `quality`) standing on
    /// the north bank beside the Jin banner horse (unit 1), the north
    /// bank's cover `cover`, the charge rules as given, luck off.
    fn foot_beside_horse(
        quality: f64,
        cover: f64,
        (charge_morale, charge_rout): (f64, f64),
    ) -> (World, crate::sim::Turn) {
        small_world(|mut scene| {
            scene.units[0].zone = "north-bank".into();
            scene.units[0].quality = quality;
            scene.units[0].morale = 75.0;
            scene.zones[2].cover = cover;
            scene.rules.insert("combat_luck".into(), 0.0);
            scene.rules.insert("charge_morale".into(), charge_morale);
            scene.rules.insert("charge_rout".into(), charge_rout);
            scene
        })
    }

    fn set_order(world: &mut World, unit: usize, order: UnitOrder) {
        let mut query = world.query::<(&UnitInfo, &mut Orders)>();
        for (info, mut orders) in query.iter_mut(world) {
            if info.idx() == unit {
                orders.set_order(order);
            }
        }
    }

    fn charged_by(world: &mut World, unit: usize) -> f64 {
        let mut query = world.query::<(&UnitInfo, &Morale)>();
        query
            .iter(world)
            .filter(|(info, _)| info.idx() == unit)
            .flat_map(|(_, morale)| morale.last().to_vec())
            .filter(|(modifier, _)| *modifier == Modifier::Charged)
            .map(|(_, delta)| delta)
            .sum()
    }

    #[test]
    fn foot_broken_at_the_charge_strikes_no_blow() {
        // Green foot (quality 0) in the open against as many horse: the
        // charge breaks it at once, before the blows, so the horse loses
        // no one and the running foot pays for it.
        let (mut world, mut turn) = foot_beside_horse(0.0, 0.0, (0.0, 1.0));
        turn.run(&mut world);
        assert_eq!(state_of(&mut world, 0), MoraleState::Routing);
        assert_eq!(unit_men(&mut world, 1), 4_000, "the horse lost men");
        let broken_lost = 4_000 - unit_men(&mut world, 0);
        // Without the rule, they trade blows for the quarter-hour.
        let (mut world, mut turn) = foot_beside_horse(0.0, 0.0, (0.0, 0.0));
        turn.run(&mut world);
        assert_ne!(state_of(&mut world, 0), MoraleState::Routing);
        assert!(unit_men(&mut world, 1) < 4_000, "the foot struck back");
        let standing_lost = 4_000 - unit_men(&mut world, 0);
        assert!(
            broken_lost > standing_lost,
            "broken {broken_lost}, standing {standing_lost}"
        );
    }

    #[test]
    fn a_fortified_place_shelters_foot_that_holds_but_not_foot_on_the_march() {
        // Full cover: foot holding its ground feels no charge.
        let (mut world, mut turn) = foot_beside_horse(0.0, 1.0, (10.0, 1.0));
        set_order(&mut world, 0, UnitOrder::Hold);
        turn.run(&mut world);
        assert_ne!(state_of(&mut world, 0), MoraleState::Routing);
        assert_eq!(charged_by(&mut world, 0), 0.0);
        // The same foot ordered on to the tent is caught on the march.
        let (mut world, mut turn) = foot_beside_horse(0.0, 1.0, (10.0, 1.0));
        set_order(&mut world, 0, UnitOrder::MoveTo(3));
        turn.run(&mut world);
        assert_eq!(state_of(&mut world, 0), MoraleState::Routing);
    }

    #[test]
    fn the_charge_shakes_foot_by_the_horse_it_faces() {
        // Steady foot (quality 1: it never breaks at the shock) in the open:
        // a 刻 of charges costs it charge_morale, times the horse's share
        // of its men (4,000 horse against 4,000 foot: all of it; against
        // 8,000 foot, half).
        let (mut world, mut turn) = foot_beside_horse(1.0, 0.0, (10.0, 1.0));
        turn.run(&mut world);
        assert!((charged_by(&mut world, 0) + 10.0).abs() < 1e-9);
        let (mut world, mut turn) = small_world(|mut scene| {
            scene.units[0].zone = "north-bank".into();
            scene.units[0].quality = 1.0;
            scene.units[0].men = 8_000;
            scene.rules.insert("charge_morale".into(), 10.0);
            scene
        });
        turn.run(&mut world);
        assert!((charged_by(&mut world, 0) + 5.0).abs() < 1e-9);
        // The horse is not charged; off by default, nothing is.
        assert_eq!(charged_by(&mut world, 1), 0.0);
        let (mut world, mut turn) = foot_beside_horse(1.0, 0.0, (0.0, 0.0));
        turn.run(&mut world);
        assert_eq!(charged_by(&mut world, 0), 0.0);
    }

    #[test]
    fn a_larger_force_inflicts_more_than_it_takes() {
        let (mut world, mut schedule) = small_world(|mut scene| {
            scene.units[0].men = 6_000;
            scene.units[1].men = 2_000;
            scene.units[1].zone = "south-bank".into();
            scene.units[1].kind = crate::scene::UnitKind::new("MingFoot");
            scene
        });
        schedule.run(&mut world);
        let lost_big = 6_000 - unit_men(&mut world, 0);
        let lost_small = 2_000 - unit_men(&mut world, 1);
        assert!(
            lost_small > lost_big,
            "small lost {lost_small}, big lost {lost_big}"
        );
        assert!(lost_small > 0);
    }
}
