#!/usr/bin/env bash
# Instructions the load generator itself executes per request or flow: sca-bench in raw mode
# under callgrind, against a release server running normally. The client shares the machine
# with the server, so its cost is part of every ratio to the floor.
#
#   Benchmarks/scripts/callgrind-client.sh SCA_SERVER SCA_BENCH [OUT_DIR]
#
# For each flow, two runs of 5 and 55 flows per client (4 clients): (Ir of the long run − Ir of
# the short one) ÷ 200 is the client's cost of one flow, setup (users, device keys) cancelled.
set -euo pipefail
SERVER=$(realpath "$1"); BENCH=$(realpath "$2"); OUT=${3:-/tmp/sca-callgrind-client}
mkdir -p "$OUT"; rm -rf "$OUT/data"; rm -f "$OUT"/callgrind.*
PORT=${PORT:-18491}; KEY=callgrind-admin-key-0123456789abcdef
# The same work-arounds as callgrind-per-request.sh: no debug sections, the sigsuspend shim.
objcopy --strip-debug "$BENCH" "$OUT/sca-bench.nodebug"
cc -shared -fPIC -O2 -o "$OUT/sigsuspend-shim.so" "$(dirname "$0")/sigsuspend-shim.c"
env -i PATH="$PATH" HOME="$HOME" SCA_ADMIN_KEY=$KEY SCA_PORT=$PORT SCA_DATA_DIR="$OUT/data" \
    SCA_CHALLENGE_LIMITS_PER_CLIENT=off "$SERVER" serve >"$OUT/server.log" 2>&1 &
SERVER_PID=$!
trap 'kill -TERM $SERVER_PID 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PORT/health/live" >/dev/null 2>&1 && break; sleep 0.2; done
run() { # FLOW FLOWS_PER_CLIENT: the run's Ir total
    LD_PRELOAD="$OUT/sigsuspend-shim.so" valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.$1.$2" \
        "$OUT/sca-bench.nodebug" --server "http://127.0.0.1:$PORT" --admin-key $KEY --mode raw --concurrency 4 \
        --flow "$1" --flows "$2" >/dev/null 2>>"$OUT/bench.log"
    awk '/^(summary|totals):/ { print $2; exit }' "$OUT/callgrind.$1.$2"
}
for flow in ${FLOWS:-health challenge cold-start payment}; do
    short=$(run "$flow" 5); long=$(run "$flow" 55)
    echo "client $flow $(( (long - short) / 200 )) Ir per flow (short run $short, long run $long)"
done
