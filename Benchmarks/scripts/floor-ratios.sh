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
INSTANCES=${INSTANCES:-1}; PORT=${PORT:-18482}; KEY=floor-admin-key-0123456789abcdef
DATA=$(mktemp -d); PIDS=(); URLS=()
# One key for all instances (32 random bytes, base64url), as a PostgreSQL deployment needs.
SERVER_KEY=${SCA_SERVER_KEY:-$(head -c 32 /dev/urandom | base64 | tr "+/" "-_" | tr -d "=")}
trap 'for p in "${PIDS[@]}"; do kill -TERM $p 2>/dev/null; wait $p 2>/dev/null; done; rm -rf "$DATA"' EXIT
for i in $(seq 0 $((INSTANCES - 1))); do
    mkdir -p "$DATA/$i"
    env SCA_ADMIN_KEY=$KEY SCA_PORT=$((PORT + i)) SCA_DATA_DIR="$DATA/$i" SCA_CHALLENGE_LIMITS_PER_CLIENT=off \
        SCA_SERVER_KEY=$SERVER_KEY "$@" \
        "$SERVER" serve >"$DATA/server-$i.log" 2>&1 &
    PIDS+=($!); URLS+=(--server "http://127.0.0.1:$((PORT + i))")
    for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$((PORT + i))/health/live" >/dev/null 2>&1 && break; sleep 0.1; done
done
for flow in challenge cold-start payment; do
    "$BENCH" "${URLS[@]}" --admin-key $KEY --mode raw --floor --flow $flow \
        --duration "$DURATION" --concurrency "$CONCURRENCY" --json 2>/dev/null | tail -1
done
echo "{\"serverRSSKilobytes\": $(awk '/VmRSS/ {print $2}' /proc/${PIDS[0]}/status), \"instances\": $INSTANCES}"
