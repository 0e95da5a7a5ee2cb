#!/bin/sh
# compare-results.sh OLD NEW [N]: plays every built-in acks2, cavaliers, lotm
# and d20 scenario and the two benchmark scenarios with two simctl binaries
# (seeds 1 and 7, 1 and 2 workers, `run --json`, N encounters, default
# 20,000; and `trace` of encounters 0-2 at seed 7) and reports any output
# that differs, the run's timing lines and the command line aside. Used for
# issue 38 (the referees made faster with byte-identical results).
set -u
old=$1 new=$2 n=${3:-20000}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
scen=$("$old" scenarios | awk '$1 ~ /^(acks2|cavaliers|lotm|d20)\// {print $1}')
scen="$scen $here/scenarios/d20-tactics.yaml $here/scenarios/d20-4v4.yaml"
strip() { grep -v -e '"elapsed_seconds"' -e '"encounters_per_second"' -e '"command"' -e '"cpu_seconds"'; }
bad=0 runs=0
for s in $scen; do
	for seed in 1 7; do
		for w in 1 2; do
			"$old" run "$s" -n "$n" --seed $seed --workers $w --json --quiet | strip >"$tmp/a"
			"$new" run "$s" -n "$n" --seed $seed --workers $w --json --quiet | strip >"$tmp/b"
			runs=$((runs + 1))
			if ! cmp -s "$tmp/a" "$tmp/b" || ! [ -s "$tmp/a" ]; then
				echo "DIFF run $s seed $seed workers $w"; diff "$tmp/a" "$tmp/b" | head -5; bad=$((bad + 1))
			fi
		done
	done
	for e in 0 1 2; do
		"$old" trace "$s" --seed 7 --encounter $e >"$tmp/a" 2>&1
		"$new" trace "$s" --seed 7 --encounter $e >"$tmp/b" 2>&1
		runs=$((runs + 1))
		if ! cmp -s "$tmp/a" "$tmp/b"; then
			echo "DIFF trace $s encounter $e"; diff "$tmp/a" "$tmp/b" | head -5; bad=$((bad + 1))
		fi
	done
done
echo "$runs comparisons, $bad differ"
[ "$bad" -eq 0 ]
