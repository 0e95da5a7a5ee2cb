#!/bin/sh
# Compares `simctl run --json` of every d20 scenario (built-in ones and the
# benchmark files) between a reference binary and a new one, at two seeds and
# 1 and 2 workers, with the timing fields removed, and their traces of
# encounters 0, 1 and 5 of seed 1. Issue 38 requires the d20
# referee's rewrite to be byte-identical; this is its end-to-end check.
#
# usage: benchmarks/d20-identical.sh OLD_BINARY NEW_BINARY [N]
set -eu
old=$1 new=$2 n=${3:-20000}
here=$(cd "$(dirname "$0")" && pwd)
scen=$("$old" scenarios | awk '$1 ~ /^d20\// {print $1}')
scen="$scen $here/scenarios/d20-4v4.yaml $here/scenarios/d20-tactics.yaml"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 count=0
for s in $scen; do
  for seed in 1 77; do
    for w in 1 2; do
      for b in old new; do
        eval bin=\$$b
        "$bin" run "$s" -n "$n" --seed "$seed" --workers "$w" --json --quiet |
          grep -v -E '"(elapsed_seconds|encounters_per_second)"' >"$tmp/$b.json"
      done
      count=$((count + 1))
      if ! cmp -s "$tmp/old.json" "$tmp/new.json"; then
        echo "DIFFER: $s seed=$seed workers=$w"
        diff "$tmp/old.json" "$tmp/new.json" | head -20
        fail=1
      fi
    done
  done
done
# Traces (the general referee narrates every encounter, fused or not):
# encounters 0, 1 and 5 of seed 1.
for s in $scen; do
  for e in 0 1 5; do
    "$old" trace "$s" --seed 1 --encounter $e >"$tmp/old.txt" 2>&1 || true
    "$new" trace "$s" --seed 1 --encounter $e >"$tmp/new.txt" 2>&1 || true
    count=$((count + 1))
    if ! cmp -s "$tmp/old.txt" "$tmp/new.txt"; then
      echo "DIFFER: trace $s encounter $e"
      diff "$tmp/old.txt" "$tmp/new.txt" | head -20
      fail=1
    fi
  done
done
if [ $fail = 0 ]; then echo "identical: $count runs and traces"; fi
exit $fail
