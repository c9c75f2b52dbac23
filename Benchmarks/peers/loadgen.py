#!/usr/bin/env python3
"""One load generator for both servers of the CPU comparison (Python 3 standard library only).

The figure is the server's CPU per accepted request or flow, read from the kernel's accounting
(utime + stime, fields 14 and 15 of /proc/PID/stat, which cover all of a process's threads), summed
over the server process and all its descendants (a gunicorn master and its workers). A run of
COUNT flows and one of COUNT/5 are measured and differenced, so that what a run costs once (new
connections, first requests) cancels out: (cpu_long - cpu_short) / (accepted_long - accepted_short),
summed over --repeat such pairs.
The client's own CPU is not measured: it is the same code against both servers.

Subcommands:
  sca-users   create users with a password and a TOTP seed through sca-server's admin API
  measure     warm up, then the long and the short run of one flow; prints one line per figure

Flows:
  health      GET of the server's cheapest endpoint (--path)
  pi-check    privacyIDEA POST /validate/check, user + pass (token PIN + TOTP code)
  sca-login   sca-server login: POST /v1/challenges, password proof, TOTP proof (token issued)
  sca-totp    sca-server's TOTP proof step alone: challenge and password proof are made before the
              measured window for every login of the run, and only the requests carrying the TOTP
              code (which complete the challenge and issue the token) are counted

TOTP codes are used once in both products: the server refuses a step it has already accepted for
that user, and every older one. A user is therefore used at most once per 30-second step, taken
round-robin from a pool shared by all clients (the one idle longest first). When every user has
had the current step, the client waits for the next one; waits are counted and reported, and a
run with waits is flagged: an idle server still spends a little CPU (timers), which a wait would
add to the run. Size the pool (users) above 30 s x the server's rate to avoid them.
"""
import argparse
import base64
import hashlib
import hmac
import http.client
import json
import os
import queue
import struct
import sys
import threading
import time
import urllib.parse

PERIOD = 30
TICK = os.sysconf("SC_CLK_TCK")


def totp(seed: bytes, step: int) -> str:
    """RFC 6238 with HMAC-SHA1, 6 digits: what an authenticator app shows for `step`."""
    mac = hmac.new(seed, struct.pack(">Q", step), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    return "%06d" % ((struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000)


def current_step() -> int:
    return int(time.time()) // PERIOD


# ---------------------------------------------------------------------------------------------
# The server's CPU from /proc

def descendants(pid: int) -> list:
    """The process and every process below it (gunicorn's master and its workers)."""
    found, frontier = [pid], [pid]
    while frontier:
        parent = frontier.pop()
        try:
            for task in os.listdir("/proc/%d/task" % parent):
                with open("/proc/%d/task/%s/children" % (parent, task)) as f:
                    for child in f.read().split():
                        found.append(int(child))
                        frontier.append(int(child))
        except FileNotFoundError:
            pass
    return found


def process_ticks(pid: int) -> int:
    with open("/proc/%d/stat" % pid) as f:
        # The command name (field 2) may hold spaces: count fields after its closing parenthesis.
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # fields 14 and 15: utime, stime


class ServerCPU:
    def __init__(self, pid: int):
        self.pid = pid
        self.pids = sorted(descendants(pid))

    def ticks(self) -> int:
        pids = sorted(descendants(self.pid))
        if pids != self.pids:
            # A worker that exited took its CPU with it: the reading would be wrong.
            raise SystemExit("server processes changed during the measurement: %s -> %s" % (self.pids, pids))
        return sum(process_ticks(p) for p in pids)


# ---------------------------------------------------------------------------------------------
# HTTP: one connection per client, kept alive where the server keeps it (gunicorn's sync workers
# close it after every answer; http.client then opens a new one for the next request).

class Client:
    def __init__(self, base: str):
        url = urllib.parse.urlsplit(base)
        self.host, self.port = url.hostname, url.port
        self.conn = None

    def request(self, method, path, body=None, headers=None):
        headers = dict(headers or {})
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=120)
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                if response.will_close:
                    self.conn.close()
                    self.conn = None
                return response.status, data
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                # A kept-alive connection the server closed between two requests: retry once on a
                # new one (the request never reached the application).
                self.conn.close()
                self.conn = None
                if attempt:
                    raise

    def json(self, method, path, payload, headers=None):
        headers = dict(headers or {})
        headers["Content-Type"] = "application/json"
        status, data = self.request(method, path, json.dumps(payload).encode(), headers)
        try:
            return status, json.loads(data) if data else None
        except ValueError:
            return status, None


# ---------------------------------------------------------------------------------------------
# Users and the one-code-per-step rule

class Pool:
    """Users taken round-robin; each at most once per TOTP step (the server's replay rule)."""

    def __init__(self, users, state_path=None):
        self.users = users
        self.last = [-1] * len(users)
        self.cursor = 0
        self.lock = threading.Lock()
        self.waits = 0
        self.waited = 0.0
        # The server remembers each user's last step across runs of this program: so must we.
        self.state_path = state_path
        if state_path and os.path.exists(state_path):
            with open(state_path) as f:
                state = json.load(f)
            if len(state["last"]) == len(users):
                self.last, self.cursor = state["last"], state["cursor"]

    def save(self):
        if self.state_path:
            with open(self.state_path, "w") as f:
                json.dump({"last": self.last, "cursor": self.cursor}, f)

    def take(self):
        while True:
            with self.lock:
                step = current_step()
                i = self.cursor
                if self.last[i] < step:
                    self.last[i] = step
                    self.cursor = (i + 1) % len(self.users)
                    return self.users[i], step
                self.waits += 1
            pause = PERIOD - time.time() % PERIOD + 0.05
            self.waited += pause
            time.sleep(pause)


def load_users(path):
    with open(path) as f:
        users = [json.loads(line) for line in f if line.strip()]
    for u in users:
        u["seed_bytes"] = bytes.fromhex(u["seed"])
    return users


# ---------------------------------------------------------------------------------------------
# Flows: each returns "accepted", "rejected" or raises (an error)

class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.accepted = self.rejected = self.errors = 0
        self.first_problems = []

    def add(self, outcome, detail=None):
        with self.lock:
            setattr(self, outcome, getattr(self, outcome) + 1)
            if outcome != "accepted" and len(self.first_problems) < 5:
                self.first_problems.append(detail)


def flow_health(client, args, pool, item):
    # --close: a new connection per request, as gunicorn's sync workers serve every request.
    status, _ = client.request("GET", args.path, headers={"Connection": "close"} if args.close else None)
    return ("accepted", None) if status == 200 else ("errors", "status %d" % status)


def flow_pi_check(client, args, pool, item):
    user, step = pool.take()
    body = urllib.parse.urlencode({"user": user["user"], "pass": user["pin"] + totp(user["seed_bytes"], step)})
    status, data = client.request("POST", "/validate/check", body.encode(),
                                  {"Content-Type": "application/x-www-form-urlencoded"})
    if status != 200:
        return "errors", "status %d %s" % (status, data[:200])
    answer = json.loads(data)
    if answer.get("result", {}).get("value") is True:
        return "accepted", None
    return "rejected", json.dumps(answer.get("detail"))[:200]


def sca_challenge_and_password(client, user):
    status, challenge = client.json("POST", "/v1/challenges", {"operation": "login", "user": {"email": user["email"]}})
    if status != 201 and status != 200:
        return None, "challenge status %d %s" % (status, challenge)
    cid = challenge["challengeId"]
    status, proof = client.json("POST", "/v1/challenges/%s/proofs" % cid, {"method": "password", "credential": user["password"]})
    if status != 200 or proof.get("status") != "partial":
        return None, "password proof status %d %s" % (status, proof)
    return cid, None


def sca_totp_proof(client, cid, code):
    status, proof = client.json("POST", "/v1/challenges/%s/proofs" % cid, {"method": "totp", "credential": code})
    if status == 200 and proof.get("status") == "complete" and proof.get("accessToken"):
        return "accepted", None
    if status >= 500:
        return "errors", "totp proof status %d %s" % (status, proof)
    return "rejected", "totp proof status %d %s" % (status, proof)


def flow_sca_login(client, args, pool, item):
    user, step = pool.take()
    cid, problem = sca_challenge_and_password(client, user)
    if cid is None:
        return "errors", problem
    return sca_totp_proof(client, cid, totp(user["seed_bytes"], step))


def flow_sca_totp(client, args, pool, item):
    # item: (pool index, user, challenge id), prepared before the measured window.
    i, user, cid = item
    step = current_step()
    with pool.lock:
        pool.last[i] = max(pool.last[i], step)  # the step this code spends
    return sca_totp_proof(client, cid, totp(user["seed_bytes"], step))


FLOWS = {"health": flow_health, "pi-check": flow_pi_check, "sca-login": flow_sca_login, "sca-totp": flow_sca_totp}


def drain(base, items, concurrency, handle):
    """Calls handle(client, item) for each of `items` on `concurrency` threads, each with its own
    keep-alive client; handle returns the client to go on with (a new one after a broken
    connection), or None to stop its thread. Returns the wall time."""
    work = queue.Queue()
    for item in items:
        work.put(item)

    def loop():
        client = Client(base)
        while client is not None:
            try:
                item = work.get_nowait()
            except queue.Empty:
                return
            client = handle(client, item)

    threads = [threading.Thread(target=loop) for _ in range(concurrency)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.monotonic() - start


def run(args, pool, flow, count, items=None):
    """COUNT flows over args.concurrency clients; returns the tally and the wall time."""
    tally = Tally()

    def one_flow(client, item):
        try:
            outcome, detail = FLOWS[flow](client, args, pool, item)
        except Exception as e:  # a broken connection or answer: an error, never an acceptance
            outcome, detail = "errors", repr(e)
            client = Client(args.base)
        tally.add(outcome, detail)
        return client

    elapsed = drain(args.base, [items[i] if items else None for i in range(count)], args.concurrency, one_flow)
    return tally, elapsed


def prepare_sca_totp(args, pool, count):
    """Challenges with their password proof, one per user, for the TOTP steps of the next run.

    Users are taken in the pool's order and given the step that will be current when their code
    is typed: a user whose current step is already spent waits for the next step, as in the
    other flows (counted as a wait)."""
    items = []
    lock = threading.Lock()
    picks = queue.Queue()
    for _ in range(count):
        picks.put(None)
    problems = []

    def loop():
        client = Client(args.base)
        while True:
            try:
                picks.get_nowait()
            except queue.Empty:
                return
            with pool.lock:
                i = pool.cursor
                pool.cursor = (i + 1) % len(pool.users)
            user = pool.users[i]
            cid, problem = sca_challenge_and_password(client, user)
            with lock:
                if cid is None:
                    problems.append(problem)
                else:
                    items.append((i, user, cid))

    threads = [threading.Thread(target=loop) for _ in range(args.concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if problems:
        raise SystemExit("preparing the TOTP steps failed: %s" % problems[:3])
    # Every user of the run must still have the step that will be current unspent; a user used
    # in this step already (by the warm-up or the run before) makes the run wait for the next.
    step = current_step()
    if any(pool.last[i] >= step for i, _, _ in items):
        pause = PERIOD - time.time() % PERIOD + 0.05
        pool.waits += 1
        pool.waited += pause
        time.sleep(pause)
    return items


def measure(args):
    cpu = ServerCPU(args.server_pid)
    users = load_users(args.users) if args.users else [None]
    pool = Pool(users, args.users + ".state" if args.users else None)
    short = max(1, args.count // 5)
    if args.flow == "sca-totp" and len(users) < args.count + short:
        raise SystemExit("sca-totp needs at least COUNT + COUNT/5 users (one pending login each)")

    def one(count):
        items = prepare_sca_totp(args, pool, count) if args.flow == "sca-totp" else None
        waits0, waited0 = pool.waits, pool.waited
        before = cpu.ticks()
        tally, wall = run(args, pool, args.flow, count, items)
        after = cpu.ticks()
        return tally, wall, after - before, pool.waits - waits0, pool.waited - waited0

    # Warm-up: first connections, imports and caches, the database's pages. Then --repeat pairs of
    # a long and a short run, summed: a short flow gives few clock ticks per run, so its figure is
    # read over several pairs rather than from one.
    runs = []
    try:
        runs.append(("warm-up", one(args.warmup)))
        for _ in range(args.repeat):
            runs.append(("long", one(args.count)))
            runs.append(("short", one(short)))
    finally:
        pool.save()
    label = args.label or args.flow
    bad = []
    totals = {"long": [0, 0, 0, 0, 0, 0.0], "short": [0, 0, 0, 0, 0, 0.0]}  # accepted, rejected, errors, ticks, waits, wall
    for name, (tally, wall, ticks, waits, waited) in runs:
        print("# %-7s %s: %d flows, %d accepted, %d rejected, %d errors, %.1f s, %.2f/s, server %d ticks, "
              "%d pool waits (%.1f s)" % (name, label, tally.accepted + tally.rejected + tally.errors, tally.accepted,
                                          tally.rejected, tally.errors, wall, tally.accepted / wall if wall else 0,
                                          ticks, waits, waited))
        for p in tally.first_problems:
            print("#   %s" % p)
        if name == "warm-up":
            continue
        if tally.rejected or tally.errors:
            bad.append("%s run: %d rejected, %d errors" % (name, tally.rejected, tally.errors))
        t = totals[name]
        for k, v in enumerate((tally.accepted, tally.rejected, tally.errors, ticks, waits, wall)):
            t[k] += v
    (la, lr, le, lticks, lwaits, lw), (sa, sr, se, sticks, swaits, sw) = totals["long"], totals["short"]
    flows = la - sa
    ms = (lticks - sticks) * 1000.0 / TICK / flows if flows > 0 else float("nan")
    ms_long = lticks * 1000.0 / TICK / la if la else float("nan")
    flags = []
    if bad:
        flags.append("INVALID (" + "; ".join(bad) + ")")
    if lwaits or swaits:
        flags.append("pool waits: %d long, %d short" % (lwaits, swaits))
    result = {
        "label": label, "flow": args.flow, "concurrency": args.concurrency, "count": args.count,
        "repeat": args.repeat, "accepted_long": la, "accepted_short": sa, "ticks_long": lticks,
        "ticks_short": sticks, "server_ms": ms, "server_ms_long_only": ms_long, "rate_long": la / lw if lw else 0,
        "rejected": lr + sr, "errors": le + se, "waits": lwaits + swaits, "valid": not bad,
    }
    print("%-28s server %8.3f ms CPU per accepted flow  (long runs alone %.3f; %d accepted in %d-%d; "
          "%d rejected)%s" % (label, ms, ms_long, flows, la, sa, lr + sr, ("  " + "; ".join(flags)) if flags else ""))
    if args.json_out:
        with open(args.json_out, "a") as f:
            f.write(json.dumps(result) + "\n")
    return 0 if not bad else 1


def sca_users(args):
    """Users with a password and a TOTP seed, through the admin API as an operator makes them."""
    auth = {"Authorization": "Bearer " + args.admin_key}
    out, lock, problems = [], threading.Lock(), []

    def create(client, email):
        status, created = client.json("POST", "/admin/v1/users",
                                      {"email": email, "password": args.password, "emailCodes": False}, auth)
        if status != 201:
            problems.append("create %s: %d %s" % (email, status, created))
            return None
        status, enrolled = client.json("POST", "/admin/v1/users/%s/totp" % created["userId"], None, auth)
        if status != 201:
            problems.append("totp %s: %d %s" % (email, status, enrolled))
            return None
        secret = enrolled["secret"]
        seed = base64.b32decode(secret + "=" * (-len(secret) % 8))
        with lock:
            out.append({"email": email, "password": args.password, "seed": seed.hex()})
        return client

    drain(args.base, ["%s%05d@example.com" % (args.prefix, i) for i in range(args.count)], args.concurrency, create)
    if problems:
        raise SystemExit("creating users failed: %s" % problems[:3])
    with open(args.users, "a") as f:
        for u in sorted(out, key=lambda u: u["email"]):
            f.write(json.dumps(u) + "\n")
    print("created %d users with a password and a TOTP seed" % len(out))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("measure")
    m.add_argument("--base", required=True, help="http://127.0.0.1:PORT")
    m.add_argument("--server-pid", type=int, required=True, help="the server's process (with its descendants)")
    m.add_argument("--flow", choices=sorted(FLOWS), required=True)
    m.add_argument("--path", default="/health/live", help="health: the path to GET")
    m.add_argument("--close", action="store_true", help="health: ask for a new connection per request")
    m.add_argument("--users", help="JSON lines of users (pi-check, sca-login, sca-totp)")
    m.add_argument("--count", type=int, default=500, help="flows in the long run; the short run has a fifth")
    m.add_argument("--concurrency", type=int, default=4)
    m.add_argument("--warmup", type=int, default=50)
    m.add_argument("--repeat", type=int, default=1, help="pairs of a long and a short run, summed")
    m.add_argument("--label")
    m.add_argument("--json-out", help="append the figure as a JSON line to this file")
    u = sub.add_parser("sca-users")
    u.add_argument("--base", required=True)
    u.add_argument("--admin-key", required=True)
    u.add_argument("--users", required=True, help="JSON lines file to append the users to")
    u.add_argument("--count", type=int, required=True)
    u.add_argument("--prefix", default="bench")
    u.add_argument("--password", default="peer benchmark password")
    u.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()
    return measure(args) if args.command == "measure" else sca_users(args)


if __name__ == "__main__":
    sys.exit(main())
