#!/usr/bin/env bash
# Latency at one offered rate, the same for every server compared: p50/p90/p99 of a flow paced at
# RATE flows per second (sca-bench --rate), against SCA_SERVER as its own process on a fresh SQLite
# directory. To compare builds or settings at equal load, where "half of each one's peak" would
# offer each a different rate.
#
#   Benchmarks/scripts/fixed-rate.sh SCA_SERVER SCA_BENCH FLOW RATE [SECONDS] [CONCURRENCY] [extra SCA_*=value ...]
#
# e.g. the WAL checkpoint interval: ... cold-start 400 40 8 SCA_SQLITE_CHECKPOINT_INTERVAL=0.25
# Prints sca-bench's JSON report (p50Ms, p90Ms, p99Ms, maxMs, errors, loadAverage).
set -euo pipefail
SERVER=$(realpath "$1"); BENCH=$(realpath "$2"); FLOW=$3; RATE=$4; SECONDS_=${5:-40}; CONCURRENCY=${6:-8}
shift 4; shift $(( $# > 0 ? 1 : 0 )); shift $(( $# > 0 ? 1 : 0 ))
PORT=${PORT:-18495}; KEY=fixed-rate-admin-key-0123456789abcdef
DATA=$(mktemp -d)
source "$(dirname "$0")/instances.sh"
start_instances "$@"
"$BENCH" "${URLS[@]}" --admin-key $KEY --mode raw --flow "$FLOW" --flows 20 --concurrency "$CONCURRENCY" >/dev/null 2>&1
"$BENCH" "${URLS[@]}" --admin-key $KEY --mode raw --flow "$FLOW" --rate "$RATE" --duration "$SECONDS_" \
    --concurrency "$CONCURRENCY" --json 2>/dev/null | tail -1
