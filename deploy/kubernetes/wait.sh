#!/bin/sh
# Waits until a Job is Complete (exit 0) or Failed (exit 1), whichever
# comes first, at most TIMEOUT seconds (default a day; exit 2 then).
# `kubectl wait --for=condition=complete` alone waits out its timeout on a
# Job that failed.
#
#   deploy/kubernetes/wait.sh job/simctl-shards [TIMEOUT]
set -eu
job=${1:?usage: wait.sh job/NAME [TIMEOUT]}
timeout=${2:-86400}
: "${KUBECTL:=kubectl}"
waited=0
while [ "$waited" -lt "$timeout" ]; do
	conds=$("$KUBECTL" get "$job" -o jsonpath='{range .status.conditions[?(@.status=="True")]}{.type}{" "}{end}')
	case " $conds " in
	*" Complete "*) echo "$job: complete"; exit 0 ;;
	*" Failed "*) echo "$job: failed ($conds)" >&2; "$KUBECTL" describe "$job" >&2 || true; exit 1 ;;
	esac
	sleep 10
	waited=$((waited + 10))
done
echo "$job: neither complete nor failed after ${timeout}s" >&2
exit 2
