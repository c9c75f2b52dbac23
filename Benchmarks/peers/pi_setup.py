"""Sets up a privacyIDEA database for the CPU comparison: an SQL user store (its own SQLite file),
a realm over it as the default realm, and one TOTP token per user, written through privacyIDEA's
own library as `pi-manage` does, so the server being measured starts from an ordinary state.

    PRIVACYIDEA_CONFIGFILE=pi.cfg python pi_setup.py USERS_DB USERS_JSONL COUNT PREFIX PIN

Writes one JSON line per user ({"user", "pin", "seed"}: seed in hex) for the load generator.
PIN "" enrolls the tokens without a PIN. Run it again with another PREFIX to add users.
"""
import json
import os
import secrets
import sqlite3
import sys

from privacyidea.app import create_app
from privacyidea.lib.realm import get_realms, set_default_realm, set_realm
from privacyidea.lib.resolver import get_resolver_list, save_resolver
from privacyidea.lib.token import init_token
from privacyidea.lib.user import User

users_db, users_jsonl, count, prefix, pin = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]

# The user store: a table privacyIDEA's SQL resolver reads, as a deployment's own user database.
db = sqlite3.connect(users_db)
db.execute("CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY, username TEXT UNIQUE NOT NULL, email TEXT)")
names = ["%s%05d" % (prefix, i) for i in range(count)]
db.executemany("INSERT INTO users (username, email) VALUES (?, ?)", [(n, n + "@example.com") for n in names])
db.commit()
db.close()

app = create_app("production", config_file=os.environ["PRIVACYIDEA_CONFIGFILE"], silent=True)
with app.test_request_context():
    if "benchusers" not in get_resolver_list():
        save_resolver({
            "resolver": "benchusers", "type": "sqlresolver", "Driver": "sqlite", "Database": os.path.abspath(users_db),
            "Table": "users", "Map": json.dumps({"userid": "id", "username": "username", "email": "email"}),
            "Editable": 0,
        })
    if "bench" not in get_realms():
        set_realm("bench", [{"name": "benchusers"}])
        set_default_realm("bench")
    with open(users_jsonl, "a") as out:
        for name in names:
            seed = secrets.token_hex(20)  # 160 bits, as an authenticator app's SHA-1 seed
            params = {"type": "totp", "otpkey": seed, "otplen": 6, "timeStep": 30, "hashlib": "sha1",
                      "serial": "TOTP-" + name}
            if pin:
                params["pin"] = pin
            init_token(params, user=User(name, "bench"))
            out.write(json.dumps({"user": name, "pin": pin, "seed": seed}) + "\n")
print("enrolled %d TOTP tokens (%s, %s)" % (count, prefix, "PIN" if pin else "no PIN"))
