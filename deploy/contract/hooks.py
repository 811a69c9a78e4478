"""Schemathesis hooks of `make contract`: what JSON Schema cannot say about REALM's API.

- An import's body is JSON Lines (application/x-ndjson), sent as generated.
- A cursor of the memories, of the messages or of the edits is opaque: only a `next_cursor`
  the server gave out is one, so generated cursors are left out (a made-up one is refused
  with 400, as documented).
- Forgetting messages in bulk (DELETE …/observations) needs `speaker` or `before` (400
  without either, as documented), so queries with neither are left out.
- Feedback names memories of its trace: a generated id is none of them (400, as
  documented), so generated lists of ids are left out.
- A recall's (or an answer's) filters.said_until may not be before filters.said_since
  (400, as documented), so such pairs are left out.
"""
import json
from datetime import datetime

import schemathesis


@schemathesis.serializer("application/x-ndjson")
def ndjson(ctx, value):
    if isinstance(value, bytes):
        return {"data": value}
    if isinstance(value, str):
        return {"data": value.encode("utf-8", "surrogatepass")}
    return {"data": json.dumps(value).encode("utf-8")}


@schemathesis.hook
def filter_query(ctx, query):
    if ctx.operation is None or not isinstance(query, dict):
        return True
    if ctx.operation.method.upper() == "DELETE" and ctx.operation.path.endswith("/observations"):
        return "speaker" in query or "before" in query
    if ctx.operation.path.endswith(("/memories", "/observations", "/edits")):
        return "cursor" not in query
    return True


@schemathesis.hook
def filter_body(ctx, body):
    if ctx.operation is None or not isinstance(body, dict):
        return True
    if ctx.operation.path.endswith(("/recall", "/answer")):
        return not said_backwards(body.get("filters"))
    if not ctx.operation.path.endswith("/feedback"):
        return True
    for ids in (body.get("useful_node_ids"), body.get("misleading_node_ids")):
        if isinstance(ids, list) and ids and all(isinstance(i, str) for i in ids):
            return False
    return True


def said_backwards(filters):
    """Whether filters hold a said_until before their said_since (both RFC 3339)."""
    if not isinstance(filters, dict):
        return False
    try:
        since, until = (datetime.fromisoformat(str(filters[k]).upper()) for k in ("said_since", "said_until"))
        # Python keeps microseconds, Go nanoseconds: times equal here may not be there.
        return until < since or until == since and filters["said_since"] != filters["said_until"]
    except (KeyError, ValueError, TypeError):
        return False
