#!/usr/bin/env bash
# Instructions the server executes per request or flow, counted by callgrind: stable under load,
# unlike a wall-clock rate on a shared machine.
#
#   Benchmarks/scripts/callgrind-per-request.sh SCA_SERVER SCA_BENCH [OUT_DIR] [extra SCA_*=value ...]
#
# Starts SCA_SERVER (`serve`) under `valgrind --tool=callgrind` on a fresh SQLite directory, warms
# it up with SCA_BENCH in raw mode, then for each of GET /health/live, POST /v1/challenges and a
# cold-start flow (challenge + 2 device-key proofs) runs the client twice, with 5 and 55 flows per
# client (4 clients), zeroing and dumping the counters around each run. Setup (users, devices)
# costs the same in both runs, so (Ir of the long run - Ir of the short one) / 200 is the cost
# of one request or flow alone. Prints one line per operation; the dumps stay in OUT_DIR for
# callgrind_annotate. FLOWS="health challenge cold-start payment" adds the payment (any of
# sca-bench's raw flows may be listed).
set -euo pipefail
SERVER=$(realpath "$1"); BENCH=$(realpath "$2"); OUT=${3:-/tmp/sca-callgrind}; shift 2; shift || true
mkdir -p "$OUT"; rm -rf "$OUT/data"; rm -f "$OUT"/callgrind.out.*
# valgrind 3.19 cannot read the DWARF of a Swift 6 release binary, and crashes on the read-only
# mask libdispatch hands to sigsuspend: run a copy without debug sections, with a shim that
# passes sigsuspend a writable copy of its mask (symbols stay, so profiles keep their names).
objcopy --strip-debug "$SERVER" "$OUT/sca-server.nodebug"
cc -shared -fPIC -O2 -o "$OUT/sigsuspend-shim.so" "$(dirname "$0")/sigsuspend-shim.c"
PORT=${PORT:-18481}
KEY=callgrind-admin-key-0123456789abcdef
# SHORT and LONG (flows per client) may be lowered for a slow (debug) build; the difference is what counts.
CLIENTS=4; SHORT=${SHORT:-5}; LONG=${LONG:-55}
env -i PATH="$PATH" HOME="$HOME" SCA_ADMIN_KEY=$KEY SCA_PORT=$PORT SCA_DATA_DIR="$OUT/data" \
    SCA_CHALLENGE_LIMITS_PER_CLIENT=off LD_PRELOAD="$OUT/sigsuspend-shim.so" "$@" \
    valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.out.%p" "$OUT/sca-server.nodebug" serve >"$OUT/server.log" 2>&1 &
VG=$!
trap 'kill -TERM $VG 2>/dev/null || true' EXIT
for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$PORT/health/live" >/dev/null 2>&1 && break; sleep 1; done
bench() { "$BENCH" --server "http://127.0.0.1:$PORT" --admin-key $KEY --mode raw --concurrency $CLIENTS "$@" >/dev/null 2>>"$OUT/bench.log"; }
# Warm-up: lazy initialisation, statement caches, the connections' first requests.
FLOWS=${FLOWS:-health challenge cold-start}
for flow in $FLOWS; do bench --flow $flow --flows 5; done
total() { # the Ir total of the newest dump
    sleep 1
    local file; file=$(ls -t "$OUT"/callgrind.out.* | head -1)
    awk '/^(summary|totals):/ { print $2; exit }' "$file"
}
for flow in $FLOWS; do
    callgrind_control -z $VG >/dev/null 2>&1; bench --flow $flow --flows $SHORT; callgrind_control -d $VG >/dev/null 2>&1; short=$(total)
    callgrind_control -z $VG >/dev/null 2>&1; bench --flow $flow --flows $LONG; callgrind_control -d $VG >/dev/null 2>&1; long=$(total)
    echo "$flow $(( (long - short) / (CLIENTS * (LONG - SHORT)) )) Ir per flow (short run $short, long run $long)"
done
