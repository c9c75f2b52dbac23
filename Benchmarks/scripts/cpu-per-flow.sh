#!/usr/bin/env bash
# CPU time per request or flow, of the server and of the load generator, read from the kernel's
# accounting (user + system, all threads) rather than from throughput: a shared machine's load
# moves a rate more than it moves the CPU a flow takes.
#
#   Benchmarks/scripts/cpu-per-flow.sh SCA_SERVER SCA_BENCH [FLOWS_PER_CLIENT] [CONCURRENCY] [extra SCA_*=value ...]
#
# Starts SCA_SERVER as its own process on a fresh SQLite directory (instances.sh). For each flow
# of FLOWS (default "health challenge cold-start payment"), prints one line:
#   server ms/flow   the server's CPU over FLOWS_PER_CLIENT × CONCURRENCY flows, ÷ their number
#   ctxsw/flow       the server's context switches (voluntary + involuntary, all threads), ÷ flows
#   client ms/flow   sca-bench's CPU, (a run of FLOWS_PER_CLIENT flows per client − a run of a
#                    fifth of that) ÷ the difference in flows, so that its setup (users, device
#                    keys, the admin calls) cancels out
#   postgres ms/flow with POSTMASTER_PID set (the first line of the cluster's postmaster.pid,
#                    given with SCA_DATABASE_URL=postgres://… to a database of that cluster): the
#                    CPU of the whole cluster over the same flows (the postmaster, its live
#                    processes, and those that ended, which the kernel adds to the postmaster's
#                    children's times), so a server on PostgreSQL is read with its database's
#                    share; other users of the cluster would count too, so give it its own
set -euo pipefail
SERVER=$(realpath "$1"); BENCH=$(realpath "$2"); N=${3:-1000}; CONCURRENCY=${4:-8}
shift 2; shift $(( $# > 0 ? 1 : 0 )); shift $(( $# > 0 ? 1 : 0 ))
PORT=${PORT:-18494}; KEY=cpu-per-flow-admin-key-0123456789abcdef
DATA=$(mktemp -d)
source "$(dirname "$0")/instances.sh"
start_instances "$@"
P=${PIDS[0]}; TICK=$(getconf CLK_TCK)
server_ticks() { awk '{print $14 + $15}' /proc/$P/stat; }
# The cluster's ticks: the postmaster's own and its ended children's, and each live child's.
postgres_ticks() {
    [ -n "${POSTMASTER_PID:-}" ] || { echo 0; return; }
    local total child
    total=$(awk '{print $14 + $15 + $16 + $17}' /proc/$POSTMASTER_PID/stat)
    for child in $(cat /proc/$POSTMASTER_PID/task/*/children); do
        total=$((total + $(awk '{print $14 + $15}' /proc/$child/stat 2>/dev/null || echo 0)))
    done
    echo $total
}
server_switches() { cat /proc/$P/task/*/status | awk '/ctxt_switches/ {s += $2} END {print s}'; }
# The bench's own CPU in ticks: the children's times of this (sub)shell, which waited for it.
bench_ticks() {
    local me=$BASHPID before after
    before=$(awk '{print $16 + $17}' /proc/$me/stat)
    "$BENCH" "${URLS[@]}" --admin-key $KEY --mode raw --flow "$1" --flows "$2" --concurrency "$CONCURRENCY" >/dev/null 2>&1
    after=$(awk '{print $16 + $17}' /proc/$me/stat)
    echo $((after - before))
}
bench_ticks cold-start 20 >/dev/null   # warm-up: first connections, caches, the WAL
SHORT=$(( N / 5 > 0 ? N / 5 : 1 ))
for flow in ${FLOWS:-health challenge cold-start payment}; do
    s0=$(server_ticks); x0=$(server_switches); g0=$(postgres_ticks)
    long=$(bench_ticks "$flow" "$N")
    s1=$(server_ticks); x1=$(server_switches); g1=$(postgres_ticks)
    short=$(bench_ticks "$flow" "$SHORT")
    python3 -c '
import sys
flow, n, short_n, c, tick, s, x, long_t, short_t, g = sys.argv[1], *map(float, sys.argv[2:])
flows = n * c
postgres = "  postgres %.3f ms/flow" % (g * 1000 / tick / flows) if g else ""
print("%-10s server %.3f ms/flow  ctxsw %.1f/flow  client %.3f ms/flow%s" % (
    flow, s * 1000 / tick / flows, x / flows, (long_t - short_t) * 1000 / tick / ((n - short_n) * c), postgres))
' "$flow" "$N" "$SHORT" "$CONCURRENCY" "$TICK" $((s1 - s0)) $((x1 - x0)) "$long" "$short" $((g1 - g0))
done
