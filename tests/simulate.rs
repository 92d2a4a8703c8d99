//! `simulate` over all cores: the same report, bit for bit, on one thread
//! and on several.

use std::sync::Arc;
use xiaoling::cli::simulate_games;
use xiaoling::story::Policy;

#[test]
fn simulate_reports_the_same_on_one_thread_and_on_four() {
    let scene = xiaoling::scene::load_embedded()
        .expect("scenes")
        .into_iter()
        .find(|s| s.id() == "false-cry")
        .map(Arc::new)
        .expect("false-cry");
    let report = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        pool.install(|| simulate_games(&scene, "zhang-chun", 60, 7, Policy::Random))
            .map(|report| format!("{report:?}"))
            .expect("simulated")
    };
    let one = report(1);
    assert_eq!(one, report(4));
    assert!(one.contains("runs: 60"), "{one}");
}
