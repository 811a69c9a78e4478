package schema

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

//go:embed migrations/*.cypher
var files embed.FS

// Migration is one schema statement, identified by its file's number.
type Migration struct {
	Version   int
	Name      string
	Statement string
}

// Migrations returns every migration in order, with the vector dimension filled in;
// filtered makes the vector index hold the space for a search filtered inside it
// (Neo4j 2026.x).
func Migrations(dims int, filtered bool) ([]Migration, error) {
	if dims <= 0 {
		return nil, fmt.Errorf("schema: vector dimension must be positive, got %d", dims)
	}
	names, err := fs.Glob(files, "migrations/*.cypher")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []Migration
	for _, path := range names {
		base := strings.TrimSuffix(strings.TrimPrefix(path, "migrations/"), ".cypher")
		num, name, ok := strings.Cut(base, "_")
		version, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("schema: migration file %q is not named NNNN_name.cypher", path)
		}
		text, err := files.ReadFile(path)
		if err != nil {
			return nil, err
		}
		cypher, filter := "", ""
		if filtered {
			cypher, filter = "CYPHER 25 ", " WITH [m.space]"
		}
		stmt := strings.NewReplacer("{{dims}}", strconv.Itoa(dims), "{{cypher}}", cypher, "{{vector_filter}}", filter).Replace(string(text))
		out = append(out, Migration{Version: version, Name: name, Statement: stmt})
	}
	for i := 1; i < len(out); i++ {
		if out[i].Version == out[i-1].Version {
			return nil, fmt.Errorf("schema: two migrations numbered %d", out[i].Version)
		}
	}
	return out, nil
}
