#!/usr/bin/env bash
# benches/greedy_budget.sh BIN [RUNS] [BUDGETS]: what the greedy policy's look-ahead
# budget (`greedy_lookahead` in scenes/rules.ron, default 6) costs and changes. For
# each budget (default "6 4 3 2"), a copy of `scenes/` with that budget, then
# `simulate --policy greedy` of every shipped battle (RUNS games, default 600, seed 7,
# one thread): CPU milliseconds a game (user + system) and the endings' shares, to
# set beside the default's. A budget other than the shipped one changes what greedy
# chooses, and so the greedy reports (a balance decision). Run from the checkout (it
# copies `scenes/`). Not run by CI.
set -eu
bin=$1; runs=${2:-600}; budgets=${3:-"6 4 3 2"}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for la in $budgets; do
  cp -r scenes "$tmp/s$la"
  sed -i -E "s/greedy_lookahead: [0-9.]+,/greedy_lookahead: $la.0,/" "$tmp/s$la/rules.ron"
  grep -q "greedy_lookahead: $la.0," "$tmp/s$la/rules.ron"
done
for sr in false-cry:zhang-chun broken-bridge:huang-taiji sarhu:nurhaci; do
  s=${sr%%:*}; r=${sr##*:}
  for la in $budgets; do
    /usr/bin/time -f '%U %S' -o "$tmp/time" "$bin" simulate --scenes "$tmp/s$la" \
      --scene "$s" --role "$r" --policy greedy --runs "$runs" --seed 7 --threads 1 \
      > "$tmp/out" 2>/dev/null
    ms=$(awk -v n="$runs" '{ printf "%.2f", ($1 + $2) * 1000 / n }' "$tmp/time")
    shares=$(awk '/^endings:/ { on = 1; next } /^[a-z]/ { on = 0 }
      on { printf "%s %s  ", $1, $3 }' "$tmp/out")
    echo "$s lookahead $la: $ms ms a game; $shares"
  done
done
