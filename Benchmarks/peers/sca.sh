#!/usr/bin/env bash
# sca-server's CPU per TOTP login, per TOTP proof step and per trivial request, read from the
# kernel's accounting of its process, with the load generator that measures privacyIDEA
# (loadgen.py), so that the client side of both figures is the same code.
#
#   Benchmarks/peers/sca.sh SCA_SERVER [LOGINS] [TOTP_STEPS] [CONCURRENCY] [extra SCA_*=value ...]
#
# Starts SCA_SERVER (a release build) as instances.sh starts it for the other benchmarks: a fresh
# SQLite directory, an admin key, no per-client challenge budget, production defaults otherwise
# (scrypt logN 15, r 8, p 1 unless an extra SCA_SCRYPT_LOG_N=… says otherwise). Creates users with
# a password and a TOTP seed through the admin API, then prints one line per figure:
#   health      GET /health/live (kept-alive connections; and once more with a new connection per
#               request, as privacyIDEA's gunicorn sync workers serve them)
#   totp step   the proof request that carries the TOTP code and completes the login (issues the
#               tokens); the challenge and the password proof of each login are made before the
#               measured window: the like-for-like of privacyIDEA's /validate/check
#   login       a whole TOTP login: challenge, password proof (scrypt), TOTP proof
# LOGINS (default 300) and TOTP_STEPS (default 500) are the long runs, each differenced with a run
# of a fifth of it; the TOTP step, a few clock ticks per run, is read over three such pairs.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SERVER=$(realpath "$1"); LOGINS=${2:-300}; STEPS=${3:-500}; CONCURRENCY=${4:-4}
shift; shift $(( $# > 0 ? 1 : 0 )); shift $(( $# > 0 ? 1 : 0 )); shift $(( $# > 0 ? 1 : 0 ))
PORT=${PORT:-18610}; KEY=peers-benchmark-admin-key-0123456789abcdef
DATA=$(mktemp -d /tmp/peers-sca.XXXXXX)
RESULTS=${RESULTS:-$DATA/results.jsonl}
# The TOTP-step run holds one pending login per user (long + short + warm-up); the login runs need
# one user per login per 30-second step (about 20 logins/s at most on 2 cores).
USERS=${USERS:-$(( STEPS + STEPS / 5 + 100 > 700 ? STEPS + STEPS / 5 + 100 : 700 ))}
source "$HERE/../scripts/instances.sh"
start_instances "$@"
P=${PIDS[0]}

python3 "$HERE/loadgen.py" sca-users --base "http://127.0.0.1:$PORT" --admin-key "$KEY" --users "$DATA/users.jsonl" \
    --count "$USERS" --concurrency "$CONCURRENCY"

echo "# sca-server $SERVER, SQLite; settings beyond instances.sh: ${*:-none (scrypt logN 15, r 8, p 1: the default)}; $(date -u +%FT%TZ); $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
LOADGEN=(python3 "$HERE/loadgen.py" measure --base "http://127.0.0.1:$PORT" --server-pid "$P" --concurrency "$CONCURRENCY" --json-out "$RESULTS")
"${LOADGEN[@]}" --label "sca health /health/live" --flow health --path /health/live --count 20000 --warmup 500
# The same with a new connection per request: gunicorn's sync workers close every connection, so
# privacyIDEA's trivial request carries a TCP accept and close that a kept-alive one does not.
"${LOADGEN[@]}" --label "sca health, new connection" --flow health --path /health/live --close --count 10000 --warmup 500
# Logins first: the TOTP-step run spends the current step of nearly every user at once, and logins
# right after it would wait for the next step.
"${LOADGEN[@]}" --label "sca TOTP login" --flow sca-login --users "$DATA/users.jsonl" --count "$LOGINS" --warmup 40
"${LOADGEN[@]}" --label "sca TOTP proof step" --flow sca-totp --users "$DATA/users.jsonl" --count "$STEPS" --warmup 40 --repeat 3
python3 "$HERE/units.py" "$RESULTS" "sca health /health/live"
