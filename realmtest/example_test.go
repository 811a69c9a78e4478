package realmtest_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"net/http"

	"github.com/realm-memory/realm/realmtest"
)

// A downstream project's integration test starts REALM and Neo4j once, then talks to
// REALM over HTTP with the key. In a test, realmtest.Run(t, opts) does the same and
// terminates the containers when the test ends (TestRun in realmtest_docker_test.go).
func Example() {
	ctx := context.Background()
	r, err := realmtest.Start(ctx, realmtest.Options{})
	if r != nil {
		defer r.Terminate(ctx)
	}
	if err != nil {
		log.Fatal(err)
	}
	body := `{"messages": [{"speaker": "Ana", "content": "I moved to Lisbon in May.", "timestamp": "2024-05-02T10:00:00Z"}]}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, r.URL+"/v1/spaces/demo/observations", bytes.NewBufferString(body))
	req.Header.Set("Authorization", "Bearer "+r.Key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	resp.Body.Close()
	fmt.Println(resp.Status)
}
