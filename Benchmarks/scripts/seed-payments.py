#!/usr/bin/env python3
"""Grows a stopped server's SQLite file by TOTAL authorised payments spread over the last 89
days: every STRIDE-th row belongs to one of the users in DEVICES (sca-bench --devices), in
turn, the others to 100 000 other users, so each bench user's rows lie among other users'
rows as in production. Then recomputes the risk engine's running aggregates from all rows with
the same statements as the step that introduced them, so the server reads them as if each
payment had gone through it.

    seed-payments.py DATABASE DEVICES TOTAL PER_USER
"""
import json, random, sqlite3, sys, time

database, devices, total, per_user = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
users = [device["userID"] for device in json.load(open(devices))]
stride = max(1, total // max(1, per_user * len(users)))
now = time.time()
start, step = now - 89 * 86_400, 89 * 86_400 / max(1, total)
random.seed(7)

def rows():
    for k in range(total):
        at = start + k * step
        mine = k % stride == 0 and k // stride < per_user * len(users)
        user = users[(k // stride) % len(users)] if mine else "seed-user-%d" % random.randrange(100_000)
        amount = random.randrange(100, 50_000)
        yield ("seed-%d" % k, user, at, at, amount, "%d.%02d" % divmod(amount, 100), "EUR", "credit_transfer",
               "seed-payee-%d" % random.randrange(50), "seed-digest-%d" % k,
               "127.0.0.1" if mine else "10.%d.%d.%d" % (random.randrange(256), random.randrange(256), random.randrange(256)))

db = sqlite3.connect(database)
db.execute("PRAGMA journal_mode = WAL")
with db:
    db.executemany(
        """INSERT INTO risk_payments (challenge_id, user_id, created_at, authorised_at, amount_minor, amount, currency,
               payment_type, payee_key, transaction_digest, client_address) VALUES (?,?,?,?,?,?,?,?,?,?,?)""", rows())
    db.executescript("""
        UPDATE risk_payments SET user_count_through = totals.count_through,
            user_sum_through = totals.sum_through, volume_through = totals.volume_through
        FROM (
            SELECT challenge_id,
                COUNT(*) OVER (PARTITION BY user_id ORDER BY authorised_at) AS count_through,
                SUM(amount_minor) OVER (PARTITION BY user_id ORDER BY authorised_at) AS sum_through,
                SUM(CASE WHEN exemption IS NULL OR exemption = 'tra' THEN amount_minor ELSE 0 END)
                    OVER (PARTITION BY payment_type ORDER BY authorised_at) AS volume_through
            FROM risk_payments WHERE authorised_at IS NOT NULL
        ) AS totals
        WHERE risk_payments.challenge_id = totals.challenge_id;
        DELETE FROM risk_user_seen;
        INSERT INTO risk_user_seen (user_id, kind, value, last_at)
            SELECT user_id, 'payee', payee_key, MAX(authorised_at) FROM risk_payments
            WHERE authorised_at IS NOT NULL GROUP BY user_id, payee_key;
        INSERT INTO risk_user_seen (user_id, kind, value, last_at)
            SELECT user_id, 'address', client_address, MAX(authorised_at) FROM risk_payments
            WHERE authorised_at IS NOT NULL AND client_address IS NOT NULL GROUP BY user_id, client_address;
        INSERT INTO risk_user_seen (user_id, kind, value, last_at)
            SELECT user_id, 'any_address', '', MAX(authorised_at) FROM risk_payments
            WHERE authorised_at IS NOT NULL AND client_address IS NOT NULL GROUP BY user_id;
        DELETE FROM risk_user_maxima;
        INSERT INTO risk_user_maxima (user_id, authorised_at, amount_minor)
            SELECT user_id, authorised_at, amount_minor FROM (
                SELECT user_id, authorised_at, amount_minor,
                    MAX(amount_minor) OVER (
                        PARTITION BY user_id ORDER BY authorised_at DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
                    ) AS later_largest
                FROM (
                    SELECT user_id, authorised_at, MAX(amount_minor) AS amount_minor FROM risk_payments
                    WHERE authorised_at IS NOT NULL GROUP BY user_id, authorised_at
                )
            )
            WHERE later_largest IS NULL OR amount_minor > later_largest;
    """)
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
mine = db.execute("SELECT COUNT(*) FROM risk_payments WHERE user_id = ?", (users[0],)).fetchone()[0]
everyone = db.execute("SELECT COUNT(*) FROM risk_payments WHERE authorised_at > ?", (now - 90 * 86_400,)).fetchone()[0]
print("seeded: %d payments in the last 90 days, %d of them the first bench user's" % (everyone, mine))
