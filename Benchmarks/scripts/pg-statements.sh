#!/usr/bin/env bash
# Statements (= round trips: PostgresNIO sends each statement and waits for its answer) the
# PostgreSQL store makes per request, load-independently: one client, one flow at a time.
#
#   Benchmarks/scripts/pg-statements.sh SCA_SERVER SCA_BENCH PGLOG [ADMIN_DB_URL_BASE]
#
# Creates a fresh database (sca_pgfold_count by default, DB=… to change) with
# `log_statement = 'all'` set on it alone, starts SCA_SERVER on it, runs sca-bench raw mode with
# one client for each flow (challenge, cold-start; FLOWS="… payment" to choose) and prints the statements of the last whole
# flow, as the server log PGLOG (the cluster's stderr log) shows them, one line each: the
# requests are told apart by the challenge insert that opens each flow. The setting and the
# setting is reset afterwards; the database is kept for a look.
set -euo pipefail
SERVER=$(realpath "$1"); BENCH=$(realpath "$2"); PGLOG=$3
DB=${DB:-sca_pgfold_count}; PGHOST=${PGHOST:-127.0.0.1}; PGPORT=${PGPORT:-55432}
PORT=${PORT:-18492}; KEY=floor-admin-key-0123456789abcdef
DATA=$(mktemp -d)
# One server key for the restarts below (the database keeps the signing key sealed with it).
export SCA_SERVER_KEY=${SCA_SERVER_KEY:-$(head -c 32 /dev/urandom | base64 | tr "+/" "-_" | tr -d "=")}
dropdb -h "$PGHOST" -p "$PGPORT" -U postgres --if-exists "$DB"
createdb -h "$PGHOST" -p "$PGPORT" -U postgres "$DB"
source "$(dirname "$0")/instances.sh"
start_instances SCA_DATABASE_URL="postgres://postgres@$PGHOST:$PGPORT/$DB?sslmode=disable"
psql -h "$PGHOST" -p "$PGPORT" -U postgres -qc "ALTER DATABASE $DB SET log_statement = 'all'"
for flow in ${FLOWS:-challenge cold-start}; do
    # New connections pick the setting up: restart the server's pool by restarting the server.
    for p in "${PIDS[@]}"; do kill -TERM $p; wait $p 2>/dev/null || true; done
    start_instances SCA_DATABASE_URL="postgres://postgres@$PGHOST:$PGPORT/$DB?sslmode=disable"
    FROM=$(wc -c <"$PGLOG")
    "$BENCH" "${URLS[@]}" --admin-key $KEY --mode raw --flow $flow --duration 2 --concurrency 1 --json 2>/dev/null | tail -1 \
        | grep -o '"flows" *: *[0-9]*\|"completedFlows" *: *[0-9]*' || true
    echo "== $flow: statements of the last whole flow (pid: statement)"
    tail -c +$((FROM + 1)) "$PGLOG" | awk '
        /LOG:  (statement|execute [^:]*): / {
            pid = $4; sub(/^.*LOG:  (statement|execute [^:]*): /, ""); text = $0
            gsub(/[ \t]+/, " ", text)
            n++; pids[n] = pid; stmt[n] = substr(text, 1, 110)
        }
        END {
            # flows start at the challenge insert; print the statements between the last two
            last = 0; prev = 0
            for (i = 1; i <= n; i++) if (stmt[i] ~ /INSERT INTO challenges/) { prev = last; last = i }
            count = 0
            for (i = prev; i < last; i++) {
                # the health probe, and the background services (outbox, consent expiry) that
                # run on their own clock, not per request
                if (stmt[i] ~ /^SELECT 1$|FROM consents WHERE status|webhook_deliveries|FROM operations WHERE status/) {
                    print "  (background) " pids[i] ": " stmt[i]; continue
                }
                print "  " pids[i] ": " stmt[i]; count++
            }
            print "  total: " count " statements (round trips), the next challenge'"'"'s reads included"
        }'
done
psql -h "$PGHOST" -p "$PGPORT" -U postgres -qc "ALTER DATABASE $DB RESET log_statement"
