"""answers: the answers most operations share (see generate.py).

A list answers a page of records; a create answers the new record; a read by id answers the record or 404; a change under
`If-Match` answers the record as stored, 404, 412 and the body's errors; a delete under
`If-Match` answers 204. Each builder takes only what differs between operations (the
descriptions, the schema, extra headers, the operation's own error responses), so a path names
what is its own and the shared part is written once. The answers come out sorted by status
(errors.responses), so the order of the error names given does not matter.
"""

from errors import BODY, responses
from headers import CREATED_HEADERS, LIST_HEADERS, RECORD_HEADERS
from parts import param, ref, schema, success

NO_CONTENT = "Done; no body."
IF_MATCH = [param("IfMatch")]


def page(description, schema_name, headers=LIST_HEADERS):
    """The 200 of a list: one page of `schema_name` records with the list's headers."""
    return success(description, {"type": "array", "items": schema(schema_name)}, headers)


def listed(description, schema_name, headers=LIST_HEADERS):
    """The answers of a list that every role may read."""
    return responses({"200": page(description, schema_name, headers)}, forbidden=False)


def created(description, schema_name, *error_names, headers=CREATED_HEADERS):
    """The answers of a POST that creates a record from a body: 201 with the record, the
    body's errors and the operation's own `error_names`."""
    return responses(
        {"201": success(description, schema(schema_name), headers)}, *BODY, *error_names
    )


def read_one(description, schema_name, headers=RECORD_HEADERS):
    """The answers of a GET of one record that every role may read: 200 with it, or 404."""
    return responses(
        {
            "200": success(description, schema(schema_name), headers),
            "404": ref("responses", "NotFound"),
        },
        forbidden=False,
    )


def changed(description, schema_name, *error_names, headers=RECORD_HEADERS):
    """The answers of a PUT or PATCH of one record under `If-Match`: 200 with the record as
    stored, 404, 412, the body's errors and the operation's own `error_names`."""
    return responses(
        {"200": success(description, schema(schema_name), headers)},
        "NotFound",
        "PreconditionFailed",
        *BODY,
        *error_names,
    )


def deleted(*error_names, headers=None):
    """The answers of a DELETE of one record under `If-Match`: 204, 404, 412 and the
    operation's own `error_names`."""
    return responses(
        {"204": success(NO_CONTENT, headers=headers)}, "NotFound", "PreconditionFailed", *error_names
    )
