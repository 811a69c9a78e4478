#!/usr/bin/env python3
"""Compare two `realm export` files of the same conversation ingested twice: every memory
(matched by type, name, content) and every edge (matched by predicate and its ends' keys)
with all their properties but ids and the times of ingestion; observations by id."""
import json, sys, math

SKIP = {"id", "created_at", "updated_at", "integrated_at", "accessed_at", "last_accessed_at",
        "exported_at", "stored_at", "received_at", "claimed_at", "lease_until", "attempted_at",
        "superseded_at"}

def load(path):
    recs = {"memory": [], "edge": [], "observation": [], "space": [], "other": []}
    for line in open(path):
        r = json.loads(line)
        recs.get(r["kind"], recs["other"]).append(r)
    return recs

def clean(props):
    return {k: v for k, v in props.items() if k not in SKIP}

def main(a, b):
    A, B = load(a), load(b)
    diffs = 0
    def report(msg):
        nonlocal diffs
        diffs += 1
        if diffs <= 30:
            print(msg)
    maxemb = 0.0
    keyed = []
    for recs in (A, B):
        ids, mems = {}, {}
        for m in recs["memory"]:
            p = m["props"]
            key = (p.get("type"), p.get("name"), p.get("content"))
            if key in mems:
                report(f"duplicate memory key {key}")
            ids[p["id"]] = key
            mems[key] = m
        keyed.append((ids, mems))
    (ida, ma), (idb, mb) = keyed
    for key in sorted(set(ma) | set(mb), key=str):
        if key not in ma or key not in mb:
            report(f"memory only in {'A' if key in ma else 'B'}: {key}")
            continue
        pa, pb = clean(ma[key]["props"]), clean(mb[key]["props"])
        ea, eb = pa.pop("embedding", None), pb.pop("embedding", None)
        if (ea is None) != (eb is None) or (ea and len(ea) != len(eb)):
            report(f"memory {key}: embedding presence/length differs")
        elif ea:
            maxemb = max(maxemb, max(abs(x - y) for x, y in zip(ea, eb)))
        if pa != pb:
            ks = sorted(k for k in set(pa) | set(pb) if pa.get(k) != pb.get(k))
            report(f"memory {key}: {[(k, pa.get(k), pb.get(k)) for k in ks]}")
        if sorted(ma[key].get("derived_from") or []) != sorted(mb[key].get("derived_from") or []):
            report(f"memory {key}: derived_from differs")
    def edges(recs, ids):
        out = {}
        for e in recs["edge"]:
            k = (e["predicate"], ids.get(e["from"], e["from"]), ids.get(e["to"], e["to"]))
            if k in out:
                report(f"duplicate edge {k}")
            out[k] = clean(e["props"])
        return out
    xa, xb = edges(A, ida), edges(B, idb)
    for k in sorted(set(xa) | set(xb), key=str):
        if k not in xa or k not in xb:
            report(f"edge only in {'A' if k in xa else 'B'}: {k}")
        elif xa[k] != xb[k]:
            report(f"edge {k}: {xa[k]} vs {xb[k]}")
    def obs(recs, ids):
        # an observation's lists of memory ids (added, merged…) by the memories' keys
        return {o["props"]["id"]: {k: ([ids.get(x, x) for x in v] if isinstance(v, list) else v)
                                   for k, v in clean(o["props"]).items()} for o in recs["observation"]}
    oa, ob = obs(A, ida), obs(B, idb)
    sa, sb = clean(A["space"][0]["props"]), clean(B["space"][0]["props"])
    for k in sorted(set(sa) | set(sb)):
        if sa.get(k) != sb.get(k) and k not in ("memories_version", "summary_updated_at"):
            report(f"space {k}: {sa.get(k)} vs {sb.get(k)}")
    for k in sorted(set(oa) | set(ob)):
        if oa.get(k) != ob.get(k):
            ks = sorted(x for x in set(oa.get(k, {})) | set(ob.get(k, {})) if oa.get(k, {}).get(x) != ob.get(k, {}).get(x))
            report(f"observation {k}: {ks}")
    print(f"memories {len(ma)} / {len(mb)}, edges {len(xa)} / {len(xb)}, observations {len(oa)} / {len(ob)}; "
          f"largest embedding difference {maxemb:g}; {diffs} differences")
    return 1 if diffs else 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
