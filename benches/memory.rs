//! Memory per unit (issue 11: at most 1 KB): the bytes a scaled scene and a
//! battle on it hold once loaded and a turn played, and the peak while
//! loading, counted by a global allocator of this bench's own (so the timing
//! benches are not slowed by counting). Prints one line per size.
//!
//! `cargo bench --bench memory` (1k, 10k, 100k units); add `-- 1000000` for
//! a million (about a minute and a few GiB).

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use xiaoling::sim::Battle;

/// The system allocator, counting the bytes live now and at the peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed to the system allocator unchanged; the
// counters are only arithmetic beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is the system allocator's.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        ptr
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn main() {
    let mut sizes = vec![1_000, 10_000, 100_000];
    sizes.extend(
        std::env::args()
            .skip(1)
            .filter_map(|arg| arg.parse::<usize>().ok()),
    );
    let rules = common::rules();
    for units in sizes {
        let before = LIVE.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        let source = common::scaled_source(units);
        let source_bytes = source.len();
        let from_text = LIVE.load(Ordering::Relaxed);
        let scene = xiaoling::scene::parse_scene("scaled.ron", &source, &rules).ok();
        drop(source);
        let with_scene = LIVE.load(Ordering::Relaxed);
        let mut battle = scene.as_ref().map(|scene| Battle::new(scene, 1));
        if let Some(battle) = &mut battle {
            battle.step();
        }
        let held = LIVE.load(Ordering::Relaxed).saturating_sub(before);
        let in_scene = with_scene.saturating_sub(before);
        let peak = PEAK.load(Ordering::Relaxed).saturating_sub(from_text);
        println!(
            "{units:>9} units: {:>5} bytes per unit held (scene {} + battle after a turn {}), \
             {:>5} at the peak of loading (besides the {:.0} bytes of RON text per unit)",
            held / units,
            in_scene / units,
            held.saturating_sub(in_scene) / units,
            peak / units,
            source_bytes as f64 / units as f64,
        );
        std::hint::black_box((scene, battle));
    }
}
