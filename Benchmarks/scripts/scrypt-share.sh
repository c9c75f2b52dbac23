#!/usr/bin/env bash
# A manual login's rate against its scrypt bound, both measured in the same window: the bound
# (`sca-bench --scrypt-bound`: default-parameter verifications per second with every core
# verifying), then manual logins against SCA_SERVER as its own process (SDK mode, default
# scrypt), then the bound again. The share is logins/s ÷ the mean of the two bounds.
#
#   Benchmarks/scripts/scrypt-share.sh SCA_SERVER SCA_BENCH [DURATION] [CONCURRENCY]
set -euo pipefail
SERVER=$(realpath "$1"); BENCH=$(realpath "$2"); DURATION=${3:-20}; CONCURRENCY=${4:-8}
PORT=${PORT:-18493}; KEY=scrypt-share-admin-key-0123456789abcdef
DATA=$(mktemp -d)
env -i PATH="$PATH" HOME="$HOME" SCA_ADMIN_KEY=$KEY SCA_PORT=$PORT SCA_DATA_DIR="$DATA" \
    SCA_CHALLENGE_LIMITS_PER_CLIENT=off "$SERVER" serve >"$DATA/server.log" 2>&1 &
SERVER_PID=$!
trap 'kill -TERM $SERVER_PID 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PORT/health/live" >/dev/null 2>&1 && break; sleep 0.2; done
BEFORE=$("$BENCH" --scrypt-bound --scrypt default --duration 10 --json | tail -1); echo "$BEFORE"
LOGINS=$("$BENCH" --server "http://127.0.0.1:$PORT" --admin-key $KEY --mode sdk --flow manual \
    --duration "$DURATION" --concurrency "$CONCURRENCY" --json 2>/dev/null | tail -1); echo "$LOGINS"
AFTER=$("$BENCH" --scrypt-bound --scrypt default --duration 10 --json | tail -1); echo "$AFTER"
python3 -c '
import json, sys
before, logins, after = (json.loads(line) for line in sys.argv[1:])
bound = (before["verificationsPerSecond"] + after["verificationsPerSecond"]) / 2
print(json.dumps({"scryptBoundPerSecond": round(bound, 2), "loginsPerSecond": logins["flowsPerSecond"],
                  "shareOfBound": round(logins["flowsPerSecond"] / bound, 3)}))' "$BEFORE" "$LOGINS" "$AFTER"
