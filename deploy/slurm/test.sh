#!/usr/bin/env bash
# Tests deploy/slurm/simctl-array.sbatch through a real Slurm: starts a
# private single-node cluster (munged, slurmctld, slurmd as root, every
# file under a temp directory, SLURM_CONF pointing at it), submits the
# array with sbatch --wait, merges the shards and checks the merged tally
# is byte for byte that of the same run in one process. Installs Debian's
# slurm-wlm and munge when missing. Must run as root.
#
#   deploy/slurm/test.sh [SHARDS] [N]
set -euo pipefail
cd "$(dirname "$0")/../.."
shards=${1:-4}
n=${2:-200000}

if [ "$(id -u)" != 0 ]; then
	echo "deploy/slurm/test.sh: needs root (the Slurm daemons and munge run as root)" >&2
	exit 2
fi
if ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
	apt-get install -y --no-install-recommends slurm-wlm munge >/dev/null
fi

tmp=$(mktemp -d /tmp/simctl-slurm.XXXXXX)
chmod 0755 "$tmp"
pids=()
cleanup() {
	# By PID from the pid files, never by name: other clusters may run.
	for f in "$tmp"/slurmd.pid "$tmp"/slurmctld.pid "$tmp"/munge/munged.pid; do
		[ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
	done
	sleep 1
	rm -rf "$tmp"
}
trap cleanup EXIT

go build -o "$tmp/simctl" ./cmd/simctl

# Not "$tmp/out": the documented submission names an out/ that does not
# exist yet, and the script must make it.
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool"
chmod 0755 "$tmp/munge"
mungekey --create --keyfile="$tmp/munge/munge.key" --force
chmod 0600 "$tmp/munge/munge.key"
munged --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.socket" \
	--pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" \
	--seed-file="$tmp/munge/munged.seed" --force

host=$(hostname -s)
node=$(slurmd -C | head -1 | sed "s/NodeName=[^ ]*/NodeName=$host/")
export SLURM_CONF="$tmp/slurm.conf"
cat >"$SLURM_CONF" <<CONF
ClusterName=simctl-test
SlurmctldHost=$host(127.0.0.1)
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
MinJobAge=4
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld
slurmd
for _ in $(seq 60); do
	[ "$(sinfo -h -N -o %T 2>/dev/null | head -1)" = idle ] && break
	sleep 0.5
done
if [ "$(sinfo -h -N -o %T | head -1)" != idle ]; then
	echo "deploy/slurm/test.sh: the node never became idle" >&2
	tail -20 "$tmp"/slurmctld.log "$tmp"/slurmd.log >&2
	exit 1
fi

cp deploy/slurm/simctl-array.sbatch "$tmp/"
(cd "$tmp" && sbatch --wait --array=0-$((shards - 1)) \
	--export=ALL,SIMCTL="$tmp/simctl",SIMCTL_N="$n",SIMCTL_SWEEP_N="$((n / 10))",SIMCTL_SHARDS="$shards",SIMCTL_OUT="$tmp/out" \
	"$tmp/simctl-array.sbatch")

"$tmp/simctl" merge --json -o "$tmp/merged.json" "$tmp"/out/run-*.json
"$tmp/simctl" run d20/duel -n "$n" --seed 1 --json -o "$tmp/whole.json"
# The "tally" object of a result, or of each sweep point's result.
tally() { sed -n '/"tally": {/,/^ *}/p' "$1"; }
fail() { echo "deploy/slurm/test.sh: $*" >&2; exit 1; }
[ -n "$(tally "$tmp/merged.json")" ] || fail "no tally in the merged run"
cmp -s <(tally "$tmp/merged.json") <(tally "$tmp/whole.json") ||
	fail "the merged run of $shards Slurm array tasks differs from one process's"

"$tmp/simctl" merge --json -o "$tmp/sweep.json" "$tmp"/out/sweep-*.json
"$tmp/simctl" sweep d20/duel --vary heroes.Fighter.init=0:6:1 -n "$((n / 10))" --seed 1 --format json -o "$tmp/whole-sweep.json"
[ "$(tally "$tmp/sweep.json" | grep -c '"tally"')" = 7 ] || fail "the merged sweep lacks its 7 points' tallies"
cmp -s <(tally "$tmp/sweep.json") <(tally "$tmp/whole-sweep.json") ||
	fail "the merged sweep of $shards Slurm array tasks differs from one process's"
echo "deploy/slurm/test.sh: $shards shards through sbatch merge byte for byte into the single-process run ($n encounters) and sweep (7 points of $((n / 10)))"
