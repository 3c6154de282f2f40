"""Pairing a till with a one-time code and its QR code (interface 1.1, beta). generate.py
merges these tables into the document."""

from answers import created
from errors import BODY, responses
from headers import LOCATION_HEADERS
from parts import NAME, TIMESTAMP, described, op, ref, request_body, schema, success

CODE = {
    "type": "string",
    "pattern": "^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$",
    "description": (
        "8 characters from an alphabet without look-alikes (no 0, O, 1, I or L). When sent, "
        "case, spaces and dashes do not matter."
    ),
    "example": "K7QM4XPA",
}

SCHEMAS = {
    "NewPairing": {
        "type": "object",
        "description": "The key the paired device will get.",
        "required": ["name", "role", "plan"],
        "additionalProperties": False,
        "properties": {
            "name": described(NAME, "A name for people, e.g. `till 2`."),
            "role": {
                "type": "string",
                "enum": ["readonly", "pos", "staff"],
                "description": "Never `admin`: an admin key is not handed out by a code.",
            },
            "plan": {"type": "string", "enum": ["free", "pro", "business"]},
        },
        "example": {"name": "till 2", "role": "pos", "plan": "pro"},
    },
    "Pairing": {
        "type": "object",
        "description": "A one-time code, valid 10 minutes, and the address that uses it.",
        "required": ["code", "expiresAt", "url", "onNetwork"],
        "properties": {
            "code": CODE,
            "expiresAt": TIMESTAMP,
            "url": {
                "type": "string",
                "description": (
                    "What a device on the shop's network opens, `<origin>/pair?code=<code>`. "
                    "The origin is the one the admin reached the server at, unless that was "
                    "loopback (the counter PC itself): then the address of the server's listener "
                    "on the shop's network, if it has one. Over HTTPS the URL ends with "
                    "`&fp=<fingerprint>`, the SHA-256 fingerprint of the store's certificate "
                    "(as `GET /store/certificate` shows it), so a till can pin it."
                ),
                "example": "https://192.168.1.20:8080/pair?code=K7QM4XPA&fp=3F:9C:…",
            },
            "onNetwork": {
                "type": "boolean",
                "description": (
                    "Whether a device on the shop's network can open `url`. `false` when the "
                    "server listens on this PC only: let devices on the network in first "
                    "(the desktop app's LAN switch, or `--bind 0.0.0.0:8080`)."
                ),
            },
        },
    },
    "StoreCertificate": {
        "type": "object",
        "description": "Whether the server speaks HTTPS, and with which certificate.",
        "required": ["https"],
        "properties": {
            "https": {
                "type": "boolean",
                "description": "Whether one of the server's listeners speaks HTTPS.",
            },
            "fingerprint": {
                "type": "string",
                "pattern": "^[0-9A-F]{2}(:[0-9A-F]{2}){31}$",
                "description": (
                    "The SHA-256 fingerprint of the store's own certificate, upper-case hex "
                    "pairs joined by colons, as browsers and `openssl x509 -fingerprint "
                    "-sha256` show it. Present when `https` is true."
                ),
            },
            "notAfter": described(
                TIMESTAMP,
                "When the certificate ends (it is renewed 30 days before). Present when "
                "`https` is true.",
            ),
        },
        "example": {
            "https": True,
            "fingerprint": ":".join(["3F"] * 32),
            "notAfter": "2027-11-22T00:00:00Z",
        },
    },
    "PairRequest": {
        "type": "object",
        "required": ["code"],
        "additionalProperties": False,
        "properties": {"code": CODE},
    },
}

pair_responses = responses(
    {
        "201": success(
            "The new key, with its secret (as `POST /admin/keys` answers).",
            schema("CreatedApiKey"),
            LOCATION_HEADERS,
        ),
        "404": ref("responses", "NotFound"),
    },
    *BODY,
    "ValidationFailed",
    forbidden=False,
)

PATHS = {
    "/store/certificate": {
        "get": op(
            "getStoreCertificate",
            "The store's HTTPS certificate",
            "Whether the server speaks HTTPS (`--tls`, `PETSTORE_TLS=on`, or the desktop "
            "app's switch) and, when it does, the SHA-256 fingerprint of the store's own "
            "certificate: staff compare it with the one a browser shows the first time it "
            "opens the store over HTTPS.",
            responses(
                {"200": success("The certificate.", schema("StoreCertificate"))},
                forbidden=False,
            ),
        )
    },
    "/admin/pairings": {
        "post": op(
            "createPairing",
            "Open a pairing code for a till",
            "A one-time code, valid 10 minutes, that one device trades for its own key "
            "(`POST /pair`). Show the `url` as a QR code (`qr.svg`) or the code in large "
            "letters. Codes are kept in the store (only a hash of each): they survive a "
            "restart, and any server on the same database redeems them.",
            created("The code and its address.", "Pairing", "ValidationFailed", headers=LOCATION_HEADERS),
            body=request_body("NewPairing", "The key the device will get."),
        )
    },
    "/admin/pairings/{code}/qr.svg": {
        "parameters": [
            {
                "name": "code",
                "in": "path",
                "required": True,
                "description": "A waiting pairing code.",
                "schema": {"type": "string"},
            }
        ],
        "get": op(
            "getPairingQr",
            "The pairing address as a QR code",
            "An SVG QR code of the pairing's `url`. A used, expired or unknown code is 404.",
            responses(
                {
                    "200": success(
                        "The QR code.",
                        content={"image/svg+xml": {"schema": {"type": "string"}}},
                    ),
                    "404": ref("responses", "NotFound"),
                }
            ),
        ),
    },
    "/pair": {
        "post": op(
            "pairDevice",
            "Trade a pairing code for a key",
            "Needs no key. A waiting code is used up and answers the new key, `secret` "
            "included, once. An unknown, used or expired code is 404 `not_found`, and counts "
            "toward a temporary ban of the caller's address like a refused request. Requests "
            "count against the caller's address under the Free plan.",
            pair_responses,
            body=request_body("PairRequest", "The code."),
        ),
        "delete": op(
            "unpairDevice",
            "Unpair this device: give its key back",
            "The device's own key, the one that sends this request, is revoked, as "
            "`DELETE /admin/keys/{keyId}` would revoke it: it gets 401 from then on and stays "
            "listed with its `revokedAt`. A till that is unpaired (or that is handed on, or "
            "sold) calls this so that no key is left behind; it is paired again with a new "
            "code. Only this explicit call gives a key back: `DELETE /session` never revokes a "
            "key. Any role's stored key may do it, but not an admin key, nor a staff member's "
            "session (which signs out with `DELETE /session`): both get 400 and keep working. "
            "Requests count against the key's plan like any other.",
            responses(
                {"204": success("Unpaired: the key is revoked; no body.")},
                forbidden=False,
            ),
        ),
    },
}
