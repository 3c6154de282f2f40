"""The interface's facts, read from facts.json: the one copy the Rust side writes.

src/contract.rs holds the bounds, plans, roles, ban thresholds, error codes with their statuses
and the operation table; `petstore contract-facts` prints them and the output is committed as
openapi/facts.json (cargo test fails when it is stale). The tables here only read it: change a
fact in src/contract.rs, then

    cargo run -q -- contract-facts > openapi/facts.json && python3 openapi/generate.py
"""

import json
from pathlib import Path

FACTS = json.loads(Path(__file__).with_name("facts.json").read_text(encoding="utf-8"))

BOUNDS = FACTS["bounds"]
PLANS = FACTS["plans"]
FIRST_ADMIN = FACTS["firstAdmin"]
ROLES = FACTS["roles"]
DEFAULTS = FACTS["defaults"]
ERRORS = FACTS["errors"]
OPERATIONS = FACTS["operations"]
OPERATIONS_BY_ID = {o["operationId"]: o for o in OPERATIONS}


def n(value):
    """A number as the document writes it for people: 1,000,000."""
    return f"{value:,}"


def lo(bound):
    return n(BOUNDS[bound]["min"])


def hi(bound):
    return n(BOUNDS[bound]["max"])


def kib(nbytes):
    return f"{nbytes // 1024} KiB"


def minutes(secs):
    return f"{secs // 60} minutes"


BODY_LIMIT = kib(BOUNDS["bodyBytes"]["max"])
BAN = (
    f"more than {DEFAULTS['banAfter']} times in one minute",
    minutes(DEFAULTS["banSecs"]),
)
