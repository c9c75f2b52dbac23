#!/usr/bin/env python3
"""A FAPI 2.0 partner's keys and client assertions, made with PyJWT (pip install "pyjwt[crypto]").

    fapi_client.py keygen KEY.pem JWKS.json
        a new EC P-256 key pair: the private key (keep it) and the public JWK Set to register
    fapi_client.py assertion KEY.pem CLIENT_ID ISSUER
        a fresh private_key_jwt assertion (RFC 7523) for any client-authenticated endpoint:
        iss = sub = CLIENT_ID, aud = ISSUER, a new jti, valid for 60 seconds
    fapi_client.py request KEY.pem CLIENT_ID ISSUER PARAMETERS_JSON
        a signed request object (RFC 9101) for POST /oauth2/par: the authorization request's
        parameters (a JSON object) with iss = client_id = CLIENT_ID, aud = ISSUER, nbf now and
        exp five minutes later, typ oauth-authz-req+jwt
    fapi_client.py dpop KEY.pem METHOD URL [NONCE [ACCESS_TOKEN]]
        a DPoP proof (RFC 9449) for one request: the public key in its header, htm, htu, iat,
        a new jti, the server's nonce, and the access token's hash (ath) on a resource request

The whole sign-in, as a partner's back end runs it (the `serve --demo` partner prints these):

    fapi_client.py par KEY.pem CLIENT_ID ISSUER REDIRECT_URI [AUTHORIZATION_DETAILS_JSON]
        pushes a signed authorization request (PAR with a request object, PKCE S256, a new
        state) and prints the URL to open in a browser; keeps the PKCE verifier and the state
        in KEY.pem.session.json
    fapi_client.py token KEY.pem CLIENT_ID ISSUER REDIRECT_URI CALLBACK_URL
        checks the URL the browser came back to (its state is the pushed one, its iss the
        ISSUER, no error) and exchanges its code for tokens bound to a DPoP key
        (KEY.pem.dpop.pem, made when missing): answers the server's use_dpop_nonce with its
        nonce, and prints the token answer

Times are the clock's, or FAPI_CLIENT_TIME (Unix seconds) when set, as the tests set it.
"""
import base64
import hashlib
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

KID = "partner-key-1"


def now():
    return int(os.environ.get("FAPI_CLIENT_TIME") or time.time())


def keygen(key_path, jwks_path):
    key = ec.generate_private_key(ec.SECP256R1())
    with open(key_path, "wb") as out:
        out.write(key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    public = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(key.public_key()))
    public.update({"kid": KID, "use": "sig", "alg": "ES256"})
    with open(jwks_path, "w") as out:
        json.dump({"keys": [public]}, out, indent=2)


def assertion(key_path, client_id, issuer):
    with open(key_path, "rb") as source:
        key = serialization.load_pem_private_key(source.read(), password=None)
    issued = now()
    claims = {"iss": client_id, "sub": client_id, "aud": issuer, "iat": issued, "exp": issued + 60, "jti": str(uuid.uuid4())}
    return jwt.encode(claims, key, algorithm="ES256", headers={"kid": KID})


def request(key_path, client_id, issuer, parameters):
    with open(key_path, "rb") as source:
        key = serialization.load_pem_private_key(source.read(), password=None)
    issued = now()
    claims = dict(json.loads(parameters))
    claims.update({"iss": client_id, "client_id": client_id, "aud": issuer, "nbf": issued, "exp": issued + 300})
    return jwt.encode(claims, key, algorithm="ES256", headers={"kid": KID, "typ": "oauth-authz-req+jwt"})


def dpop(key_path, method, url, nonce=None, access_token=None):
    with open(key_path, "rb") as source:
        key = serialization.load_pem_private_key(source.read(), password=None)
    public = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(key.public_key()))
    claims = {"htm": method, "htu": url, "iat": now(), "jti": str(uuid.uuid4())}
    if nonce:
        claims["nonce"] = nonce
    if access_token:
        digest = hashlib.sha256(access_token.encode("ascii")).digest()
        claims["ath"] = base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")
    return jwt.encode(claims, key, algorithm="ES256", headers={"typ": "dpop+jwt", "jwk": public})


ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def post(url, fields, headers=None):
    """POSTs a form; the status, the headers and the JSON answer."""
    body = urllib.parse.urlencode(fields).encode("ascii")
    request = urllib.request.Request(url, data=body, method="POST", headers=dict(headers or {}))
    request.add_header("Content-Type", "application/x-www-form-urlencoded")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.headers, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, error.headers, json.loads(error.read() or b"{}")


def par(key_path, client_id, issuer, redirect_uri, authorization_details=None):
    verifier = b64url(os.urandom(32))
    state = b64url(os.urandom(16))
    parameters = {
        "response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri, "scope": "openid",
        "state": state, "nonce": b64url(os.urandom(16)), "code_challenge_method": "S256",
        "code_challenge": b64url(hashlib.sha256(verifier.encode("ascii")).digest()),
    }
    if authorization_details:
        parameters["authorization_details"] = authorization_details
    status, _, answer = post(issuer + "/oauth2/par", {
        "client_id": client_id, "request": request(key_path, client_id, issuer, json.dumps(parameters)),
        "client_assertion_type": ASSERTION_TYPE, "client_assertion": assertion(key_path, client_id, issuer),
    })
    if status != 201:
        sys.exit("PAR refused (%d): %s" % (status, json.dumps(answer)))
    with open(key_path + ".session.json", "w") as out:
        json.dump({"verifier": verifier, "state": state}, out)
    query = urllib.parse.urlencode({"client_id": client_id, "request_uri": answer["request_uri"]})
    return issuer + "/oauth2/authorize?" + query


def token(key_path, client_id, issuer, redirect_uri, callback_url):
    with open(key_path + ".session.json") as source:
        session = json.load(source)
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(callback_url).query))
    if "error" in query:
        sys.exit("the sign-in came back with error=%s: %s" % (query["error"], query.get("error_description", "")))
    if query.get("state") != session["state"] or query.get("iss") != issuer or "code" not in query:
        sys.exit("this callback does not answer the pushed request (its state, iss or code)")
    code = query["code"]
    dpop_path = key_path + ".dpop.pem"
    if not os.path.exists(dpop_path):
        keygen(dpop_path, os.devnull)
    url = issuer + "/oauth2/token"
    fields = {
        "grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri,
        "code_verifier": session["verifier"], "client_assertion_type": ASSERTION_TYPE,
    }
    nonce = None
    for _ in range(2):
        fields["client_assertion"] = assertion(key_path, client_id, issuer)
        status, headers, answer = post(url, fields, {"DPoP": dpop(dpop_path, "POST", url, nonce)})
        if status == 400 and answer.get("error") == "use_dpop_nonce" and nonce is None:
            nonce = headers.get("DPoP-Nonce")
            continue
        if status != 200:
            sys.exit("token refused (%d): %s" % (status, json.dumps(answer)))
        return json.dumps(answer, indent=2)
    sys.exit("the server did not take its own DPoP nonce")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "keygen":
        keygen(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "assertion":
        print(assertion(sys.argv[2], sys.argv[3], sys.argv[4]))
    elif len(sys.argv) == 6 and sys.argv[1] == "request":
        print(request(*sys.argv[2:]))
    elif 5 <= len(sys.argv) <= 7 and sys.argv[1] == "dpop":
        print(dpop(*sys.argv[2:]))
    elif 6 <= len(sys.argv) <= 7 and sys.argv[1] == "par":
        print(par(*sys.argv[2:]))
    elif len(sys.argv) == 7 and sys.argv[1] == "token":
        print(token(*sys.argv[2:]))
    else:
        sys.exit(__doc__)
