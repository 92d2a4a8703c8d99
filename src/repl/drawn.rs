//! The drawn map (`map`): the zones laid out in two dimensions from their
//! coordinates (`at: (x, y)`, north at the top), the roads drawn as lines of
//! box-drawing characters only where a zone's `adjacent` makes one, a river
//! across a row made only of crossings, and under the drawing a key that
//! names each place with the label the map prints and what the commander
//! knows is there.
//!
//! The layout (where each zone's box stands, how each road runs) depends
//! only on the field and the room there is, never on the battle's state:
//! it is worked out once per field, language and width and kept
//! ([`plan`]); what is drawn in the boxes is filled in from the view each
//! time. Roads are routed by a shortest-path search on the grid of
//! characters: around the boxes, never along another road (two roads may
//! cross, at a cost), never beside a box they do not lead to, and across a
//! river only through a ford or a bridge.

use super::wrap::width;
use crate::scene::{Locale, Scene};
use std::cell::RefCell;
use std::collections::{BinaryHeap, HashMap};
use std::rc::Rc;

/// The label the map prints for a zone, and which `order` takes: A, B, …,
/// Z, then AA, AB, …
pub fn zone_label(zone: usize) -> String {
    let letter = |i: usize| char::from(b'A' + (i % 26) as u8);
    if zone < 26 {
        letter(zone).to_string()
    } else {
        let hi = zone / 26 - 1;
        format!("{}{}", letter(hi % 26), letter(zone))
    }
}

/// The zone a label names (any case), if any.
pub fn zone_of_label(scene: &Scene, label: &str) -> Option<usize> {
    let upper = label.trim().to_ascii_uppercase();
    if upper.is_empty() || upper.len() > 2 || !upper.bytes().all(|b| b.is_ascii_uppercase()) {
        return None;
    }
    (0..scene.zones().len()).find(|&z| zone_label(z) == upper)
}

const N: u8 = 1;
const E: u8 = 2;
const S: u8 = 4;
const W: u8 = 8;

fn opposite(d: u8) -> u8 {
    match d {
        N => S,
        S => N,
        E => W,
        _ => E,
    }
}

/// The box-drawing character for a cell's connections.
fn road_char(mask: u8) -> char {
    match mask {
        m if m == N | S => '│',
        m if m == E | W => '─',
        m if m == E | S => '┌',
        m if m == W | S => '┐',
        m if m == N | E => '└',
        m if m == N | W => '┘',
        m if m == N | E | S => '├',
        m if m == N | W | S => '┤',
        m if m == E | W | S => '┬',
        m if m == E | W | N => '┴',
        m if m == N | E | S | W => '┼',
        m if m & (N | S) != 0 => '│',
        _ => '─',
    }
}

/// How the boxes are drawn: with names, bracketed without, or bare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// `[A≈ Old mill ★●◆]`: label, kind, name, marks.
    Full,
    /// `[A≈★]`: label, kind and the mark that matters most.
    Compact,
    /// `A≈★`: the same without brackets, for the narrowest fields.
    Bare,
}

/// How each zone's box is laid out and each road runs.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Canvas size in columns and rows.
    pub width: usize,
    pub height: usize,
    /// Per zone: the column and row of its box's first cell, and its width.
    pub boxes: Vec<(usize, usize, usize)>,
    /// Per canvas cell: the roads' connections (N, E, S, W bits).
    pub roads: Vec<u8>,
    /// Canvas rows drawn as a river (≈ where nothing else is).
    pub river_rows: Vec<usize>,
    pub form: Form,
    /// The zones in reading order: north to south, west to east.
    pub order: Vec<usize>,
}

impl Plan {
    pub fn road_at(&self, x: usize, y: usize) -> Option<char> {
        let m = *self.roads.get(y * self.width + x)?;
        (m != 0).then(|| road_char(m))
    }
}

/// A zone's name shortened to `room` columns: whole words while they fit,
/// else cut with "…". English names drop a leading "The".
pub fn short_name(name: &str, room: usize) -> String {
    let name = name.strip_prefix("The ").unwrap_or(name);
    let mut chars = name.chars();
    let name = match chars.next() {
        Some(c) => format!("{}{}", c.to_uppercase(), chars.as_str()),
        None => return String::new(),
    };
    let name = name.as_str();
    if width(name) <= room {
        return name.to_string();
    }
    if room == 0 {
        return String::new();
    }
    let mut out = String::new();
    for word in name.split(' ') {
        let next = if out.is_empty() {
            word.to_string()
        } else {
            format!("{out} {word}")
        };
        if width(&next) > room {
            break;
        }
        out = next;
    }
    // A name cut short does not end on a little word ("Road to the").
    const LITTLE: &[&str] = &[
        "before", "behind", "of", "to", "the", "at", "by", "on", "in", "and", "upstream",
    ];
    while let Some((head, last)) = out.rsplit_once(' ') {
        if !LITTLE.contains(&last.to_lowercase().as_str()) {
            break;
        }
        out = head.to_string();
    }
    // A word or more that is half the room or more: keep it.
    if !out.is_empty() && width(&out) * 2 >= room {
        return out;
    }
    let mut out = String::new();
    for c in name.chars() {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if width(&out) + w + 1 > room {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}

/// The marks a full box holds after its name: the commander, own men, the
/// enemy (smoke and fire shade its brackets).
pub const MARKS: usize = 3;

/// The longest name a full box shows, in columns.
const MAX_NAME: usize = 24;

/// The columns of a full box besides its name: `[`, label, kind, two
/// spaces, the marks, `]`.
fn full_frame(zone: usize) -> usize {
    1 + zone_label(zone).len() + 1 + 2 + MARKS + 1
}

/// The width of a zone's box in a form, its name as long as `room` allows.
fn box_width(scene: &Scene, zone: usize, locale: Locale, form: Form, room: usize) -> usize {
    let label = zone_label(zone).len();
    match form {
        Form::Bare => label + 2,
        Form::Compact => label + 4,
        Form::Full => {
            let name = scene
                .zones()
                .get(zone)
                .map(|z| z.name.get(locale))
                .unwrap_or_default();
            let frame = full_frame(zone);
            let name = short_name(name, room.saturating_sub(frame).min(MAX_NAME));
            frame + width(&name)
        }
    }
}

type Key = (u64, usize, Locale);

thread_local! {
    static PLANS: RefCell<HashMap<Key, Option<Rc<Plan>>>> = RefCell::new(HashMap::new());
}

fn field_key(scene: &Scene, locale: Locale) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    scene.id().hash(&mut h);
    for (z, zone) in scene.zones().iter().enumerate() {
        zone.at.hash(&mut h);
        zone.name.get(locale).hash(&mut h);
        scene.kind_of(z).and_then(|k| k.mark()).hash(&mut h);
        scene.adjacent(z).hash(&mut h);
    }
    h.finish()
}

/// The layout that fits `columns`, the fullest first; None when not even
/// the bare form fits (the caller lists the zones instead).
pub fn plan(scene: &Scene, locale: Locale, columns: usize) -> Option<Rc<Plan>> {
    let key = (field_key(scene, locale), columns, locale);
    if let Some(found) = PLANS.with(|p| p.borrow().get(&key).cloned()) {
        return found;
    }
    let made = make_plan(scene, locale, columns).map(Rc::new);
    PLANS.with(|p| {
        let mut plans = p.borrow_mut();
        if plans.len() > 256 {
            plans.clear();
        }
        plans.insert(key, made.clone());
    });
    made
}

/// The widest the map is drawn, however wide the terminal.
const MAX_WIDTH: usize = 132;

fn make_plan(scene: &Scene, locale: Locale, columns: usize) -> Option<Plan> {
    if scene.zones().is_empty() || scene.zones().len() > 26 * 27 {
        return None;
    }
    let columns = columns.min(MAX_WIDTH);
    // The fullest form that fits: names as long as there is room for.
    let mut tries = Vec::new();
    for gy in [1, 2] {
        for room in [MAX_NAME, 20, 16, 13, 10, 8, 6] {
            tries.push((Form::Full, room, gy));
        }
    }
    for gy in [1, 2, 3] {
        tries.push((Form::Compact, 0, gy));
        tries.push((Form::Bare, 0, gy));
    }
    for (form, room, gy) in tries {
        if let Some(plan) = lay_out(scene, locale, columns, form, room, gy) {
            return Some(plan);
        }
    }
    None
}

/// Lays out the boxes (None if they do not fit) and routes every road
/// (None if one cannot be drawn).
fn lay_out(
    scene: &Scene,
    locale: Locale,
    columns: usize,
    form: Form,
    room: usize,
    gy: usize,
) -> Option<Plan> {
    let zones = scene.zones();
    let gx = if form == Form::Full { 3 } else { 2 };
    let mut xs: Vec<i32> = zones.iter().map(|z| z.at.0).collect();
    xs.sort_unstable();
    xs.dedup();
    let mut ys: Vec<i32> = zones.iter().map(|z| z.at.1).collect();
    ys.sort_unstable_by(|a, b| b.cmp(a));
    ys.dedup();
    let col_of = |x: i32| xs.iter().position(|&v| v == x).unwrap_or(0);
    let row_of = |y: i32| ys.iter().position(|&v| v == y).unwrap_or(0);
    let margin = 1;
    // Two zones in one place: no drawing.
    for (z, zone) in zones.iter().enumerate() {
        if zones.iter().take(z).any(|o| o.at == zone.at) {
            return None;
        }
    }
    let widths: Vec<usize> = (0..zones.len())
        .map(|z| box_width(scene, z, locale, form, room + full_frame(z)))
        .collect();
    // Each column as far west as the boxes of its rows allow.
    let ncols = xs.len();
    let mut col_x = vec![margin; ncols];
    for c in 1..ncols {
        let mut x = col_x[c - 1] + 2;
        for (z, zone) in zones.iter().enumerate() {
            let zc = col_of(zone.at.0);
            if zc >= c {
                continue;
            }
            let shares_row = zones
                .iter()
                .any(|o| col_of(o.at.0) == c && o.at.1 == zone.at.1);
            if shares_row {
                x = x.max(col_x[zc] + widths[z] + gx);
            }
        }
        col_x[c] = x;
    }
    let natural = (0..zones.len())
        .map(|z| col_x[col_of(zones[z].at.0)] + widths[z] + margin)
        .max()
        .unwrap_or(0);
    if natural > columns {
        return None;
    }
    // The room left spread between the columns, up to a comfortable pitch.
    if ncols > 1 {
        let spare = columns - natural;
        let step = (spare / (ncols - 1)).min(12);
        for (c, x) in col_x.iter_mut().enumerate() {
            *x += c * step;
        }
    }
    let width = (0..zones.len())
        .map(|z| col_x[col_of(zones[z].at.0)] + widths[z] + margin)
        .max()
        .unwrap_or(0);
    let boxes: Vec<(usize, usize, usize)> = zones
        .iter()
        .zip(&widths)
        .map(|(zone, &w)| (col_x[col_of(zone.at.0)], row_of(zone.at.1), w))
        .collect();
    let height = 2 * margin + ys.len() + gy * ys.len().saturating_sub(1);
    let row_y = |r: usize| margin + r * (1 + gy);
    let boxes: Vec<(usize, usize, usize)> = boxes
        .iter()
        .zip(&widths)
        .map(|(&(x, r, _), &w)| (x, row_y(r), w))
        .collect();
    let mut order: Vec<usize> = (0..zones.len()).collect();
    order.sort_by_key(|&z| (std::cmp::Reverse(zones[z].at.1), zones[z].at.0, z));
    // Which zone's box covers each cell.
    let mut owner = vec![usize::MAX; width * height];
    for (z, &(bx, by, bw)) in boxes.iter().enumerate() {
        for x in bx..(bx + bw).min(width) {
            owner[by * width + x] = z;
        }
    }
    // A row of crossings only is a river: roads cross it only through them.
    let mut river_rows = Vec::new();
    for (r, &y) in ys.iter().enumerate() {
        if (0..zones.len())
            .filter(|&z| zones[z].at.1 == y)
            .all(|z| scene.kind_of(z).is_some_and(|k| k.is_crossing()))
        {
            river_rows.push(row_y(r));
        }
    }
    let mut blocked = vec![false; width * height];
    for &ry in &river_rows {
        for x in 0..width {
            blocked[ry * width + x] = true;
        }
    }
    let mut roads = vec![0u8; width * height];
    // The roads, each once, the shortest first.
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for a in 0..zones.len() {
        for &b in scene.adjacent(a) {
            if a < b {
                edges.push((a, b));
            }
        }
    }
    edges.sort_by_key(|&(a, b)| {
        let (ax, ay) = (col_of(zones[a].at.0), row_of(zones[a].at.1));
        let (bx, by) = (col_of(zones[b].at.0), row_of(zones[b].at.1));
        (ax.abs_diff(bx) + ay.abs_diff(by), a, b)
    });
    let grid = Grid {
        width,
        height,
        owner: &owner,
        blocked: &blocked,
    };
    for (a, b) in edges {
        let path = grid.route(&roads, a, b, &boxes)?;
        for (cell, mask) in path {
            roads[cell] |= mask;
        }
    }
    Some(Plan {
        width,
        height,
        boxes,
        roads,
        river_rows,
        form,
        order,
    })
}

struct Grid<'a> {
    width: usize,
    height: usize,
    owner: &'a [usize],
    blocked: &'a [bool],
}

#[derive(PartialEq, Eq)]
struct Step {
    cost: u32,
    cell: usize,
    dir: u8,
}

impl Ord for Step {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other
            .cost
            .cmp(&self.cost)
            .then_with(|| other.cell.cmp(&self.cell))
            .then_with(|| other.dir.cmp(&self.dir))
    }
}

impl PartialOrd for Step {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

const STEP: u32 = 2;
const TURN: u32 = 5;
const CROSS: u32 = 60;

fn dir_index(d: u8) -> usize {
    match d {
        N => 0,
        E => 1,
        S => 2,
        _ => 3,
    }
}

impl Grid<'_> {
    fn neighbour(&self, cell: usize, d: u8) -> Option<usize> {
        let (x, y) = (cell % self.width, cell / self.width);
        match d {
            N if y > 0 => Some(cell - self.width),
            S if y + 1 < self.height => Some(cell + self.width),
            W if x > 0 => Some(cell - 1),
            E if x + 1 < self.width => Some(cell + 1),
            _ => None,
        }
    }

    /// A cell a road of `a`–`b` may run through: free of boxes and river,
    /// and not beside (left or right of) a box it does not lead to.
    fn open(&self, cell: usize, a: usize, b: usize) -> bool {
        if self.owner[cell] != usize::MAX || self.blocked[cell] {
            return false;
        }
        for d in [E, W] {
            if let Some(n) = self.neighbour(cell, d) {
                let o = self.owner[n];
                if o != usize::MAX && o != a && o != b {
                    return false;
                }
            }
        }
        true
    }

    /// A cell with a road in it another may cross: free of boxes and
    /// river, not beside a box the crossing road does not lead to.
    fn open_but_road(&self, cell: usize, a: usize, b: usize) -> bool {
        self.open(cell, a, b)
    }

    /// The cells next to zone `z`'s box, each with the direction from it
    /// into the box.
    fn ports(&self, z: usize, boxes: &[(usize, usize, usize)]) -> Vec<(usize, u8, u32)> {
        let (bx, by, bw) = boxes[z];
        let mut out = Vec::new();
        let centre = bx + bw / 2;
        if bx > 0 {
            out.push((by * self.width + bx - 1, E, 0));
        }
        if bx + bw < self.width {
            out.push((by * self.width + bx + bw, W, 0));
        }
        for x in bx..bx + bw {
            let off = x.abs_diff(centre) as u32;
            if by > 0 {
                out.push(((by - 1) * self.width + x, S, off));
            }
            if by + 1 < self.height {
                out.push(((by + 1) * self.width + x, N, off));
            }
        }
        out
    }

    /// The cheapest road from `a` to `b`: each cell with the connections
    /// it adds.
    fn route(
        &self,
        roads: &[u8],
        a: usize,
        b: usize,
        boxes: &[(usize, usize, usize)],
    ) -> Option<Vec<(usize, u8)>> {
        let cells = self.width * self.height;
        let mut best = vec![u32::MAX; cells * 4];
        let mut from: Vec<Option<(usize, u8)>> = vec![None; cells * 4];
        let mut heap = BinaryHeap::new();
        let goal: HashMap<usize, u8> = self
            .ports(b, boxes)
            .into_iter()
            .filter(|&(c, _, _)| roads[c] == 0 && self.open(c, a, b))
            .map(|(c, into, _)| (c, into))
            .collect();
        for (cell, into, off) in self.ports(a, boxes) {
            if roads[cell] != 0 || !self.open(cell, a, b) {
                continue;
            }
            // Leaving the box: moving away from it.
            let dir = opposite(into);
            let k = cell * 4 + dir_index(dir);
            if off < best[k] {
                best[k] = off;
                heap.push(Step {
                    cost: off,
                    cell,
                    dir,
                });
            }
        }
        let mut end: Option<(usize, u8, u32)> = None;
        while let Some(Step { cost, cell, dir }) = heap.pop() {
            if cost > best[cell * 4 + dir_index(dir)] {
                continue;
            }
            if let Some(&into) = goal.get(&cell) {
                let total = cost + if into == dir { 0 } else { TURN };
                if end.is_none_or(|(_, _, c)| total < c) {
                    end = Some((cell, dir, total));
                }
            }
            if end.is_some_and(|(_, _, c)| c <= cost) {
                break;
            }
            for d in [N, E, S, W] {
                if d == opposite(dir) {
                    continue;
                }
                let Some(mut next) = self.neighbour(cell, d) else {
                    continue;
                };
                let mut add = STEP + if d == dir { 0 } else { TURN };
                if roads[next] != 0 {
                    // Another road: crossed straight, never followed.
                    let across = if d == N || d == S { E | W } else { N | S };
                    if roads[next] != across || !self.open_but_road(next, a, b) {
                        continue;
                    }
                    let Some(after) = self.neighbour(next, d) else {
                        continue;
                    };
                    if roads[after] != 0 || !self.open(after, a, b) {
                        continue;
                    }
                    next = after;
                    add += STEP + CROSS;
                } else if !self.open(next, a, b) {
                    continue;
                }
                let k = next * 4 + dir_index(d);
                let c = cost + add;
                if c < best[k] {
                    best[k] = c;
                    from[k] = Some((cell, dir));
                    heap.push(Step {
                        cost: c,
                        cell: next,
                        dir: d,
                    });
                }
            }
        }
        let (cell, dir, _) = end?;
        // Walk back, giving each cell its connections.
        let mut path: Vec<(usize, u8)> = Vec::new();
        let into_b = goal.get(&cell).copied().unwrap_or(dir);
        let mut here = (cell, dir);
        let mut mask = into_b;
        loop {
            let (c, d) = here;
            // Entered moving `d`: the way back is its opposite.
            match from[c * 4 + dir_index(d)] {
                Some(prev) => {
                    mask |= opposite(d);
                    path.push((c, mask));
                    // A crossing jumped over: the crossed cell gets the
                    // straight connection too.
                    let (pc, _) = prev;
                    let mut walk = c;
                    while let Some(back) = self.neighbour(walk, opposite(d)) {
                        if back == pc {
                            break;
                        }
                        path.push((back, d | opposite(d)));
                        walk = back;
                    }
                    mask = d;
                    here = prev;
                }
                None => {
                    // The first cell: it leaves box `a`, whose side is
                    // behind the way it moved first.
                    mask |= opposite(d);
                    path.push((c, mask));
                    break;
                }
            }
        }
        Some(path)
    }
}

use super::catalogue::{self, Ui, ui};
use super::render::View;
use super::wrap::{pad, wrap};
use crate::picture::Bearing;
use crate::scene::Colour;

/// What the commander knows of a zone, as the marks of its box.
struct Marks {
    /// Thick smoke, thin smoke or fire: ▓ ▒ *.
    shade: Option<char>,
    here: bool,
    own: bool,
    /// The enemy: ◆ seen there now, ◇ seen there before, ? nobody sees.
    enemy: Option<char>,
    /// The enemy's side, for his colour.
    enemy_side: Option<usize>,
}

impl View<'_> {
    fn marks(&self, zone: usize) -> Marks {
        let record = self.known.zones.get(zone);
        let rules = &self.field.rules;
        let shade = record.and_then(|r| {
            if r.burning.fire > 0.05 {
                Some('*')
            } else if r.burning.smoke >= rules.smoke_blind {
                Some('▓')
            } else if r.burning.smoke >= rules.smoke_thin {
                Some('▒')
            } else {
                None
            }
        });
        let here = self.known.picture.at == Some(zone) && !self.known.picture.fallen;
        let own = self.owns_zone(zone);
        let mut enemy = None;
        let mut enemy_side = None;
        for side in (0..self.field.n_sides).filter(|&s| s != self.side) {
            for (_, s) in self.enemy_groups(side) {
                if s.zone != zone || s.lost || s.bearing == Bearing::Broken {
                    continue;
                }
                // Seen now by his own eyes or men: a report, a scout's word
                // of this turn, is no sight (the legend's "seen now").
                let now =
                    s.turn == self.known.picture.turn && s.source == crate::picture::Source::Seen;
                if now || enemy.is_none() {
                    enemy = Some(if now { '◆' } else { '◇' });
                    enemy_side = Some(side);
                }
            }
        }
        if enemy.is_none() && !self.sees_zone(zone) && !own {
            enemy = Some('?');
        }
        Marks {
            shade,
            here,
            own,
            enemy,
            enemy_side,
        }
    }

    fn paint_mark(&self, c: char, marks: &Marks) -> String {
        let s = c.to_string();
        match c {
            '★' => self.style.bold(&s),
            '*' => self.style.paint(Colour::Red, &s),
            '▒' | '▓' | '?' => self.style.dim(&s),
            '●' => match self.scene.sides().get(self.side) {
                Some(side) => self.style.paint(side.colour, &s),
                None => s,
            },
            '◆' | '◇' => match marks.enemy_side.and_then(|e| self.scene.sides().get(e)) {
                Some(side) => self.style.paint(side.colour, &s),
                None => s,
            },
            _ => s,
        }
    }

    /// A zone's box as drawn, `w` columns wide.
    fn zone_box(&self, zone: usize, plan: &Plan, w: usize) -> String {
        let l = self.locale;
        let label = zone_label(zone);
        let kind = self
            .field
            .zones
            .get(zone)
            .and_then(|z| z.mark)
            .unwrap_or(' ');
        let marks = self.marks(zone);
        if plan.form != Form::Full {
            // Compact: the label, the kind and the mark that matters most.
            let one = if marks.here {
                Some('★')
            } else {
                marks
                    .enemy
                    .filter(|c| *c != '?')
                    .or(marks.own.then_some('●'))
                    .or(marks.enemy)
                    .or(marks.shade)
            };
            let mark = one.map_or(" ".to_string(), |c| self.paint_mark(c, &marks));
            let text = if plan.form == Form::Compact {
                format!("[{}{kind}{mark}]", self.style.bold(&label))
            } else {
                format!("{}{kind}{mark}", self.style.bold(&label))
            };
            return pad(&text, w);
        }
        let name = self
            .scene
            .zones()
            .get(zone)
            .map(|z| short_name(z.name.get(l), w.saturating_sub(full_frame(zone))))
            .unwrap_or_default();
        let slots = [
            marks.here.then_some('★'),
            marks.own.then_some('●'),
            marks.enemy,
        ];
        let shown: String = slots
            .iter()
            .map(|c| c.map_or(" ".to_string(), |c| self.paint_mark(c, &marks)))
            .collect();
        // Smoke and fire shade the box's sides.
        let (open, close) = match marks.shade {
            Some(c) => {
                let side = self.paint_mark(c, &marks);
                (side.clone(), side)
            }
            None => ("[".to_string(), "]".to_string()),
        };
        let head = format!("{open}{}{kind} {}", self.style.bold(&label), name);
        let tail = format!(" {shown}{close}");
        let room = w.saturating_sub(width(&tail));
        format!("{}{tail}", pad(&head, room))
    }

    /// `map`: the field drawn (see the module's header), then each place by
    /// its label with what is known there, then the legend. Too narrow for
    /// even the compact drawing, the list.
    pub fn map(&self) -> String {
        let columns = self.style.columns;
        let Some(plan) = plan(self.scene, self.locale, columns) else {
            return self.map_list();
        };
        let l = self.locale;
        let mut lines = vec![wrap(&self.whereabouts(), columns, "")];
        lines.push(self.style.dim(ui(l, Ui::NorthUp)));
        // The canvas, row by row.
        let mut canvas: Vec<Vec<Option<String>>> = vec![vec![None; plan.width]; plan.height];
        for (z, &(bx, by, bw)) in plan.boxes.iter().enumerate() {
            if let Some(row) = canvas.get_mut(by) {
                if let Some(cell) = row.get_mut(bx) {
                    *cell = Some(self.zone_box(z, &plan, bw));
                }
                // The box's other cells are covered.
                let end = (bx + bw).min(plan.width);
                for cell in row.iter_mut().take(end).skip(bx + 1) {
                    *cell = Some(String::new());
                }
            }
        }
        let river = self.style.paint(Colour::Cyan, "≈");
        for (y, row) in canvas.iter().enumerate() {
            let mut line = String::new();
            let is_river = plan.river_rows.contains(&y);
            for (x, cell) in row.iter().enumerate() {
                match cell {
                    Some(text) => line.push_str(text),
                    None => match plan.road_at(x, y) {
                        Some(c) => line.push(c),
                        None if is_river && x > 0 && x + 1 < plan.width => line.push_str(&river),
                        None => line.push(' '),
                    },
                }
            }
            let line = line.trim_end().to_string();
            if !super::wrap::strip_ansi(&line).trim().is_empty() {
                lines.push(line);
            }
        }
        // The key: each place by its label, its name whole, what is there.
        let colon = ui(l, Ui::Colon);
        let sep = ui(l, Ui::ItemSep);
        for &z in &plan.order {
            let label = self.style.bold(&zone_label(z));
            let units = self.zone_units_with(z, true);
            let cell = self.zone_cell(z);
            let line = format!("{label} {cell}{colon}{}", units.join(sep));
            lines.push(hang(&line, columns, "  ", "      "));
        }
        lines.extend(self.legend(&plan));
        lines.join("\n")
    }

    /// The legend, packed into lines without breaking an item.
    fn legend(&self, plan: &Plan) -> Vec<String> {
        let l = self.locale;
        let mut items: Vec<String> = catalogue::MapKey::ALL
            .iter()
            .filter(|key| **key != catalogue::MapKey::InABox || plan.form == Form::Full)
            .map(|key| catalogue::map_key(l, *key).to_string())
            .collect();
        // The kinds' marks, after the units' and before the smoke's: one
        // item a mark, said by the first kind that says it.
        let at = catalogue::MapKey::ALL
            .iter()
            .position(|key| *key == catalogue::MapKey::ThinSmoke)
            .unwrap_or(items.len())
            .min(items.len());
        let mut told: Vec<char> = Vec::new();
        let mut kinds = Vec::new();
        for (_, kind) in self.field.rules.zone_kinds.iter() {
            let said = kind.legend.get(l);
            if let Some(mark) = kind.mark()
                && !said.trim().is_empty()
                && !told.contains(&mark)
            {
                told.push(mark);
                kinds.push(format!("{mark} {said}"));
            }
        }
        items.splice(at..at, kinds);
        let gap = ui(l, Ui::LegendGap);
        let mut out = Vec::new();
        let mut line = String::new();
        for item in items {
            let wider = if line.is_empty() {
                item.clone()
            } else {
                format!("{line}{gap}{item}")
            };
            if width(&wider) > self.style.columns && !line.is_empty() {
                out.push(std::mem::take(&mut line));
                line = item;
            } else {
                line = wider;
            }
        }
        if !line.is_empty() {
            out.push(line);
        }
        out.into_iter()
            .map(|line| {
                if width(&line) > self.style.columns {
                    self.style.dim(&wrap(&line, self.style.columns, "  "))
                } else {
                    self.style.dim(&line)
                }
            })
            .collect()
    }
}

/// `text` wrapped with a hanging indent: the first line after `first`,
/// the rest after `rest` (no narrower than `first`).
pub fn hang(text: &str, columns: usize, first: &str, rest: &str) -> String {
    let wrapped = wrap(text, columns, rest);
    let mut lines = wrapped.lines();
    let mut out = match lines.next() {
        Some(line) => format!("{first}{}", line.trim_start()),
        None => return String::new(),
    };
    for line in lines {
        out.push('\n');
        out.push_str(line);
    }
    out
}
