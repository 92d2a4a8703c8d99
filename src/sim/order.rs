//! Visiting units in unit-index order without sorting them each time.
//!
//! Systems that draw from the random stream, push chronicle entries or sum
//! floating-point numbers must visit units in unit-index order. The world
//! stores its units that way (they are spawned once, in index order, and
//! written in place afterwards), so a query over them usually yields them in
//! that order already: a system checks it once per run
//! ([`stored_in_order`]) and then iterates the query as it is stored. When the
//! world holds them otherwise (a test that built it by hand, a component added
//! to one unit), the same loops visit them sorted by index instead — slower,
//! the same result.

use super::UnitInfo;
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

/// Whether unit indices, in the order a query yields them, rise.
pub fn stored_in_order(indices: impl Iterator<Item = usize>) -> bool {
    // A fold, not `is_sorted`: a query iterator folds over its tables directly.
    let (sorted, _) = indices.fold((true, 0), |(sorted, last), idx| {
        (sorted && idx >= last, idx)
    });
    sorted
}

/// The items of a unit query in unit-index order, read-only: as stored when
/// `stored` (from [`stored_in_order`] on this query), else sorted by index.
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
        Either::Sorted(query.iter().sort_by_key::<&UnitInfo, _>(|info| info.idx))
    }
}

/// [`by_index`] for writing.
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
                .sort_by_key::<&UnitInfo, _>(|info| info.idx),
        )
    }
}
