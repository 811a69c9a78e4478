package api

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/construction"
)

// The tools' inputSchemas hold the bounds the HTTP routes check (realm's and
// construction's limits, the same constants), so that a client sees them before it calls;
// the checks behind the routes still run, on bytes where a schema counts characters.

// argumentBounds are the bounds of the arguments by name, wherever they appear in a
// tool's arguments (a message's id as a memory's).
var argumentBounds = func() map[string]func(*jsonschema.Schema) {
	characters := func(n int) func(*jsonschema.Schema) {
		return func(p *jsonschema.Schema) {
			if p.Items != nil {
				p = p.Items
			}
			p.MaxLength = &n
		}
	}
	// A limit in bytes: maxLength counts characters, and as many characters as bytes is a
	// bound never stricter than the limit (a character takes a byte at least) that a text
	// of fewer characters can still exceed, so the description says the limit itself.
	bytes := func(n int) func(*jsonschema.Schema) {
		limit := fmt.Sprintf("at most %d bytes in UTF-8", n)
		return func(p *jsonschema.Schema) {
			characters(n)(p)
			if p.Items != nil {
				p.Items.Description = limit
				return
			}
			p.Description += "; " + limit
		}
	}
	between := func(low, high float64) func(*jsonschema.Schema) {
		return func(p *jsonschema.Schema) { p.Minimum, p.Maximum = &low, &high }
	}
	one, batch := 1, construction.DefaultOptions().MaxBatch
	id := bytes(realm.MaxIDLen)
	return map[string]func(*jsonschema.Schema){
		"space":               func(p *jsonschema.Schema) { p.Pattern = realm.SpacePattern },
		"query":               bytes(realm.MaxRecallQueryLen),
		"k":                   between(0, realm.MaxRecallK),
		"max_depth":           between(0, realm.MaxRecallDepth),
		"min_score":           between(0, 1),
		"messages":            func(p *jsonschema.Schema) { p.MinItems, p.MaxItems = &one, &batch },
		"content":             bytes(construction.DefaultOptions().MaxContent),
		"speaker":             characters(maxNameLen),
		"role":                characters(maxNameLen),
		"session_id":          characters(realm.MaxSessionIDLen),
		"session_ids":         characters(realm.MaxSessionIDLen),
		"id":                  id,
		"memory_id":           id,
		"observation_id":      id,
		"replaces":            id,
		"trace_id":            id,
		"useful_node_ids":     id,
		"misleading_node_ids": id,
		"answer":              bytes(realm.MaxFeedbackAnswerLen),
		"about": func(p *jsonschema.Schema) {
			most, longest := maxForgetPhrases, maxForgetPhraseRunes
			p.MinItems, p.MaxItems, p.Items.MinLength, p.Items.MaxLength = &one, &most, &one, &longest
		},
		"strategy": func(p *jsonschema.Schema) {
			p.Enum = []any{string(realm.Adaptive), string(realm.StrategyPath), string(realm.StrategyBeam)}
		},
		"types": func(p *jsonschema.Schema) {
			p.Items.Enum = []any{string(realm.Event), string(realm.Fact), string(realm.Entity), string(realm.Episode)}
		},
	}
}()

// boundArguments sets the bounds of every argument of schema (argumentBounds), and of the
// items of each list of a recall's filters.
func boundArguments(schema *jsonschema.Schema) {
	for name, p := range schema.Properties {
		if bound, ok := argumentBounds[name]; ok {
			bound(p)
		}
		if p.Items != nil && p.Items.Properties != nil { // the messages
			boundArguments(p.Items)
		}
	}
	if f := schema.Properties["filters"]; f != nil {
		boundArguments(f)
		one, most := 1, realm.MaxFilterItems
		for _, p := range f.Properties {
			if p.Items != nil {
				p.MinItems, p.MaxItems = &one, &most
			}
		}
	}
}

// argumentErrors says, argument by argument, why args do not fit schema, in the words
// of the schema's bounds ("k": "must be an integer from 0 to 100") rather than a
// validator's, which name Go types or quote the value, however long.
func argumentErrors(schema *jsonschema.Schema, args map[string]any) realm.FieldErrors {
	fe := realm.FieldErrors{}
	if schema != nil { // a tool added without addTool has none here
		objectErrors(fe, "", schema, args)
	}
	return fe
}

func objectErrors(fe realm.FieldErrors, path string, schema *jsonschema.Schema, obj map[string]any) {
	for _, name := range schema.Required {
		if _, ok := obj[name]; !ok {
			fe.Add(joinPath(path, name), "required")
		}
	}
	for _, name := range slices.Sorted(maps.Keys(obj)) {
		if p, ok := schema.Properties[name]; ok {
			valueErrors(fe, joinPath(path, name), p, obj[name])
		} else {
			fe.Add(joinPath(path, name), "unknown argument")
		}
	}
}

// valueErrors adds to fe why v does not fit p, at path: in the items or properties that
// do not fit when v is a list or an object of the right size, else what p asks for.
func valueErrors(fe realm.FieldErrors, path string, p *jsonschema.Schema, v any) {
	resolved, err := p.Resolve(nil)
	if err != nil || resolved.Validate(v) == nil {
		return
	}
	before := len(fe)
	switch v := v.(type) {
	case []any:
		if p.Items != nil && (p.MinItems == nil || len(v) >= *p.MinItems) && (p.MaxItems == nil || len(v) <= *p.MaxItems) {
			for i, item := range v {
				valueErrors(fe, fmt.Sprintf("%s[%d]", path, i), p.Items, item)
			}
		}
	case map[string]any:
		if p.Properties != nil {
			objectErrors(fe, path, p, v)
		}
	}
	if len(fe) == before {
		fe.Add(path, "must be "+expected(p))
	}
}

// expected is what schema p asks for, in words.
func expected(p *jsonschema.Schema) string {
	if len(p.Enum) > 0 {
		var names []string
		for _, e := range p.Enum {
			names = append(names, fmt.Sprint(e))
		}
		return "one of " + strings.Join(names, ", ")
	}
	kind := p.Type
	for _, t := range p.Types {
		if t != "null" {
			kind = t
		}
	}
	words := map[string]string{"integer": "an integer", "number": "a number", "string": "a string",
		"boolean": "true or false", "array": "a list", "object": "an object"}[kind]
	switch {
	case p.Minimum != nil && p.Maximum != nil:
		words += fmt.Sprintf(" from %v to %v", *p.Minimum, *p.Maximum)
	case p.Pattern != "":
		words += " matching " + p.Pattern
	case p.MaxLength != nil:
		words += fmt.Sprintf(" of at most %d characters", *p.MaxLength)
	case p.MinItems != nil && p.MaxItems != nil:
		words += fmt.Sprintf(" of %d to %d items", *p.MinItems, *p.MaxItems)
	}
	return words
}
