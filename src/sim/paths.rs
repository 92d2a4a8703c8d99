//! Path searches for the moves: the next zone on a shortest open path to a
//! goal, kept from turn to turn while the field and its open zones stay the
//! same, and on large maps searched from each goal only as far as needed.

use super::fast_hash::FxHashMap as HashMap;
use super::field::Field;

/// Maps with more zones than this search paths outward from each goal only
/// as far as needed ([`Reach`]); smaller ones search the whole map once per
/// goal. The hop chosen is the same either way.
const LOCAL_SEARCH_ZONES: usize = 256;

/// Steps back from a goal through open zones, searched breadth-first and
/// only as far as the units asking stand: [`Field::next_hop_by`] without the
/// whole map's distances.
struct Reach {
    goal: usize,
    dist: HashMap<usize, usize>,
    queue: std::collections::VecDeque<usize>,
}

impl Reach {
    fn new(goal: usize, zones: usize) -> Reach {
        let mut reach = Reach {
            goal,
            dist: HashMap::default(),
            queue: std::collections::VecDeque::new(),
        };
        if goal < zones {
            reach.dist.insert(goal, 0);
            reach.queue.push_back(goal);
        }
        reach
    }

    /// Settles the next zone of the search: its open neighbours found.
    fn expand(&mut self, field: &Field, open: impl Fn(usize) -> bool) {
        let Some(zone) = self.queue.pop_front() else {
            return;
        };
        let here = self.dist.get(&zone).copied().unwrap_or(0);
        for &next in field.neighbours.get(zone).map_or(&[][..], Vec::as_slice) {
            if !self.dist.contains_key(&next) && open(next) {
                self.dist.insert(next, here + 1);
                self.queue.push_back(next);
            }
        }
    }

    /// The neighbour of `from` on a shortest open path to the goal, lowest
    /// index first: what `next_hop_by` gives with the whole map's distances.
    fn next_hop(
        &mut self,
        field: &Field,
        from: usize,
        open: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        if from == self.goal {
            return None;
        }
        // Found `from` at distance d: every zone within d + 1 (all its
        // reachable neighbours) is found once every zone within d is settled.
        // Not found: the search ran out, and every distance is known.
        while !self.dist.contains_key(&from) && !self.queue.is_empty() {
            self.expand(field, &open);
        }
        if let Some(&d) = self.dist.get(&from) {
            while let Some(&front) = self.queue.front() {
                if self.dist.get(&front).copied().unwrap_or(0) > d {
                    break;
                }
                self.expand(field, &open);
            }
        }
        let goal = self.goal;
        field
            .neighbours
            .get(from)?
            .iter()
            .copied()
            .filter_map(|n| Some((*self.dist.get(&n)?, n)))
            .filter(|&(_, n)| open(n) || n == goal)
            .min()
            .map(|(_, n)| n)
    }
}

/// Path searches, kept from turn to turn while the field and its open
/// zones stay the same (paths depend on nothing else).
#[derive(Default)]
pub(super) struct Paths {
    /// The field the searches were made on.
    field: Option<Field>,
    /// Per zone: open (a destroyed crossing is not), as the searches saw it.
    open: Vec<bool>,
    /// Per goal zone: the next hop towards it from every zone. A unit's hop
    /// is looked up, not searched among its zone's neighbours each turn.
    hops_to: Vec<Option<Vec<Option<usize>>>>,
    /// Per goal zone, on maps of more than [`LOCAL_SEARCH_ZONES`]: a search
    /// from the goal only as far as the units asking stand.
    reach_from: HashMap<usize, Reach>,
    /// Steps from a pursuer's zone to every zone, through open zones.
    out_from: HashMap<usize, Vec<usize>>,
}

impl Paths {
    /// Forgets the searches unless they were made on `field` with the same zones open.
    pub(super) fn keep_for(&mut self, field: &Field, open: &[bool]) {
        if self.field.as_ref().is_some_and(|f| f.same(field)) && self.open == open {
            return;
        }
        self.hops_to.clear();
        self.hops_to.resize(field.zones.len(), None);
        self.reach_from.clear();
        self.out_from.clear();
        self.open.clear();
        self.open.extend_from_slice(open);
        self.field = Some(field.clone());
    }

    /// The neighbour of `from` on a shortest open path to `goal`, if any.
    #[inline]
    pub(super) fn next_hop(&mut self, field: &Field, from: usize, goal: usize) -> Option<usize> {
        // Most turns every goal's hops are known: a look-up.
        match self.hops_to.get(goal) {
            Some(Some(hops)) => hops.get(from).copied().flatten(),
            _ => self.search(field, from, goal),
        }
    }

    /// [`Paths::next_hop`] when the goal's hops are not known yet, or the
    /// map is searched only as far as needed.
    #[inline(never)]
    fn search(&mut self, field: &Field, from: usize, goal: usize) -> Option<usize> {
        let Paths {
            open,
            hops_to,
            reach_from,
            ..
        } = self;
        let n = field.zones.len();
        let open = |zone: usize| open.get(zone).copied().unwrap_or(false);
        // On a large map each goal's search goes only as far as its units
        // stand (a whole-map search per goal is quadratic when goals grow
        // with the map).
        if n > LOCAL_SEARCH_ZONES {
            return reach_from
                .entry(goal)
                .or_insert_with(|| Reach::new(goal, n))
                .next_hop(field, from, open);
        }
        let hops = hops_to.get_mut(goal)?.get_or_insert_with(|| {
            let back = field.distances(goal, open);
            (0..n)
                .map(|from| field.next_hop_by(from, goal, &back, open))
                .collect()
        });
        hops.get(from).copied().flatten()
    }

    /// The nearest zone (lowest index first) reachable from `from` that
    /// `wanted` picks.
    pub(super) fn nearest(
        &mut self,
        field: &Field,
        from: usize,
        wanted: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        let Paths { open, out_from, .. } = self;
        let open = |zone: usize| open.get(zone).copied().unwrap_or(false);
        let distance = out_from
            .entry(from)
            .or_insert_with(|| field.distances(from, open));
        (0..field.zones.len())
            .filter(|&z| wanted(z) && distance[z] != usize::MAX)
            .min_by_key(|&z| (distance[z], z))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_from_the_goal_as_far_as_needed_picks_the_whole_maps_hop() {
        // A ladder of lanes, as the scaled benchmarks build: each lane's
        // zones in a row, joined to the next lane's at both ends.
        let scene = crate::sim::testing::small_scene(|mut raw| {
            let base = raw.zones.clone();
            for lane in 1..6 {
                for zone in &base {
                    let mut zone = zone.clone();
                    let id = zone.id.clone();
                    zone.id = format!("{id}-{lane}");
                    zone.adjacent = zone
                        .adjacent
                        .iter()
                        .map(|a| format!("{a}-{lane}"))
                        .collect();
                    if id == "south-bank" || id == "tent" {
                        let before = if lane == 1 {
                            id.clone()
                        } else {
                            format!("{id}-{}", lane - 1)
                        };
                        zone.adjacent.push(before);
                    }
                    raw.zones.push(zone);
                }
            }
            raw
        });
        let field = Field::new(&scene);
        let n = field.zones.len();
        for closed in [None, Some(1), Some(5)] {
            let open = |z: usize| Some(z) != closed;
            for goal in 0..n {
                let mut reach = Reach::new(goal, n);
                for from in (0..n).rev() {
                    assert_eq!(
                        reach.next_hop(&field, from, open),
                        field.next_hop(from, goal, open),
                        "from {from} to {goal}, {closed:?} closed"
                    );
                }
            }
        }
    }
}
