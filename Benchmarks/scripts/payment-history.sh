#!/usr/bin/env bash
# Server CPU per payment as the payers' history and the installation's volume grow: the same 8
# users pay on a fresh SQLite file, then again after the file was grown (seed-payments.py) to
# TOTAL authorised payments in the last 90 days, PER_USER of them each bench user's, their rows
# among other users' rows. Run it with SCA_EXEMPT_TRA=true as well: TRA reads the installation's
# 90-day volume and fraud for every payment.
#
#   Benchmarks/scripts/payment-history.sh SCA_SERVER SCA_BENCH [FLOWS_PER_CLIENT] [TOTAL] [PER_USER] [extra SCA_*=value ...]
#
# Prints one line per part (fresh, grown): server ms per payment and context switches per payment.
set -euo pipefail
SERVER=$(realpath "$1"); BENCH=$(realpath "$2"); N=${3:-400}; TOTAL=${4:-1000000}; PER_USER=${5:-25000}
shift 2; for _ in 1 2 3; do shift $(( $# > 0 ? 1 : 0 )); done
PORT=${PORT:-18497}; KEY=payment-history-admin-key-0123456789abcdef
DATA=$(mktemp -d); DEVICES=$(mktemp -u)
source "$(dirname "$0")/instances.sh"
export SCA_SERVER_KEY=${SCA_SERVER_KEY:-$(head -c 32 /dev/urandom | base64 | tr "+/" "-_" | tr -d "=")}
TICK=$(getconf CLK_TCK)
pay() { "$BENCH" "${URLS[@]}" --admin-key $KEY --mode raw --flow payment --flows "$1" --concurrency 8 --devices "$DEVICES" >/dev/null 2>&1; }
measure() {
    local p=${PIDS[0]} s0 x0 s1 x1
    s0=$(awk '{print $14 + $15}' /proc/$p/stat); x0=$(cat /proc/$p/task/*/status | awk '/ctxt_switches/ {s += $2} END {print s}')
    pay "$N"
    s1=$(awk '{print $14 + $15}' /proc/$p/stat); x1=$(cat /proc/$p/task/*/status | awk '/ctxt_switches/ {s += $2} END {print s}')
    python3 -c 'import sys; part, s, x, n, tick = sys.argv[1], *map(float, sys.argv[2:]); print("%-6s server %.3f ms/payment  ctxsw %.1f/payment" % (part, s * 1000 / tick / n, x / n))' \
        "$1" $((s1 - s0)) $((x1 - x0)) $((N * 8)) "$TICK"
}
start_instances "$@"
pay 20   # the users, their devices, first connections, the WAL
measure fresh
for p in "${PIDS[@]}"; do kill -TERM "$p"; wait "$p" 2>/dev/null || true; done
python3 "$(dirname "$0")/seed-payments.py" "$DATA/0/sca.sqlite" "$DEVICES" "$TOTAL" "$PER_USER"
start_instances "$@"
pay 20
measure grown
rm -f "$DEVICES"
