#!/usr/bin/env bash
# Flow rates against the trivial-request floor, each measured in one sca-bench run (raw mode,
# --floor: the same client at the same concurrency first runs GET /health/live for as long).
#
#   Benchmarks/scripts/floor-ratios.sh SCA_SERVER SCA_BENCH [DURATION] [CONCURRENCY] [extra SCA_*=value ...]
#
# Starts SCA_SERVER as its own process on a fresh SQLite directory and prints one JSON report per
# flow (challenge, cold-start, payment): floorRequestsPerSecond, flowsPerSecond, floorRatio,
# latencies and the load average of each part.
set -euo pipefail
SERVER=$(realpath "$1"); BENCH=$(realpath "$2"); DURATION=${3:-10}; CONCURRENCY=${4:-8}; shift 2; shift $(( $# > 0 ? 1 : 0 )); shift $(( $# > 0 ? 1 : 0 ))
DATA=$(mktemp -d); PORT=${PORT:-18482}; KEY=floor-admin-key-0123456789abcdef
env SCA_ADMIN_KEY=$KEY SCA_PORT=$PORT SCA_DATA_DIR="$DATA" SCA_CHALLENGE_LIMITS_PER_CLIENT=off "$@" \
    "$SERVER" serve >"$DATA/server.log" 2>&1 &
PID=$!
trap 'kill -TERM $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$DATA"' EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PORT/health/live" >/dev/null 2>&1 && break; sleep 0.1; done
for flow in challenge cold-start payment; do
    "$BENCH" --server "http://127.0.0.1:$PORT" --admin-key $KEY --mode raw --floor --flow $flow \
        --duration "$DURATION" --concurrency "$CONCURRENCY" --json 2>/dev/null | tail -1
done
echo "{\"serverRSSKilobytes\": $(awk '/VmRSS/ {print $2}' /proc/$PID/status)}"
