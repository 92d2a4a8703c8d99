//! Timings of Simplified → Traditional conversion: loading the dictionaries
//! (once per process), and converting all of a scene's zh-Hans text.
//!
//! No framework, as in `turn.rs`. Run with `cargo bench --bench hant`.

use std::hint::black_box;
use std::time::{Duration, Instant};
use xiaoling::scene::{EMBEDDED_SCENES, hant};

fn report(name: &str, iterations: u32, total: Duration) {
    let per = total / iterations.max(1);
    let (value, unit) = if per.as_micros() >= 10_000 {
        (per.as_secs_f64() * 1e3, "ms")
    } else {
        (per.as_secs_f64() * 1e6, "µs")
    };
    println!("{name:<60} {value:>9.2} {unit}  (mean of {iterations})");
}

/// Every `"zh-Hans": "…"` string of a scene file, unescaped enough to time.
fn simplified_texts(ron: &str) -> Vec<String> {
    let mut texts = Vec::new();
    let mut rest = ron;
    while let Some(at) = rest.find("\"zh-Hans\"") {
        rest = &rest[at + "\"zh-Hans\"".len()..];
        let Some(open) = rest.find('"') else { break };
        let body = &rest[open + 1..];
        let mut text = String::new();
        let mut chars = body.char_indices();
        let mut end = body.len();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((_, escaped)) = chars.next() {
                        text.push(escaped);
                    }
                }
                '"' => {
                    end = i;
                    break;
                }
                c => text.push(c),
            }
        }
        texts.push(text);
        rest = &body[end..];
    }
    texts
}

fn main() {
    let start = Instant::now();
    black_box(hant::to_traditional("张"));
    report(
        "load the dictionaries (first conversion)",
        1,
        start.elapsed(),
    );

    for (file, ron) in EMBEDDED_SCENES {
        let texts = simplified_texts(ron);
        let chars: usize = texts.iter().map(|t| t.chars().count()).sum();
        const ROUNDS: u32 = 50;
        let mut total = Duration::ZERO;
        for _ in 0..ROUNDS {
            let start = Instant::now();
            for text in &texts {
                black_box(hant::to_traditional(black_box(text)));
            }
            total += start.elapsed();
        }
        report(
            &format!("{file}: {} zh-Hans texts, {chars} characters", texts.len()),
            ROUNDS,
            total,
        );
    }
}
