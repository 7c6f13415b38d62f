#!/bin/bash
# How games/s grow with CPUs, and what arena's sandbox holds on a host, in one visit.
#
# For each width in $WIDTHS (default 1 2 4 8 16): benchmarks/tournament_speed.py
# with Python and C bots, the tournament against the bare referee floor at the
# same width, with $SCALE deal sets a worker (default 40: 160 games a worker, a
# few seconds a run); then benchmarks/cluster_speed.py on a Dask LocalCluster
# as wide as the widest (--dask local:N against --jobs N); and first of all
# `arena sandbox`, whose attacks say what this host's sandbox contains.
# Each step has a time limit (about 8 minutes in all at 16 CPUs) and writes its lines under $OUT as it ends, so a
# visit cut short still brings back what it measured:
#
#     OUT=/tmp/wide bash benchmarks/wide.sh        # python3 on PATH with arena's needs
#
# Written for the device machine of issue 45 (16 CPUs, its own Python, no
# network): the command that ran it is in benchmarks/README.md, "Wide".
set -u
OUT=${OUT:-/tmp/wide}
WIDTHS=${WIDTHS:-1 2 4 8 16}
SCALE=${SCALE:-40}
PY=${PYTHON:-python3}
mkdir -p "$OUT"
cd "$(dirname "$0")/.."
{
    echo "machine: $(nproc) CPUs, $(uname -srm), $($PY -V 2>&1), $(sed -n 's/^PRETTY_NAME=//p' /etc/os-release)"
    echo "cgroup: $(stat -fc %T /sys/fs/cgroup 2>&1); bwrap: $(command -v bwrap || echo none); uid $(id -u)"
    echo "compiled: $($PY -c 'import arena.referee as r; print(not r.__file__.endswith(".py"))' 2>&1)"
} | tee "$OUT/machine.txt"
make -s -C sample_bots/c 2>&1 | tail -3
timeout 45 $PY -m arena sandbox > "$OUT/sandbox.txt" 2>&1
echo "arena sandbox: exit $?" | tee -a "$OUT/sandbox.txt"
widest=1
for jobs in $WIDTHS; do
    widest=$jobs
    timeout $((45 + 4 * jobs)) $PY benchmarks/tournament_speed.py --jobs "$jobs" --deals $((SCALE * jobs)) \
        --rounds 2 >> "$OUT/scaling.txt" 2>&1
    echo "width $jobs: exit $?" | tee -a "$OUT/scaling.txt"
done
timeout 90 $PY benchmarks/cluster_speed.py --workers "$widest" --deals $((SCALE * widest)) \
    --rounds 1 >> "$OUT/dask.txt" 2>&1
echo "dask local:$widest: exit $?" | tee -a "$OUT/dask.txt"
