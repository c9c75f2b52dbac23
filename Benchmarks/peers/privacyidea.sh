#!/usr/bin/env bash
# privacyIDEA 3.14's CPU per accepted TOTP check (/validate/check, user + PIN + code) and per
# trivial request (/healthz/livez), read from the kernel's accounting of its gunicorn master and
# workers, with the load generator that measures sca-server (loadgen.py).
#
#   Benchmarks/peers/privacyidea.sh [CHECKS] [PIN_CHECKS] [CONCURRENCY]
#
# Installs privacyIDEA 3.14 and gunicorn into a venv ($VENV, kept between runs: the versions are
# pinned in requirements-privacyidea.txt), makes a fresh SQLite database in a temporary folder with
# an SQL user store, a default realm and one TOTP token per user (pi_setup.py), runs it under
# gunicorn with 2 sync workers on 127.0.0.1:$PORT, and prints one line per figure:
#   health           GET /healthz/livez, the cheapest route (no database, no signature)
#   check, no PIN    tokens without a PIN: pass is the 6-digit code alone
#   check, PIN       tokens with a 4-digit PIN (privacyIDEA's default otppin: the token PIN),
#                    hashed as 3.14 hashes a PIN by default (argon2, printed below)
# CHECKS (default 400) and PIN_CHECKS (default 100) are the long runs; each is differenced with a
# run of a fifth of it.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CHECKS=${1:-400}; PIN_CHECKS=${2:-100}; CONCURRENCY=${3:-4}
PORT=${PORT:-18600}
VENV=${VENV:-/tmp/peers-privacyidea-venv}
# One user per client per 30-second step: enough users that the pool never runs dry at the rate a
# 2-core machine reaches (no PIN: about 20 checks/s at most; PIN: about 3/s).
NOPIN_USERS=${NOPIN_USERS:-600}; PIN_USERS=${PIN_USERS:-150}
WORK=$(mktemp -d /tmp/peers-privacyidea.XXXXXX)
RESULTS=${RESULTS:-$WORK/results.jsonl}
MASTER=

cleanup() {
    if [ -n "$MASTER" ]; then kill -TERM "$MASTER" 2>/dev/null || true; while kill -0 "$MASTER" 2>/dev/null; do sleep 0.2; done; fi
    [ -n "${KEEP:-}" ] || rm -rf "$WORK"
}
trap cleanup EXIT

if [ ! -x "$VENV/bin/gunicorn" ] || ! "$VENV/bin/pip" freeze 2>/dev/null | grep -qx "privacyIDEA==3.14"; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q --upgrade pip
    "$VENV/bin/pip" install -q -r "$HERE/requirements-privacyidea.txt"
fi

cat >"$WORK/pi.cfg" <<EOF
SQLALCHEMY_DATABASE_URI = 'sqlite:///$WORK/pi.sqlite'
SECRET_KEY = '$(head -c 32 /dev/urandom | base64 | tr -d '/+=')'
PI_PEPPER = '$(head -c 16 /dev/urandom | base64 | tr -d '/+=')'
PI_ENCFILE = '$WORK/enckey'
PI_AUDIT_KEY_PRIVATE = '$WORK/private.pem'
PI_AUDIT_KEY_PUBLIC = '$WORK/public.pem'
PI_LOGFILE = '$WORK/privacyidea.log'
PI_UUID_FILE = '$WORK/uuid.txt'
SUPERUSER_REALM = ['superuser']
EOF
cat >"$WORK/pi_wsgi.py" <<'EOF'
import os
from privacyidea.app import create_app
application = create_app("production", config_file=os.environ["PRIVACYIDEA_CONFIGFILE"], silent=True)
EOF
export PRIVACYIDEA_CONFIGFILE=$WORK/pi.cfg
cd "$WORK"
"$VENV/bin/pi-manage" setup create_enckey >/dev/null
"$VENV/bin/pi-manage" setup create_audit_keys >/dev/null
"$VENV/bin/pi-manage" setup create_tables >/dev/null 2>&1
"$VENV/bin/python" "$HERE/pi_setup.py" users.sqlite nopin.jsonl "$NOPIN_USERS" n ""
"$VENV/bin/python" "$HERE/pi_setup.py" users.sqlite pin.jsonl "$PIN_USERS" p 4711

# setsid: its own process group, so that nothing here signals anyone else's processes.
setsid "$VENV/bin/gunicorn" --workers 2 --worker-class sync --no-control-socket --bind "127.0.0.1:$PORT" \
    --pid "$WORK/gunicorn.pid" --chdir "$WORK" pi_wsgi:application >"$WORK/gunicorn.log" 2>&1 &
MASTER=$!
for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$PORT/healthz/livez" >/dev/null 2>&1 && break; sleep 0.2; done
# Both workers must be up before the first reading: a worker that boots during a run would add
# its imports to it.
for _ in $(seq 1 300); do [ "$(cat /proc/$MASTER/task/*/children | wc -w)" -ge 2 ] && break; sleep 0.2; done
sleep 2

echo "# privacyIDEA $("$VENV/bin/pip" freeze | grep -i '^privacyidea==' | cut -d= -f3), gunicorn 2 sync workers, SQLite; $(date -u +%FT%TZ); $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# PIN hash: $(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT pin_hash FROM token WHERE length(pin_hash) > 0 LIMIT 1").fetchone()[0].rsplit("$", 2)[0])' pi.sqlite)"
LOADGEN=(python3 "$HERE/loadgen.py" measure --base "http://127.0.0.1:$PORT" --server-pid "$MASTER" --concurrency "$CONCURRENCY" --json-out "$RESULTS")
"${LOADGEN[@]}" --label "pi health /healthz/livez" --flow health --path /healthz/livez --count 4000 --warmup 200
"${LOADGEN[@]}" --label "pi check, no PIN" --flow pi-check --users nopin.jsonl --count "$CHECKS" --warmup 40
"${LOADGEN[@]}" --label "pi check, PIN" --flow pi-check --users pin.jsonl --count "$PIN_CHECKS" --warmup 12
python3 "$HERE/units.py" "$RESULTS" "pi health /healthz/livez"
