//! Visiting units in unit-index order without sorting them each time.
//!
//! Systems that draw from the random stream, push chronicle entries or sum
//! floating-point numbers must visit units in unit-index order. The world
//! stores its units that way (they are spawned once, in index order, and
//! written in place afterwards), so a query over them usually yields them in
//! that order already: a system checks it once per run, on its first pass
//! over the query ([`Rising`]; a pass whose result depends on the order is
//! made again, sorted, when the check fails), and then iterates the query as
//! it is stored. When the world holds them otherwise (a test that built it by
//! hand, a component added to one unit), the same loops visit them sorted by
//! index instead — slower, the same result.

use super::components::UnitInfo;
use bevy_ecs::prelude::*;
use bevy_ecs::query::{IterQueryData, QueryFilter};

/// Either of two iterators over the same items.
pub enum Either<A, B> {
    Stored(A),
    Sorted(B),
}

impl<A, B> Iterator for Either<A, B>
where
    A: Iterator,
    B: Iterator<Item = A::Item>,
{
    type Item = A::Item;

    #[inline]
    fn next(&mut self) -> Option<A::Item> {
        match self {
            Either::Stored(a) => a.next(),
            Either::Sorted(b) => b.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Either::Stored(a) => a.size_hint(),
            Either::Sorted(b) => b.size_hint(),
        }
    }

    /// The inner iterator's own `fold`: a query's walks its tables without
    /// a check per item (what `for_each` uses).
    #[inline]
    fn fold<Acc, G>(self, init: Acc, g: G) -> Acc
    where
        G: FnMut(Acc, A::Item) -> Acc,
    {
        match self {
            Either::Stored(a) => a.fold(init, g),
            Either::Sorted(b) => b.fold(init, g),
        }
    }
}

/// Watches unit indices go by, in the order a query yields them: whether
/// they rose all the way (never fell).
#[derive(Debug, Default)]
pub struct Rising {
    last: usize,
    fell: bool,
}

impl Rising {
    /// Sees the next index; false once any index has fallen.
    #[inline]
    pub fn see(&mut self, idx: usize) -> bool {
        self.fell |= idx < self.last;
        self.last = idx;
        !self.fell
    }

    /// Every index seen rose (or there were none).
    pub fn rose(&self) -> bool {
        !self.fell
    }
}

/// Puts units listed (index first) in the order a query yielded them into
/// unit-index order: as they are when the indices rose on the way (checked
/// with `rose`), else sorted. A system then reaches the few it acts on by
/// entity instead of walking them all.
pub fn into_index_order<T>(listed: &mut [(usize, T)], rose: bool) {
    if !rose {
        listed.sort_by_key(|(idx, _)| *idx);
    }
}

/// The items of a unit query in unit-index order, read-only: as stored when
/// `stored` (checked with [`Rising`] on this query), else sorted by index.
#[inline]
pub fn by_index<'a, 's, D, F>(
    query: &'a Query<'_, 's, D, F>,
    stored: bool,
) -> impl Iterator<Item = <D::ReadOnly as bevy_ecs::query::QueryData>::Item<'a, 's>>
where
    D: bevy_ecs::query::QueryData,
    F: QueryFilter,
{
    if stored {
        Either::Stored(query.iter())
    } else {
        Either::Sorted(query.iter().sort_by_key::<&UnitInfo, _>(|info| info.idx()))
    }
}

/// [`by_index`] for writing.
#[inline]
pub fn by_index_mut<'a, 's, D, F>(
    query: &'a mut Query<'_, 's, D, F>,
    stored: bool,
) -> impl Iterator<Item = D::Item<'a, 's>>
where
    D: IterQueryData,
    F: QueryFilter,
{
    if stored {
        Either::Stored(query.iter_mut())
    } else {
        Either::Sorted(
            query
                .iter_mut()
                .sort_by_key::<&UnitInfo, _>(|info| info.idx()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::morale::Morale;
    use crate::sim::movement::{Location, Orders};
    use crate::sim::{Battle, Strength};

    /// A marker a test puts on some units: they move to a table of their own.
    #[derive(Component)]
    struct Marked;

    /// Spawns the battle's units again in reverse index order, the even ones
    /// marked: the queries then meet them neither in one table nor in order.
    fn shuffle_units(battle: &mut Battle) {
        let world = battle.world_mut();
        let mut query =
            world.query::<(Entity, &UnitInfo, &Strength, &Location, &Orders, &Morale)>();
        let mut units: Vec<_> = query
            .iter(world)
            .map(|(entity, info, strength, location, orders, morale)| {
                let parts = (info.clone(), *strength, *location, *orders, morale.clone());
                (entity, parts)
            })
            .collect();
        for (entity, _) in &units {
            world.despawn(*entity);
        }
        units.sort_by_key(|(_, parts)| std::cmp::Reverse(parts.0.idx()));
        for (_, parts) in units {
            let even = parts.0.idx() % 2 == 0;
            let mut entity = world.spawn(parts);
            if even {
                entity.insert(Marked);
            }
        }
    }

    #[test]
    fn the_turn_is_the_same_whatever_order_the_world_holds_its_units_in() {
        // The test scene, its Jin units facing the Ming at the ford (src/
        // names no shipped battle: tests/all/scenes.rs checks it).
        let scene = crate::sim::testing::small_scene(|mut raw| {
            raw.units[1].zone = "ford".into();
            raw.units[2].zone = "north-bank".into();
            raw
        });
        for seed in [1, 2, 3] {
            let mut stored = Battle::new(&scene, seed);
            let mut shuffled = Battle::new(&scene, seed);
            shuffle_units(&mut shuffled);
            let mut query = shuffled.world_mut().query::<&UnitInfo>();
            let indices: Vec<usize> = query.iter(shuffled.world_mut()).map(|i| i.idx()).collect();
            assert!(!indices.is_sorted(), "the test's world is out of order");
            for turn in 0..25 {
                if turn % 4 == 1 {
                    // Cries that run through the units (and the random stream).
                    let cry = crate::scene::Act::Rumor {
                        zone: crate::scene::ZoneId(turn % 4),
                        about: crate::scene::SideId(turn % 2),
                        routed: true,
                        credibility: 0.8,
                    };
                    assert_eq!(stored.act(&cry), shuffled.act(&cry));
                }
                assert_eq!(stored.step(), shuffled.step(), "seed {seed}, turn {turn}");
            }
            assert_eq!(stored.state(), shuffled.state(), "seed {seed}");
        }
    }
}
