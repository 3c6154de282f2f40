"""Staff members who sign in by name and PIN: their schemas, error responses and operations
(interface 1.1, beta). generate.py merges these tables into the document."""

from answers import page
from errors import BODY, responses
from facts import BOUNDS
from headers import LOCATION_HEADERS, PAGING, PAGING_DOC
from parts import (
    ID,
    NAME,
    RATE_LIMIT_HEADERS,
    TIMESTAMP,
    described,
    header,
    json_content,
    nullable,
    nullable_ref,
    op,
    param,
    ref,
    request_body,
    schema,
    success,
)

STAFF_ROLE = {
    "type": "string",
    "enum": ["readonly", "staff", "admin"],
    "description": (
        "What the member's sessions may do, as a key of that role: `readonly` reads, `staff` "
        "also sells and edits pets, categories and stock, `admin` also manages keys and staff."
    ),
}
PIN_MIN, PIN_MAX = BOUNDS["pin"]["min"], BOUNDS["pin"]["max"]
PIN = {
    "type": "string",
    "pattern": f"^[0-9]{{{PIN_MIN},{PIN_MAX}}}$",
    "description": f"{PIN_MIN} to {PIN_MAX} digits, sent as a string. Stored only as an "
    "Argon2id hash.",
}
LOCK = BOUNDS["pinLockMinutes"]
IDLE = BOUNDS["sessionIdleHours"]
WHEN_LOCKED = (
    f"{BOUNDS['pinFailures']} wrong PINs for one name from one device (an IPv4 address or an "
    f"IPv6 /64) within {LOCK} minutes lock that name for that device for {LOCK} minutes, "
    "whether or not a member has it: 429 `temporarily_banned` with `Retry-After`, even for "
    "the right PIN; other devices still sign the member in. Each try is counted before its "
    "PIN is checked, so concurrent tries check no more PINs than the lock allows. Every wrong "
    "PIN and every locked try also counts toward the device's ban, like any refused request. "
    "PINs are checked a few at a time: when too many sign-ins are waiting, the answer is 503 "
    "`unavailable` with `Retry-After`, and that try is not counted."
)

SCHEMAS = {
    "StaffRole": STAFF_ROLE,
    "StaffMember": {
        "type": "object",
        "description": "A person of the shop who signs in with name and PIN. The PIN is never shown.",
        "required": ["id", "name", "role", "createdAt", "disabledAt"],
        "properties": {
            "id": described(ID, "Staff member id."),
            "name": described(NAME, "Unique, case-insensitively; what the member types to sign in."),
            "role": schema("StaffRole"),
            "createdAt": TIMESTAMP,
            "disabledAt": nullable(
                TIMESTAMP, "When the member was disabled (they cannot sign in), or `null`."
            ),
        },
        "example": {
            "id": 3,
            "name": "Ann",
            "role": "staff",
            "createdAt": "2026-11-22T09:00:00Z",
            "disabledAt": None,
        },
    },
    "NewStaffMember": {
        "type": "object",
        "description": "A member to add.",
        "required": ["name", "role", "pin"],
        "additionalProperties": False,
        "properties": {"name": NAME, "role": schema("StaffRole"), "pin": PIN},
        "example": {"name": "Ann", "role": "staff", "pin": "0481"},
    },
    "StaffMemberPatch": {
        "type": "object",
        "description": (
            "Changes a member: any of the fields. `disabled: true` ends the member's sessions at "
            "once and stamps `disabledAt`; `false` lets them sign in again. The last enabled admin "
            "member cannot be disabled or lose the admin role (409 `conflict`)."
        ),
        "additionalProperties": False,
        "properties": {
            "name": nullable(NAME, "The new name; `null` changes nothing."),
            "role": nullable_ref("StaffRole", "The new role; `null` changes nothing."),
            "pin": nullable(PIN, "The new PIN; `null` changes nothing."),
            "disabled": {
                "type": "boolean",
                "nullable": True,
                "description": "Disable or enable the member; `null` changes nothing.",
            },
        },
        "example": {"pin": "7351"},
    },
    "SignIn": {
        "type": "object",
        "description": "A member's name (any case) and PIN.",
        "required": ["name", "pin"],
        "additionalProperties": False,
        "properties": {
            "name": described(NAME, "The member's name, compared case-insensitively."),
            "pin": {"type": "string", "minLength": 1, "description": "The member's PIN."},
        },
        "example": {"name": "Ann", "pin": "0481"},
    },
    "Session": {
        "type": "object",
        "description": (
            "A signed-in member's session. `secret` is a key like any other (send it as "
            "`X-API-Key` or `Authorization: Bearer`), shown only here. It acts with the member's "
            "role on the `business` plan and names the member in the stock history and events. "
            f"It ends after {IDLE} hours without use, on `DELETE /session`, or when the member "
            "is disabled; a change of role applies to it at once."
        ),
        "required": ["secret", "expiresAt", "staff"],
        "properties": {
            "secret": {"type": "string"},
            "expiresAt": described(
                TIMESTAMP, "When the session ends if it is not used; each use moves it on."
            ),
            "staff": schema("StaffMember"),
        },
    },
}


def error(status, code, description, message, retry_after=False):
    headers = dict(RATE_LIMIT_HEADERS)
    if retry_after:
        headers["Retry-After"] = header("Retry-After")
    return {
        "description": description,
        "headers": headers,
        "content": json_content(
            schema("Error"), example={"code": code, "message": message, "status": int(status)}
        ),
    }


RESPONSES = {
    "StaffDuplicateName": error(
        "409",
        "duplicate_name",
        "Another staff member already has this name (case-insensitive).",
        'a staff member named "Ann" already exists',
    ),
    "StaffConflict": error(
        "409",
        "conflict",
        "`duplicate_name`: another member has this name. `conflict`: the change would disable "
        "or demote the last enabled admin member.",
        "the last enabled admin member cannot be disabled or lose the admin role",
    ),
    "SignInRefused": error(
        "401",
        "unauthorized",
        "The name and PIN do not match an enabled member. The answer is the same for an "
        "unknown name, a wrong PIN and a disabled member.",
        "that name and PIN do not match a staff member who may sign in",
    ),
    "SignInLocked": error(
        "429",
        "temporarily_banned",
        WHEN_LOCKED + " Also `rate_limited` or `temporarily_banned` for the caller's address, "
        "which is counted under the Free plan like any request without a key.",
        "too many wrong PINs for this name from this device; it is locked for 12 more minutes",
        retry_after=True,
    ),
}


def ops_ref(name):
    return ref("responses", name)


MEMBER_HEADERS = {"ETag": header("ETag")}

sign_in_responses = responses(
    {"201": success("Signed in: the session.", schema("Session"), LOCATION_HEADERS)},
    *BODY,
    "ValidationFailed",
    forbidden=False,
)
sign_in_responses["401"] = ops_ref("SignInRefused")
sign_in_responses["429"] = ops_ref("SignInLocked")

staff_patch_responses = responses(
    {"200": success("The member as stored.", schema("StaffMember"), MEMBER_HEADERS)},
    "NotFound",
    "PreconditionFailed",
    *BODY,
    "ValidationFailed",
)
staff_patch_responses["409"] = ops_ref("StaffConflict")

PATHS = {
    "/admin/staff": {
        "get": op(
            "listStaff",
            "List staff members",
            "Every member, disabled ones included, oldest first. " + PAGING_DOC + "",
            responses(
                {
                    "200": page("A page of members.", "StaffMember")
                }
            ),
            parameters=PAGING,
        ),
        "post": op(
            "createStaff",
            "Add a staff member",
            "Adds a member who signs in with `name` and `pin` (`POST /session`).",
            dict(
                responses(
                    {
                        "201": success(
                            "The member.",
                            schema("StaffMember"),
                            {"Location": header("Location"), "ETag": header("ETag")},
                        )
                    },
                    *BODY,
                    "ValidationFailed",
                ),
                **{"409": ops_ref("StaffDuplicateName")},
            ),
            body=request_body("NewStaffMember", "The new member."),
        ),
    },
    "/admin/staff/{staffId}": {
        "parameters": [param("StaffId")],
        "patch": op(
            "updateStaff",
            "Change a staff member",
            "Changes name, role or PIN, or disables or enables the member. Disabling ends their "
            "sessions at once. Honours `If-Match`.",
            dict(sorted(staff_patch_responses.items())),
            body=request_body("StaffMemberPatch", "The fields to change.", merge_patch=True),
        ),
    },
    "/admin/staff/{staffId}/lock": {
        "parameters": [param("StaffId")],
        "delete": op(
            "liftStaffLock",
            "Lift a staff member's PIN lock",
            f"For a member who has forgotten their PIN or was locked out by someone else's "
            f"guesses: lifts the lock that {BOUNDS['pinFailures']} wrong PINs put on the "
            "member's name, on every device at once, and forgets the wrong PINs counted toward "
            "the next one, so the member may sign in again at once. Lifting when nothing is "
            "locked changes nothing (204 all the same). Bans of a device's address are not "
            "touched. Admin only.",
            responses({"204": success("Lifted; no body.")}, "NotFound"),
        ),
    },
    "/session": {
        "post": op(
            "signIn",
            "Sign a staff member in",
            "Needs no key. Answers a session key for the member with this name (any case) and "
            "PIN. A wrong name, a wrong PIN and a disabled member get the same 401. " + WHEN_LOCKED,
            dict(sorted(sign_in_responses.items())),
            body=request_body("SignIn", "Name and PIN."),
        ),
        "delete": op(
            "signOut",
            "Sign out",
            "Ends the staff member's session whose key sends this request; that key gets 401 "
            "from then on, and the member's other sessions go on. Any other key is not a "
            "session: it gets 400 and keeps working, whatever its role (a paired device gives "
            "its key back with `DELETE /pair`; an admin revokes keys at `/admin/keys`).",
            responses({"204": success("Signed out; no body.")}, forbidden=False),
        ),
    },
}

PARAMETERS = {
    "StaffId": {
        "name": "staffId",
        "in": "path",
        "required": True,
        "description": "The staff member's id.",
        "schema": dict(ID),
    }
}
