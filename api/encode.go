package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"

	"github.com/realm-memory/realm"
)

// validator is implemented by request types that check themselves after decoding.
type validator interface {
	Valid() error
}

// decode reads a JSON body into v and validates it: bad text, nulls, unknown fields and
// values of the wrong type are refused field by field (body.go), then v's own checks run.
func decode[T any](r *http.Request) (T, error) {
	var v T
	b, err := io.ReadAll(r.Body)
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return v, realm.Errorf(realm.ETooLarge, "request body exceeds %d bytes", tooLarge.Limit)
	case err != nil:
		return v, realm.Errorf(realm.EInvalid, "request body could not be read")
	case len(bytes.TrimSpace(b)) == 0:
		return v, realm.Errorf(realm.EInvalid, "request body is empty; a JSON object is expected")
	}
	return decodeJSON[T](b)
}

// decodeJSON is decode of a body already read, not empty.
func decodeJSON[T any](b []byte) (T, error) {
	var v T
	fe := realm.FieldErrors{}
	tree, err := readJSON(b, false, fe)
	if err != nil {
		return v, err
	}
	if _, ok := tree.(map[string]any); !ok && tree != nil {
		return v, realm.Errorf(realm.EInvalid, "request body must be a JSON object")
	}
	tree = checkShape(tree, reflect.TypeFor[T](), "", fe)
	if err := fe.Err(); err != nil {
		return v, err
	}
	b, err = json.Marshal(tree)
	if err == nil {
		err = json.Unmarshal(b, &v)
	}
	if err != nil { // checkShape let through what encoding/json refuses: a bug
		// The error's type, not its text, which may quote a value of the request: a 5xx's
		// message is logged.
		return v, realm.Errorf(realm.EInternal, "decoding a checked request body: %T", err)
	}
	if val, ok := any(&v).(validator); ok {
		if err := val.Valid(); err != nil {
			return v, err
		}
	}
	return v, nil
}

// encode writes v as JSON with the given status.
func encode(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = jsonEncoder(w).Encode(v)
}

func jsonEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}
