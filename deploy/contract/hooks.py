"""Schemathesis hooks of `make contract`: what JSON Schema cannot say about REALM's API.

- An import's body is JSON Lines (application/x-ndjson), sent as generated.
- A cursor of the memories or of the messages is opaque: only a `next_cursor` the server
  gave out is one, so generated cursors are left out (a made-up one is refused with 400,
  as documented).
- Feedback names memories of its trace: a generated id is none of them (400, as
  documented), so generated lists of ids are left out.
"""
import json

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
    if ctx.operation is not None and ctx.operation.path.endswith(("/memories", "/observations")) and isinstance(query, dict):
        return "cursor" not in query
    return True


@schemathesis.hook
def filter_body(ctx, body):
    if ctx.operation is None or not ctx.operation.path.endswith("/feedback") or not isinstance(body, dict):
        return True
    for ids in (body.get("useful_node_ids"), body.get("misleading_node_ids")):
        if isinstance(ids, list) and ids and all(isinstance(i, str) for i in ids):
            return False
    return True
