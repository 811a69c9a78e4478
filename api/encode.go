package api

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/realm-memory/realm"
)

// validator is implemented by request types that check themselves after decoding.
type validator interface {
	Valid() error
}

// decode reads a JSON body into v (unknown fields refused) and validates it.
func decode[T any](r *http.Request) (T, error) {
	var v T
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		var tooLarge *http.MaxBytesError
		switch {
		case errors.As(err, &tooLarge):
			return v, realm.Errorf(realm.ETooLarge, "request body exceeds %d bytes", tooLarge.Limit)
		case errors.Is(err, io.EOF):
			return v, realm.Errorf(realm.EInvalid, "request body is empty; a JSON object is expected")
		default:
			return v, realm.Errorf(realm.EInvalid, "request body is not valid JSON for this endpoint: %v", err)
		}
	}
	if dec.More() {
		return v, realm.Errorf(realm.EInvalid, "request body holds more than one JSON value")
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
