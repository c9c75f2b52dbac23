#!/usr/bin/env bash
# Flow rates against the trivial-request floor, each measured in one sca-bench run (raw mode,
# --floor: the same client at the same concurrency first runs GET /health/live for as long).
#
#   Benchmarks/scripts/floor-ratios.sh SCA_SERVER SCA_BENCH [DURATION] [CONCURRENCY] [extra SCA_*=value ...]
#
# Starts SCA_SERVER as its own process on a fresh SQLite directory and prints one JSON report per
# flow (challenge, cold-start, payment): floorRequestsPerSecond, flowsPerSecond, floorRatio,
# latencies and the load average of each part.
#
# With SCA_DATABASE_URL=postgres://… among the extras the server uses that database instead (a
# fresh one: the runs add users); INSTANCES=2 then starts two instances on it (one serverKey)
# and spreads the clients over both, floor included. The RSS printed is the first instance's.
set -euo pipefail
SERVER=$(realpath "$1"); BENCH=$(realpath "$2"); DURATION=${3:-10}; CONCURRENCY=${4:-8}; shift 2; shift $(( $# > 0 ? 1 : 0 )); shift $(( $# > 0 ? 1 : 0 ))
PORT=${PORT:-18482}; KEY=floor-admin-key-0123456789abcdef
DATA=$(mktemp -d)
source "$(dirname "$0")/instances.sh"
start_instances "$@"
for flow in challenge cold-start payment; do
    "$BENCH" "${URLS[@]}" --admin-key $KEY --mode raw --floor --flow $flow \
        --duration "$DURATION" --concurrency "$CONCURRENCY" --json 2>/dev/null | tail -1
done
echo "{\"serverRSSKilobytes\": $(awk '/VmRSS/ {print $2}' /proc/${PIDS[0]}/status), \"instances\": $INSTANCES}"
