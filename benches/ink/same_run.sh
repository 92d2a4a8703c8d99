#!/usr/bin/env bash
# Issue 26 item 3 in one run: `xiaoling simulate --threads 1 --policy random` against
# inkjs 2.4 playing battle 1's choice shape at random, in turn (ours, ink, flat ink;
# ours, ...), and the medians' ratios. Builds nothing; not part of `cargo test` or CI.
#
#   (cd benches/ink && npm install)        # once: inkjs 2.4.x into benches/ink/node_modules
#   benches/ink/same_run.sh [BINARY] [ROUNDS]
#
# BINARY: our release binary (default target/release/xiaoling); ROUNDS: 5 unless given.
# Ours: `simulate --scene false-cry --role zhang-chun --policy random --runs 20000
# --seed 7 --threads 1`, games / (user + sys) from /usr/bin/time (the whole process).
# inkjs: `node run.js --games N --seed 7 --warmup 300` on false-cry.ink (the peer: the
# scene's texts and choices with the logic its conditions read, make_story.py) and on
# false-cry-flat.ink (the same texts on one line of four turning points, no logic: a
# bound, the kind of story a peer without the scene's logic would be), N set from a
# first short run to take about as long as ours. Their games a CPU-second of the timed
# games (process.cpuUsage(): the story compiled and 300 games played first, so the JIT
# has warmed up: the peer's best case), and of the whole process from /usr/bin/time
# (node's start, the compile and all N + 300 games).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${1:-$root/target/release/xiaoling}
rounds=${2:-5}
runs=20000
warmup=300

[ -x "$bin" ] || { echo "no binary at $bin" >&2; exit 2; }
command -v node >/dev/null || { echo "node is not installed" >&2; exit 2; }
[ -d "$here/node_modules/inkjs" ] || { echo "inkjs is not installed: (cd $here && npm install)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ours() { # -> games a CPU-second, whole process
    (cd "$root" && /usr/bin/time -f '%U %S' -o "$tmp/t" "$bin" simulate --scene false-cry \
        --role zhang-chun --policy random --runs "$runs" --seed 7 --threads 1 >/dev/null 2>&1)
    awk -v n="$runs" '{ printf "%.0f\n", n / ($1 + $2) }' "$tmp/t"
}

ink() { # $1 story, $2 games -> "timed-games rate" "whole-process rate"
    /usr/bin/time -f '%U %S' -o "$tmp/t" node "$here/run.js" --story "$1" --games "$2" \
        --seed 7 --warmup "$warmup" >"$tmp/o"
    loop=$(sed -n 's/.*s of CPU, \([0-9]*\) games a CPU-second.*/\1/p' "$tmp/o")
    whole=$(awk -v n="$(($2 + warmup))" '{ printf "%.0f\n", n / ($1 + $2) }' "$tmp/t")
    echo "$loop $whole"
}

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# Games for about as much CPU as one of ours, from a rate; at least 100.
games_for() { awk -v o="$1" -v p="$2" -v r="$runs" 'BEGIN { g = int(p * r / o / 100 + 0.5) * 100; print (g < 100) ? 100 : g }'; }

echo "load before: $(uptime | sed 's/.*load average: //')"
first=$(ours)
probe=$(ink false-cry.ink 300 | cut -d' ' -f1)
probe_flat=$(ink false-cry-flat.ink 300 | cut -d' ' -f1)
games=$(games_for "$first" "$probe")
games_flat=$(games_for "$first" "$probe_flat")
echo "a run: ours $runs games; inkjs $games (false-cry.ink), $games_flat (false-cry-flat.ink)"
printf '%-5s %10s %16s %16s\n' round ours 'ink timed/whole' 'flat timed/whole'
for f in a b bw c cw; do : >"$tmp/$f"; done
for i in $(seq 1 "$rounds"); do
    a=$(ours)
    read -r b bw < <(ink false-cry.ink "$games")
    read -r c cw < <(ink false-cry-flat.ink "$games_flat")
    echo "$a" >>"$tmp/a"
    echo "$b" >>"$tmp/b"; echo "$bw" >>"$tmp/bw"
    echo "$c" >>"$tmp/c"; echo "$cw" >>"$tmp/cw"
    printf '%-5s %10s %16s %16s\n' "$i" "$a" "$b / $bw" "$c / $cw"
done
for f in a b bw c cw; do eval "m_$f=\$(median <\"\$tmp/$f\")"; done
echo "load after: $(uptime | sed 's/.*load average: //')"
echo "medians, games a CPU-second: ours $m_a; inkjs false-cry.ink $m_b timed ($m_bw whole)," \
    "false-cry-flat.ink $m_c timed ($m_cw whole)"
awk -v a="$m_a" -v b="$m_b" -v bw="$m_bw" -v c="$m_c" -v cw="$m_cw" 'BEGIN {
    printf "ours / inkjs: %.1fx (false-cry.ink, timed; %.1fx whole), %.1fx (flat, timed; %.1fx whole); the issue asks >= 10x\n",
        a / b, a / bw, a / c, a / cw }'
