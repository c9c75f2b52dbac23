#!/usr/bin/env bash
# Latency at one offered rate on a fresh SQLite file, then on the same file grown by GROW_SECONDS
# of that load and reopened by a restarted server: what the size of the database does to the
# tail, apart from what a long-running process does (the soak, half-peak.sh, mixes both).
# With SEED_USERS and SEED_CHALLENGES set, the file is grown instead to that many users (each
# with a device) and challenges by seed-store.py, which copies the rows the fresh part left:
# the size of a bank's store after a quarter, in minutes rather than days of load.
#
#   Benchmarks/scripts/grown-database.sh SCA_SERVER SCA_BENCH FLOW RATE [GROW_SECONDS] [extra SCA_*=value ...]
#
# Prints, for each 60-second measured part (fresh, then grown): the server's CPU ticks and I/O
# counters (/proc/PID/io: syscr, syscw, write_bytes) before and after, and sca-bench's JSON
# report with latency per 10-second window. Concurrency 8.
set -euo pipefail
SERVER=$(realpath "$1"); BENCH=$(realpath "$2"); FLOW=$3; RATE=$4; GROW=${5:-240}
shift 4; shift $(( $# > 0 ? 1 : 0 ))
PORT=${PORT:-18496}; KEY=grown-database-admin-key-0123456789abcdef
DATA=$(mktemp -d)
source "$(dirname "$0")/instances.sh"
run() { "$BENCH" "${URLS[@]}" --admin-key $KEY --mode raw --flow "$FLOW" --rate "$RATE" --concurrency 8 --json "$@" 2>/dev/null | tail -1; }
ticks() { awk '{print $14 + $15}' /proc/${PIDS[0]}/stat; }
io() { awk '/^(syscr|syscw|write_bytes)/ {printf "%s %s ", $1, $2}' /proc/${PIDS[0]}/io; }
measure() {
    local before; before=$(ticks)
    echo "{\"part\": \"$1\", \"io_before\": \"$(io)\"}"
    run --duration 60 --window 10
    echo "{\"part\": \"$1\", \"cpu_ticks\": $(( $(ticks) - before )), \"io_after\": \"$(io)\"}"
}
# SCA_SERVER_KEY is kept for the restart, so the tokens and users made before stay valid.
export SCA_SERVER_KEY=${SCA_SERVER_KEY:-$(head -c 32 /dev/urandom | base64 | tr "+/" "-_" | tr -d "=")}
start_instances "$@"
measure fresh
[ -n "${SEED_USERS:-}" ] || run --duration "$GROW" >/dev/null
for p in "${PIDS[@]}"; do kill -TERM "$p"; wait "$p" 2>/dev/null || true; done
if [ -n "${SEED_USERS:-}" ]; then
    python3 "$(dirname "$0")/seed-store.py" "$DATA/0/sca.sqlite" "$SEED_USERS" "${SEED_CHALLENGES:-0}" 2>/dev/null
    # The seed writes gigabytes without syncing (as a restore would, before it syncs): left in
    # the page cache, the grown server's first checkpoint sync would write them all out and
    # its tail would be the seed's, not the store's.
    sync
fi
echo "{\"part\": \"grown\", \"databaseBytes\": $(stat -c %s "$DATA/0/sca.sqlite")}"
start_instances "$@"
measure grown
