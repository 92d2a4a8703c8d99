#!/usr/bin/env bash
# benches/simulate_refs.sh BIN OUTDIR: simulate reports of every shipped battle and
# role (historical, random and greedy policies, fixed seed, one thread) as JSON, to
# compare byte for byte before and after a change that must not change the
# simulation: `diff -r OLD NEW`. Run from the checkout (it reads `scenes/`).
# Not run by CI.
set -eu
bin=$1; out=$2; mkdir -p "$out"
for sr in false-cry:zhang-chun false-cry:huang-taiji broken-bridge:huang-taiji broken-bridge:hong-chengchou sarhu:nurhaci sarhu:du-song; do
  s=${sr%%:*}; r=${sr##*:}
  for p in historical random; do
    "$bin" simulate --scene "$s" --role "$r" --policy $p --runs 200 --seed 7 --json --threads 1 > "$out/$s-$r-$p.json"
  done
  "$bin" simulate --scene "$s" --role "$r" --policy greedy --runs 10 --seed 7 --json --threads 1 > "$out/$s-$r-greedy.json"
done
"$bin" simulate --scene tutorial-skirmish --scenes scenes/examples --role sun-gang --policy random --runs 200 --seed 7 --json --threads 1 > "$out/tutorial-random.json" || true
echo "refs in $out"
