package cyphertest

import (
	"testing"
	"time"
)

// TestConfigTimeouts: the tests' Neo4j settings take the timeouts of the environment, as
// realm serve does (a loaded machine sets a longer NEO4J_ANSWER_TIMEOUT).
func TestConfigTimeouts(t *testing.T) {
	t.Setenv("NEO4J_ANSWER_TIMEOUT", "42s")
	t.Setenv("NEO4J_RETRY_TIME", "2m")
	if c := Config(); c.AnswerTimeout != 42*time.Second || c.RetryTime != 2*time.Minute {
		t.Errorf("answer timeout %s, retry time %s, want 42s and 2m from the environment", c.AnswerTimeout, c.RetryTime)
	}
}
