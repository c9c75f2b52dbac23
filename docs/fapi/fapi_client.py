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

Times are the clock's, or FAPI_CLIENT_TIME (Unix seconds) when set, as the tests set it.
"""
import base64
import hashlib
import json
import os
import sys
import time
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


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "keygen":
        keygen(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "assertion":
        print(assertion(sys.argv[2], sys.argv[3], sys.argv[4]))
    elif len(sys.argv) == 6 and sys.argv[1] == "request":
        print(request(*sys.argv[2:]))
    elif 5 <= len(sys.argv) <= 7 and sys.argv[1] == "dpop":
        print(dpop(*sys.argv[2:]))
    else:
        sys.exit(__doc__)
