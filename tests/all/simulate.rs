//! `simulate` over all cores: the same report, bit for bit, on one thread
//! and on several, with every policy (the greedy one plays look-ahead games
//! of its own in each worker).

use std::sync::Arc;
use xiaoling::simulate::{Policies, simulate_games};
use xiaoling::story::Policy;

use crate::common;

#[test]
fn simulate_reports_the_same_on_one_thread_and_on_four() {
    let scene = common::scene("false-cry");
    let report = |threads: usize, policies: Policies, runs: u32| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        pool.install(|| simulate_games(&scene, "zhang-chun", runs, 7, policies))
            .expect("simulated")
    };
    let random = Policies::both(Policy::Random);
    let one = report(1, random, 60);
    assert_eq!(one, report(4, random, 60));
    assert_eq!(one.runs, 60);
    let greedy = Policies {
        player: Policy::Random,
        other: Policy::Greedy,
    };
    assert_eq!(report(1, greedy, 6), report(4, greedy, 6));
    let _ = Arc::clone(&scene);
}
