package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/realm-memory/realm"
)

// A JSON request body is read in two passes before it reaches its Go type (decode):
//
//  1. readJSON parses it token by token into plain values, refusing what encoding/json
//     would take in silently: a lone UTF-16 surrogate (\udbff, which it turns into U+FFFD),
//     NUL (\u0000), bytes that are not UTF-8, null, which no request field allows, and a
//     field given twice in one object, of which it would keep the last.
//  2. checkShape compares those values with the Go type: an unknown field, a value of the
//     wrong JSON type, a time that is not RFC 3339 or outside minYear..maxYear. A number
//     with a fraction of zero or an exponent (35.0, 3.5e1) is an integer, as JSON Schema
//     says.
//
// Each failure is named by its field, as openapi.yaml's `fields` promises
// (messages[2].content), in the API's words: never a Go type or struct name.

// The years a time in a request may fall in: the four-digit years of RFC 3339 without
// the year 0000, which is 1 BC in ISO 8601 and no year at all in most calendars.
const (
	minYear = 1
	maxYear = 9999
)

// maxDepth bounds how deeply a request body nests arrays and objects: no request needs
// more than a few levels, and each level costs the reader a frame and a field path.
const maxDepth = 64

// readJSON parses one JSON value from b into nil, bool, string, json.Number, []any and
// map[string]any, reporting bad text, and nulls unless nullsOK, in fe.
func readJSON(b []byte, nullsOK bool, fe realm.FieldErrors) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	r := &jsonReader{dec: dec, raw: b, nullsOK: nullsOK, fe: fe}
	v, err := r.value("", 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, realm.Errorf(realm.EInvalid, "request body holds more than one JSON value")
	}
	return v, nil
}

type jsonReader struct {
	dec     *json.Decoder
	raw     []byte
	nullsOK bool
	fe      realm.FieldErrors
}

// value reads the value at path, depth levels of arrays and objects deep.
func (r *jsonReader) value(path string, depth int) (any, error) {
	start := r.dec.InputOffset()
	tok, err := r.dec.Token()
	if err != nil {
		return nil, syntaxErr(err)
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth == maxDepth {
			return nil, realm.Errorf(realm.EInvalid, "request body nests arrays and objects more than %d deep (at byte %d)", maxDepth, start)
		}
		if t == '[' {
			list := []any{}
			for i := 0; r.dec.More(); i++ {
				v, err := r.value(fmt.Sprintf("%s[%d]", path, i), depth+1)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := r.dec.Token() // ]
			return list, syntaxErr(err)
		}
		obj := map[string]any{}
		for r.dec.More() {
			keyStart := r.dec.InputOffset()
			k, err := r.dec.Token()
			if err != nil {
				return nil, syntaxErr(err)
			}
			key := k.(string)
			field := joinPath(path, key)
			r.checkText(field, r.raw[keyStart:r.dec.InputOffset()])
			if _, twice := obj[key]; twice {
				r.fe.Add(fieldName(field), "given twice: give each field once")
			}
			if obj[key], err = r.value(field, depth+1); err != nil {
				return nil, err
			}
		}
		_, err := r.dec.Token() // }
		return obj, syntaxErr(err)
	case string:
		r.checkText(path, r.raw[start:r.dec.InputOffset()])
		return t, nil
	case nil:
		if r.nullsOK {
			return nil, nil
		}
		r.fe.Add(fieldName(path), "must not be null: leave the field out instead")
		return nil, nil
	default: // bool, json.Number
		return t, nil
	}
}

// checkText refuses, in the raw JSON of one string (and the delimiters before it),
// NUL, lone surrogates and bytes that are not UTF-8.
func (r *jsonReader) checkText(path string, raw []byte) {
	if !utf8.Valid(raw) {
		r.fe.Add(fieldName(path), "not valid UTF-8")
		return
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' || i+1 >= len(raw) {
			continue
		}
		i++ // the escaped character
		if raw[i] != 'u' || i+4 >= len(raw) {
			continue
		}
		code, err := strconv.ParseUint(string(raw[i+1:i+5]), 16, 16)
		if err != nil {
			continue
		}
		i += 4
		switch {
		case code == 0:
			r.fe.Add(fieldName(path), "must not contain NUL (\\u0000)")
			return
		case code >= 0xD800 && code <= 0xDBFF: // a high surrogate needs a low one next
			if i+6 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
				if low, err := strconv.ParseUint(string(raw[i+3:i+7]), 16, 16); err == nil && low >= 0xDC00 && low <= 0xDFFF {
					i += 6
					continue
				}
			}
			r.fe.Add(fieldName(path), "holds a lone UTF-16 surrogate: not a Unicode character")
			return
		case code >= 0xDC00 && code <= 0xDFFF:
			r.fe.Add(fieldName(path), "holds a lone UTF-16 surrogate: not a Unicode character")
			return
		}
	}
}

// syntaxErr words a JSON syntax error for the client.
func syntaxErr(err error) error {
	var syntax *json.SyntaxError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &syntax):
		return realm.Errorf(realm.EInvalid, "request body is not valid JSON: %v (at byte %d)", syntax, syntax.Offset)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return realm.Errorf(realm.EInvalid, "request body is not valid JSON: it ends too early")
	default:
		return realm.Errorf(realm.EInvalid, "request body is not valid JSON")
	}
}

var (
	timeType       = reflect.TypeFor[time.Time]()
	maxInt, minInt = new(big.Float).SetInt64(1<<63 - 1), new(big.Float).SetInt64(-1 << 63)
)

// checkShape checks v against the Go type t that it is to be decoded into, reporting
// each mismatch in fe, and returns v with integral numbers written as integers.
func checkShape(v any, t reflect.Type, path string, fe realm.FieldErrors) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if v == nil { // null, already reported
		return v
	}
	wrong := func() any {
		fe.Add(fieldName(path), "must be "+jsonKind(t))
		return v
	}
	if t == timeType {
		s, ok := v.(string)
		if !ok {
			return wrong()
		}
		if msg := timeErr(s); msg != "" {
			fe.Add(fieldName(path), msg)
		}
		return v
	}
	switch v := v.(type) {
	case bool:
		if t.Kind() != reflect.Bool && t.Kind() != reflect.Interface {
			return wrong()
		}
	case string:
		if t.Kind() != reflect.String && t.Kind() != reflect.Interface {
			return wrong()
		}
	case json.Number:
		switch t.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			f, _, err := big.ParseFloat(string(v), 10, 256, big.ToNearestEven)
			if err != nil || !f.IsInt() || f.Cmp(minInt) < 0 || f.Cmp(maxInt) > 0 {
				return wrong()
			}
			n, _ := f.Int64()
			return json.Number(strconv.FormatInt(n, 10))
		case reflect.Float32, reflect.Float64:
			if _, err := strconv.ParseFloat(string(v), t.Bits()); err != nil { // 1e400: beyond a float
				return wrong()
			}
		case reflect.Interface:
		default:
			return wrong()
		}
	case []any:
		if t.Kind() != reflect.Slice && t.Kind() != reflect.Interface {
			return wrong()
		}
		if t.Kind() == reflect.Slice {
			for i := range v {
				v[i] = checkShape(v[i], t.Elem(), fmt.Sprintf("%s[%d]", path, i), fe)
			}
		}
	case map[string]any:
		switch t.Kind() {
		case reflect.Struct:
			fields := jsonFields(t)
			for k := range v {
				f, ok := fields[k]
				if !ok {
					fe.Add(joinPath(path, k), "unknown field")
					continue
				}
				v[k] = checkShape(v[k], f.Type, joinPath(path, k), fe)
			}
		case reflect.Map:
			for k := range v {
				v[k] = checkShape(v[k], t.Elem(), joinPath(path, k), fe)
			}
		case reflect.Interface:
		default:
			return wrong()
		}
	}
	return v
}

// timeErr says why s is not a time a request may carry, or "".
func timeErr(s string) string {
	t, err := time.Parse(time.RFC3339, s)
	switch {
	case err != nil:
		return "not an RFC 3339 time (e.g. 2023-05-08T13:56:00Z)"
	case t.Year() < minYear || t.Year() > maxYear:
		return fmt.Sprintf("must fall in the years %04d to %d", minYear, maxYear)
	}
	return ""
}

// jsonFields are the fields of struct type t by JSON name, those of embedded structs
// included, as encoding/json sees them.
func jsonFields(t reflect.Type) map[string]reflect.StructField {
	fields := map[string]reflect.StructField{}
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || f.Anonymous && f.Type.Kind() == reflect.Struct && f.Tag.Get("json") == "" {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = f
	}
	return fields
}

// jsonKind names the JSON value Go type t takes.
func jsonKind(t reflect.Type) string {
	switch {
	case t == timeType:
		return "an RFC 3339 time (a string)"
	case t.Kind() == reflect.Bool:
		return "true or false"
	case t.Kind() == reflect.String:
		return "a string"
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64:
		return "an integer"
	case t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64:
		return "a number"
	case t.Kind() == reflect.Slice:
		return "an array"
	}
	return "an object"
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// fieldName is the name a field error goes under; the body itself is "body".
func fieldName(path string) string {
	if path == "" {
		return "body"
	}
	return path
}
