#!/usr/bin/env bash
# Peak, then half of peak held for a while, with the server's memory sampled: p99 at half of
# peak load and the 10-minute soak, against servers started here as their own processes.
#
#   Benchmarks/scripts/half-peak.sh SCA_SERVER SCA_BENCH FLOW [HOLD_SECONDS] [CONCURRENCY] [extra SCA_*=value ...]
#
# FLOW is cold-start, payment or challenge. Prints one JSON line per part:
#   {"idleRSSKilobytes": …}                         right after start-up, before any request
#   the peak run (back-to-back flows, 10 s)          sca-bench's report, flowsPerSecond = peak
#   the half-peak run (--rate peak/2, HOLD_SECONDS)  sca-bench's report: its p99Ms is the figure
#   {"rssKilobytes": [[seconds, kB], …]}             every 10 s of the half-peak run
# WINDOW=10 in the environment adds the half-peak run's latency per 10-second window
# (sca-bench --window): when in a long run the tail happened.
#
# SQLite by default, in a fresh directory. With SCA_DATABASE_URL=postgres://… among the extras,
# INSTANCES=2 starts two instances on that database (same serverKey) and spreads the clients
# over both; the memory samples are then the first instance's.
set -euo pipefail
SERVER=$(realpath "$1"); BENCH=$(realpath "$2"); FLOW=$3; HOLD=${4:-30}; CONCURRENCY=${5:-8}
shift 3; shift $(( $# > 0 ? 1 : 0 )); shift $(( $# > 0 ? 1 : 0 ))
PORT=${PORT:-18492}; KEY=half-peak-admin-key-0123456789abcdef
DATA=$(mktemp -d)
source "$(dirname "$0")/instances.sh"
start_instances "$@"
rss() { awk '/VmRSS/ {print $2}' /proc/${PIDS[0]}/status; }
echo "{\"idleRSSKilobytes\": $(rss), \"instances\": $INSTANCES}"
PEAK_LINE=$("$BENCH" "${URLS[@]}" --admin-key $KEY --mode raw --flow "$FLOW" --duration 10 --concurrency "$CONCURRENCY" --json 2>/dev/null | tail -1)
echo "$PEAK_LINE"
HALF=$(python3 -c 'import json,sys; print(round(json.loads(sys.argv[1])["flowsPerSecond"] / 2, 2))' "$PEAK_LINE")
SAMPLES="$DATA/rss"; : >"$SAMPLES"
( start=$(date +%s); while sleep 10; do echo "[$(( $(date +%s) - start )), $(rss)]" >>"$SAMPLES"; done ) &
SAMPLER=$!
"$BENCH" "${URLS[@]}" --admin-key $KEY --mode raw --flow "$FLOW" --rate "$HALF" --duration "$HOLD" --concurrency "$CONCURRENCY" ${WINDOW:+--window "$WINDOW"} --json 2>/dev/null | tail -1
kill $SAMPLER 2>/dev/null; wait $SAMPLER 2>/dev/null || true
echo "{\"rssKilobytes\": [$(paste -sd, "$SAMPLES")]}"
