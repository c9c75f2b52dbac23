#!/usr/bin/env python3
"""Captures WebAuthn registration and assertion responses from Chromium's virtual
authenticator, for the SCAWebAuthn test fixtures. Needs chromium and chromedriver.
Usage (from the repository root, with chromium and chromedriver on PATH):
    python3 Tests/SCAWebAuthnTests/Fixtures/capture-fixtures.py \
        Tests/SCAWebAuthnTests/Fixtures/chromium-virtual-authenticator.json
Each run makes new keys, challenges and a new origin port: the tests read all three from the file."""
import json, os, socket, subprocess, sys, threading, time, urllib.request
from http.server import HTTPServer, SimpleHTTPRequestHandler

PAGE = b"""<!doctype html><html><head><meta charset="utf-8"><title>capture</title></head>
<body><p>capture</p></body></html>"""

class Page(SimpleHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.send_header("Content-Type", "text/html"); self.end_headers()
        self.wfile.write(PAGE)
    def log_message(self, *a): pass

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p

def call(base, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())["value"]

SCRIPT_CREATE = """
const [opts, done] = arguments;
const b64u = b => btoa(String.fromCharCode(...new Uint8Array(b))).replace(/\\+/g,'-').replace(/\\//g,'_').replace(/=+$/,'');
const unb64u = s => Uint8Array.from(atob(s.replace(/-/g,'+').replace(/_/g,'/')), c => c.charCodeAt(0));
opts.challenge = unb64u(opts.challenge); opts.user.id = unb64u(opts.user.id);
navigator.credentials.create({publicKey: opts}).then(c => done({
  id: c.id, rawId: b64u(c.rawId), type: c.type,
  response: {clientDataJSON: b64u(c.response.clientDataJSON), attestationObject: b64u(c.response.attestationObject),
             transports: c.response.getTransports()}
})).catch(e => done({error: String(e)}));
"""
SCRIPT_GET = """
const [opts, done] = arguments;
const b64u = b => btoa(String.fromCharCode(...new Uint8Array(b))).replace(/\\+/g,'-').replace(/\\//g,'_').replace(/=+$/,'');
const unb64u = s => Uint8Array.from(atob(s.replace(/-/g,'+').replace(/_/g,'/')), c => c.charCodeAt(0));
opts.challenge = unb64u(opts.challenge);
if (opts.allowCredentials) opts.allowCredentials = opts.allowCredentials.map(c => ({type: c.type, id: unb64u(c.id)}));
navigator.credentials.get({publicKey: opts}).then(c => done({
  id: c.id, rawId: b64u(c.rawId), type: c.type,
  response: {clientDataJSON: b64u(c.response.clientDataJSON), authenticatorData: b64u(c.response.authenticatorData),
             signature: b64u(c.response.signature), userHandle: c.response.userHandle ? b64u(c.response.userHandle) : null}
})).catch(e => done({error: String(e)}));
"""

def b64u(b):
    import base64; return base64.urlsafe_b64encode(b).rstrip(b"=").decode()

def main():
    out = sys.argv[1]
    web_port, driver_port = free_port(), free_port()
    httpd = HTTPServer(("127.0.0.1", web_port), Page)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    driver = subprocess.Popen(["chromedriver", f"--port={driver_port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{driver_port}"
    for _ in range(100):
        try: urllib.request.urlopen(base + "/status", timeout=1); break
        except Exception: time.sleep(0.1)
    caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
        "binary": "/usr/bin/chromium",
        "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]}}}}
    req = urllib.request.Request(base + "/session", data=json.dumps(caps).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    sid = json.loads(urllib.request.urlopen(req, timeout=60).read())["value"]["sessionId"]
    s = f"/session/{sid}"
    origin = f"http://localhost:{web_port}"
    fixtures = {"rpId": "localhost", "origin": origin, "cases": {}}
    try:
        call(base, "POST", s + "/url", {"url": origin + "/"})
        call(base, "POST", s + "/timeouts", {"script": 30000})
        def authenticator(uv):
            return call(base, "POST", s + "/webauthn/authenticator", {
                "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                "hasUserVerification": True, "isUserVerified": uv, "isUserConsenting": True})
        def register(name, attestation, uv, alg=-7):
            challenge = os.urandom(32); user_id = os.urandom(16)
            opts = {"challenge": b64u(challenge), "rp": {"id": "localhost", "name": "swift-sca test"},
                    "user": {"id": b64u(user_id), "name": "alice@example.com", "displayName": "Alice"},
                    "pubKeyCredParams": [{"type": "public-key", "alg": alg}],
                    "authenticatorSelection": {"residentKey": "required" if uv else "discouraged",
                                               "userVerification": "required" if uv else "discouraged"},
                    "attestation": attestation, "timeout": 30000}
            res = call(base, "POST", s + "/execute/async", {"script": SCRIPT_CREATE, "args": [opts]})
            if "error" in res: raise SystemExit(f"{name}: {res['error']}")
            fixtures["cases"][name] = {"challenge": b64u(challenge), "userHandle": b64u(user_id), "response": res}
            return res
        def assert_(name, cred, uv):
            challenge = os.urandom(32)
            opts = {"challenge": b64u(challenge), "rpId": "localhost", "timeout": 30000,
                    "allowCredentials": [{"type": "public-key", "id": cred["rawId"]}],
                    "userVerification": "required" if uv else "discouraged"}
            res = call(base, "POST", s + "/execute/async", {"script": SCRIPT_GET, "args": [opts]})
            if "error" in res: raise SystemExit(f"{name}: {res['error']}")
            fixtures["cases"][name] = {"challenge": b64u(challenge), "response": res}
        a = authenticator(True)
        none_reg = register("registration-none-uv", "none", True)
        packed_reg = register("registration-packed-uv", "direct", True)
        assert_("assertion-uv-1", packed_reg, True)
        assert_("assertion-uv-2", packed_reg, True)
        eddsa = register("registration-none-eddsa", "none", True, alg=-8)
        assert_("assertion-eddsa", eddsa, True)
        call(base, "DELETE", s + f"/webauthn/authenticator/{a}")
        call(base, "POST", s + "/webauthn/authenticator", {
            "protocol": "ctap2", "transport": "usb", "hasResidentKey": False,
            "hasUserVerification": False, "isUserConsenting": True})
        noUV = register("registration-none-no-uv", "none", False)
        assert_("assertion-no-uv", noUV, False)
    finally:
        call(base, "DELETE", s)
        driver.terminate()
        httpd.shutdown()
    with open(out, "w") as f:
        json.dump(fixtures, f, indent=2, sort_keys=True); f.write("\n")

main()
