package transfer

import (
	"bufio"
	"io"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
)

// TestReadHeader: the first line is read, and nothing after it, and checked as the
// validation of a whole file checks it.
func TestReadHeader(t *testing.T) {
	opts := Options{Embedder: "hash:v1", Dims: 8}
	header := `{"kind":"space","format":"realm-space","version":1,"space":"s1","embedder":"hash:v1","dims":8,"props":{}}` + "\n"
	tests := []struct {
		name, body string
		code       string // "": accepted
		want       string
	}{
		{"OK", header + `{"kind":"end","counts":{}}` + "\n", "", ""},
		{"ErrEmpty", "", realm.EInvalid, "the file is empty"},
		{"ErrJunk", "junk, no export\n" + header, realm.EInvalid, "line 1: not a JSON record"},
		{"ErrBlankFirst", "\n" + header, realm.EInvalid, "line 1: not a JSON record"},
		{"ErrNotSpace", `{"kind":"end","counts":{}}` + "\n", realm.EInvalid, `begins with a "space" record`},
		{"ErrFormat", strings.Replace(header, "realm-space", "other", 1), realm.EInvalid, "not a REALM space export"},
		{"ErrEmbedder", strings.Replace(header, `"embedder":"hash:v1"`, `"embedder":"local:other"`, 1), realm.EConflict, "local:other"},
		{"ErrLong", strings.Repeat("x", maxHeaderLine+1), realm.EInvalid, "line 1: longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := bufio.NewReader(strings.NewReader(tt.body))
			line, err := ReadHeader(r, opts)
			if tt.code != "" {
				if realm.ErrorCode(err) != tt.code || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("err %v, want %s saying %q", err, tt.code, tt.want)
				}
				return
			}
			rest, _ := io.ReadAll(r)
			if err != nil || string(line) != header || string(line)+string(rest) != tt.body {
				t.Fatalf("line %q, rest %q, err %v: want the header alone, the rest unread", line, rest, err)
			}
		})
	}
}
