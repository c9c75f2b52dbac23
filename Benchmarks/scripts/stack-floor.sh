#!/usr/bin/env bash
# What the stack alone costs for a challenge, beside what sca-server costs: server CPU per
# `POST /v1/challenges` in units of the same server's CPU per `GET /health/live`, for sca-server
# and for stack-floor (Benchmarks/floor: Hummingbird, GRDB and SQLite doing the least a challenge
# needs, the same eight pages per commit), read from the kernel's accounting as cpu-per-flow.sh
# does, the load from wrk (Debian's `wrk`), one process at a time, alternately.
#
#   Benchmarks/scripts/stack-floor.sh SCA_SERVER SCA_BENCH [SECONDS] [CONNECTIONS] [ROUNDS]
#
# stack-floor is built here in release mode into .build-floor (beside Benchmarks/floor's own
# Package.swift; a first build takes a few minutes). SCA_BENCH makes sca-server's user and
# device (one raw challenge flow with --devices), whose ids the challenge body names; stack-floor
# makes its own at start. Prints one line per server and round:
#   <server> health <ms>/request  challenge <ms>/request  ratio <challenge ÷ health>  ctxsw <per challenge>
# and for stack-floor one more, its challenge's steps in the same units: the body collected and
# decoded and the answer written (`POST /floor/decode`), then with the read (`POST /floor/read`).
set -euo pipefail
SERVER=$(realpath "$1"); BENCH=$(realpath "$2"); SECONDS_EACH=${3:-10}; CONNECTIONS=${4:-8}; ROUNDS=${5:-2}
HERE=$(cd "$(dirname "$0")/.." && pwd)
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 1; }
(cd "$HERE/floor" && swift build -c release --scratch-path "$HERE/floor/.build-floor" >/dev/null)
FLOOR="$HERE/floor/.build-floor/release/stack-floor"
PORT=${PORT:-18496}; KEY=stack-floor-admin-key-0123456789abcdef
WORK=$(mktemp -d)
P=""
trap '[ -n "$P" ] && kill $P 2>/dev/null; rm -rf "$WORK"' EXIT
TICK=$(getconf CLK_TCK)

wait_live() { for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$PORT/health/live" >/dev/null 2>&1 && return; sleep 0.1; done; echo "no answer on $PORT" >&2; exit 1; }
ticks() { awk '{print $14 + $15}' /proc/$P/stat; }
switches() { cat /proc/$P/task/*/status | awk '/ctxt_switches/ {s += $2} END {print s}'; }
# wrk for SECONDS; prints "<requests> <server ticks> <server context switches>". Any non-2xx answer fails the run.
load() { # PATH [LUA]
    local out t0 t1 x0 x1 script=()
    [ -n "${2:-}" ] && script=(-s "$2")
    t0=$(ticks); x0=$(switches)
    out=$(wrk -t1 -c"$CONNECTIONS" -d"${SECONDS_EACH}s" "${script[@]}" "http://127.0.0.1:$PORT$1")
    t1=$(ticks); x1=$(switches)
    if grep -q "Non-2xx" <<<"$out"; then echo "$out" >&2; exit 1; fi
    echo "$(awk '/requests in/ {print $1}' <<<"$out") $((t1 - t0)) $((x1 - x0))"
}
post_script() { # BODY -> a wrk script that POSTs it
    cat >"$WORK/post.lua" <<LUA
wrk.method = "POST"
wrk.body = '$1'
wrk.headers["Content-Type"] = "application/json"
LUA
    echo "$WORK/post.lua"
}
ms_per_request() { python3 -c 'import sys; n, t, x = map(float, sys.argv[2:]); print(t * 1000 / float(sys.argv[1]) / n)' "$TICK" $1; }
measure() { # NAME BODY [steps]
    local lua health challenge h c decode read
    lua=$(post_script "$2")
    load /health/live >/dev/null; load /v1/challenges "$lua" >/dev/null   # warm-up
    health=$(load /health/live); challenge=$(load /v1/challenges "$lua")
    h=$(ms_per_request "$health"); c=$(ms_per_request "$challenge")
    python3 -c '
import sys
name, h, c, n, x = sys.argv[1], *map(float, sys.argv[2:])
print("%-11s health %.3f ms/request  challenge %.3f ms/request  ratio %.2f  ctxsw %.1f/challenge" % (name, h, c, c / h, x / n))
' "$1" "$h" "$c" $(awk '{print $1, $3}' <<<"$challenge")
    [ -n "${3:-}" ] || return 0
    decode=$(ms_per_request "$(load /floor/decode "$lua")"); read=$(ms_per_request "$(load /floor/read "$lua")")
    python3 -c '
import sys
h, d, r, c = map(float, sys.argv[1:])
print("            its steps, in its own trivial requests: decoded and answered %.2f, with the read %.2f, with the write %.2f" % (d / h, r / h, c / h))
' "$h" "$decode" "$read" "$c"
}

for round in $(seq 1 "$ROUNDS"); do
    rm -rf "$WORK/sca" && mkdir -p "$WORK/sca"
    env -i PATH="$PATH" HOME="$HOME" SCA_ADMIN_KEY=$KEY SCA_PORT=$PORT SCA_DATA_DIR="$WORK/sca" \
        SCA_CHALLENGE_LIMITS_PER_CLIENT=off "$SERVER" serve >"$WORK/sca.log" 2>&1 &
    P=$!; wait_live
    "$BENCH" --server "http://127.0.0.1:$PORT" --admin-key $KEY --mode raw --flow challenge --flows 1 \
        --concurrency 1 --devices "$WORK/devices.json" >/dev/null 2>&1
    body=$(python3 -c '
import json, sys
device = json.load(open(sys.argv[1]))[0]
print(json.dumps({"operation": "login", "user": {"userId": device["userID"]}, "device": {"deviceId": device["deviceID"]}}, separators=(",", ":")))
' "$WORK/devices.json")
    rm -f "$WORK/devices.json"
    measure sca-server "$body"
    kill $P; wait $P 2>/dev/null || true

    rm -rf "$WORK/floor"
    "$FLOOR" "$PORT" "$WORK/floor" >"$WORK/floor.log" 2>&1 &
    P=$!; wait_live
    measure stack-floor '{"operation":"login","user":{"userId":"usr_floor_0"},"device":{"deviceId":"dev_floor_0"}}' steps
    kill $P; wait $P 2>/dev/null || true
    P=""
done
