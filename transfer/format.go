package transfer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/realm-memory/realm"
)

// The export format of a space: JSON Lines, one record a line, each with a "kind", in
// this order:
//
//	{"kind":"space","format":"realm-space","version":2,"space":S,"embedder":…,"dims":…,"exported_at":…,"props":{…}}
//	{"kind":"observation","props":{…}}                                   by id
//	{"kind":"memory","derived_from":[observation ids],"repeats":[…],"props":{…}} by id
//	{"kind":"edge","predicate":"precedes","from":ID,"to":ID,"props":{…}} by source id
//	{"kind":"trace","props":{…}}, {"kind":"edit","props":{…}}, {"kind":"job","props":{…}}
//	{"kind":"end","counts":{"observation":n,…}}
//
// props are the node's or relationship's stored properties, all of them but the space
// (the importer sets it), leases and locks (a process's, not the data's) and import
// marks. Values keep their Neo4j type: integers are JSON integers, floats always carry a
// '.' or an exponent (1.0, not 1), datetimes are RFC 3339 strings in UTC with nanoseconds
// under names ending in "_at" and t_start/t_end, lists are arrays; embeddings are
// included, so an import needs no embedder call. The "end" record counts the records, so
// a truncated file is refused. Keys are sorted, so two exports of one graph are equal
// byte for byte but for exported_at.
//
// The space's props carry its forget count, "forgotten" (absent until it forgets a
// message: 0), which each message takes as its "generation" when stored
// (cypher.ObservationKey): imported, the space goes on counting from it, and a message
// forgotten then sent again after the import derives ids no earlier one did. An
// observation's generation above the count is refused: the count would derive its ids again.
//
// An observation's props carry its "role" when it was sent with one (realm.ChatRoles,
// in lower case): who spoke as a chat role beside the speaker's name. An import refuses
// another role. It is no new version: a field added, none changed. A file without it
// (every one of an earlier REALM) holds messages sent without a role; an earlier REALM of
// version 2 keeps it as a property and exports it again, unread (should it integrate
// such a message again, after a forget, it reads it as its speaker's).
//
// A memory's "repeats" (absent when none) are those of its derived_from it derives from
// as a repeat (the messages that said again what it held: cypher.Integration.Repeats),
// and an observation's "repeat_of" the memories that let it go from their provenance, of
// too many repeats (cypher.RepeatsKept): a file without them (an earlier REALM's) holds
// none. An earlier REALM refuses a file holding "repeats".
//
// So are an observation's "sent_by" and a correction's "corrected_by" (the name of the API
// key that sent the message, or made the correction, on a server with keys): a file
// without them (an earlier REALM's, a server's without keys) says no key.
//
// So is an observation's "replaces" (realm.Observation.Replaces: the id of the message of
// the space it is a new version of; observation ids are kept by any import): a file
// without it holds no message sent as another's new version.
//
// Version is the format's: an import reads every version from 1 up to it and refuses a
// newer one. It moves when a field changes so that an older REALM would misread it.
// Version 2: the space's memories_version is a string (a random id), an integer in version
// 1, to which a REALM of version 1 adds. A version 1 file is imported as it is: the next
// write of the space gives it a string.
const (
	Format  = "realm-space"
	Version = 2
)

// Record kinds of an export, in file order.
var kinds = []string{"space", "observation", "memory", "edge", "trace", "edit", "job", "end"}

// Counts counts the records of an export by kind (observation, memory, edge, trace,
// edit, job).
type Counts map[string]int64

// Properties that are not exported: the space and a memory's key of it (implied by the
// file, set by the importer), a memory's word count (derived from its text, set by the importer), leases
// and locks (they belong to a running process), import marks, the graph version (what
// expansion's in-memory snapshots are keyed on: the importer sets a new one), whether
// the space may hold learned links (derived from its edges: the importer's decide) and
// whether an edit holds its query's text (derived from the text: the importer sets it).
var unexported = map[string]map[string]bool{
	"space": {"id": true, "locked_at": true, "import_id": true, "import_until": true, "embedder": true, "dims": true, "graph_version": true,
		"learned_links": true},
	"observation": {"space": true, "lease_owner": true, "lease_until": true},
	"memory":      {"space": true, "space_key": true, "word_count": true},
	"edge":        {},
	"trace":       {"space": true},
	"edit":        {"space": true, "query_held": true},
	"job":         {"space": true},
}

// kv is one field of a record, written in the order given.
type kv struct {
	key   string
	value any
}

// recordWriter writes records, one a line, remembering the first error.
type recordWriter struct {
	w      io.Writer
	buf    bytes.Buffer
	counts Counts
	err    error
}

func (ew *recordWriter) record(fields ...kv) {
	if ew.err != nil {
		return
	}
	ew.buf.Reset()
	ew.buf.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			ew.buf.WriteByte(',')
		}
		writeJSONString(&ew.buf, f.key)
		ew.buf.WriteByte(':')
		if err := writeValue(&ew.buf, f.key, f.value); err != nil {
			ew.err = realm.Errorf(realm.EInternal, "export: %v", err)
			return
		}
	}
	ew.buf.WriteString("}\n")
	_, ew.err = ew.w.Write(ew.buf.Bytes())
}

// isTimeKey reports whether a property holds a datetime by its name: the export format
// relies on this convention (created_at, observed_at, t_start …).
func isTimeKey(k string) bool {
	return strings.HasSuffix(k, "_at") || k == "t_start" || k == "t_end" || strings.HasSuffix(k, "_until")
}

// writeValue writes one property value in the export's typed JSON (see Format);
// maps are written with sorted keys.
func writeValue(buf *bytes.Buffer, key string, v any) error {
	if _, isTime := v.(time.Time); isTime != isTimeKey(key) && !isList(v) && !isMap(v) {
		return fmt.Errorf("property %q holds a %T: datetimes must be, and only be, under names ending in _at", key, v)
	}
	switch x := v.(type) {
	case nil:
		buf.WriteString("null")
	case string:
		writeJSONString(buf, x)
	case bool:
		buf.WriteString(strconv.FormatBool(x))
	case int:
		buf.WriteString(strconv.Itoa(x))
	case int64:
		buf.WriteString(strconv.FormatInt(x, 10))
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("property %q holds %v, which JSON cannot carry", key, x)
		}
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		buf.WriteString(s)
	case time.Time:
		writeJSONString(buf, x.UTC().Format(time.RFC3339Nano))
	case []string:
		list := make([]any, len(x))
		for i, s := range x {
			list[i] = s
		}
		return writeValue(buf, key, list)
	case []any:
		buf.WriteByte('[')
		for i, item := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeValue(buf, key, item); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeJSONString(buf, k)
			buf.WriteByte(':')
			if err := writeValue(buf, k, x[k]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	default:
		return fmt.Errorf("property %q holds a %T, which the export format does not carry", key, v)
	}
	return nil
}

func isList(v any) bool {
	switch v.(type) {
	case []any, []string:
		return true
	}
	return false
}

func isMap(v any) bool { _, ok := v.(map[string]any); return ok }

func writeJSONString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	buf.Truncate(buf.Len() - 1) // Encode's newline
}

// readValue turns a decoded JSON value of a props object (numbers as json.Number) back
// into the Neo4j value the export wrote; see Format.
func readValue(key string, v any) (any, error) {
	switch x := v.(type) {
	case string:
		if isTimeKey(key) {
			t, err := time.Parse(time.RFC3339Nano, x)
			if err != nil {
				return nil, fmt.Errorf("property %q: %q is not an RFC 3339 datetime", key, x)
			}
			return t.UTC(), nil
		}
		return x, nil
	case bool:
		return x, nil
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			f, err := x.Float64()
			if err != nil {
				return nil, fmt.Errorf("property %q: %s is not a float", key, x)
			}
			return f, nil
		}
		n, err := x.Int64()
		if err != nil {
			return nil, fmt.Errorf("property %q: %s is not a 64-bit integer", key, x)
		}
		return n, nil
	case []any:
		out := make([]any, len(x))
		var kind string
		for i, item := range x {
			if _, nested := item.([]any); nested || item == nil {
				return nil, fmt.Errorf("property %q: a list may hold only strings, numbers, booleans or datetimes", key)
			}
			val, err := readValue(key, item)
			if err != nil {
				return nil, err
			}
			if k := fmt.Sprintf("%T", val); i == 0 {
				kind = k
			} else if k != kind {
				return nil, fmt.Errorf("property %q: a list must hold values of one type (%s and %s)", key, kind, k)
			}
			out[i] = val
		}
		return out, nil
	case nil:
		return nil, fmt.Errorf("property %q is null; leave it out instead", key)
	}
	return nil, fmt.Errorf("property %q holds an object; properties are strings, numbers, booleans, datetimes or lists", key)
}

// errLine is a refusal of one line of an import, with its number.
func errLine(line int, format string, args ...any) error {
	return &realm.Error{
		Code:    realm.EInvalid,
		Message: fmt.Sprintf("line %d: %s", line, fmt.Sprintf(format, args...)),
		Fields:  map[string]string{"line": strconv.Itoa(line)},
	}
}
