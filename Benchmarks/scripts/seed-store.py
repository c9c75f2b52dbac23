#!/usr/bin/env python3
"""Grows a stopped server's SQLite file to USERS users, each with a bound device, and
CHALLENGES challenges, spread over the last 90 days among those users, mostly completed and
expired as the day's traffic leaves them: copies of the rows a short run of sca-bench left
(a user, its device, a completed challenge), with fresh random ids and e-mail addresses, so every
index grows as production would grow it. The audit trail is not grown (its entries are chained,
and a cold start only appends at its end).

    seed-store.py DATABASE USERS CHALLENGES
"""
import sqlite3, sys, time

database, users, challenges = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
db = sqlite3.connect(database)
db.execute("PRAGMA journal_mode = WAL")
db.execute("PRAGMA synchronous = OFF")
db.execute("PRAGMA cache_size = -262144")

def columns(table):
    return [row[1] for row in db.execute("PRAGMA table_info(%s)" % table)]

def copy(table, count, replaced, source, batch=200_000):
    """INSERT count copies of the first row of `source`, with `replaced` column expressions
    (over `n`, the copy's number), in batches of one transaction each."""
    names = columns(table)
    chosen = ", ".join(replaced.get(name, "template." + name) for name in names)
    done = 0
    while done < count:
        size = min(batch, count - done)
        with db:
            db.execute(
                """WITH RECURSIVE numbers(n) AS (SELECT ? UNION ALL SELECT n + 1 FROM numbers WHERE n + 1 < ?),
                       template AS (%s LIMIT 1)
                   INSERT INTO %s (%s) SELECT %s FROM numbers, template"""
                % (source, table, ", ".join(names), chosen), (done, done + size))
        done += size
        print("%s: %d" % (table, done), file=sys.stderr, flush=True)

now = time.time()
start = time.monotonic()
had_users = db.execute("SELECT COUNT(*) FROM users").fetchone()[0]
copy("users", users - had_users, {
    "id": "'seed-' || n",
    "email": "'seed-' || n || '@example.com'",
    "login_phone": "NULL",
    "created_at": "%f - (n %% 7776000)" % now,
}, "SELECT * FROM users")
copy("devices", users - had_users, {
    "id": "lower(hex(randomblob(16)))",
    "user_id": "'seed-' || n",
    "created_at": "%f - (n %% 7776000)" % now,
}, "SELECT * FROM devices")
had = db.execute("SELECT COUNT(*) FROM challenges").fetchone()[0]
# Times run evenly over the 90 days up to now; users taken with a stride, so one user's rows
# lie among everyone else's.
span = 90 * 86_400
copy("challenges", challenges - had, {
    "id": "lower(hex(randomblob(16)))",
    "user_id": "'seed-' || ((n * 7919) %% %d)" % max(1, users - had_users),
    "nonce": "lower(hex(randomblob(32)))",
    "created_at": "%f - %f + n * %f" % (now, span, span / max(1, challenges - had)),
    "expires_at": "%f - %f + n * %f + 300" % (now, span, span / max(1, challenges - had)),
    "completed_at": "%f - %f + n * %f + 2" % (now, span, span / max(1, challenges - had)),
}, "SELECT * FROM challenges WHERE state = 'completed'")
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
counts = [db.execute("SELECT COUNT(*) FROM %s" % t).fetchone()[0] for t in ("users", "devices", "challenges")]
print("seeded in %.0f s: %d users, %d devices, %d challenges" % ((time.monotonic() - start), *counts))
