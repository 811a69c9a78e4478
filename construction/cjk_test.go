package construction_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/construction"
	"github.com/realm-memory/realm/cypher/cyphertest"
)

// TestLongUnspacedMessage: a long Chinese or Japanese message, one unspaced word of
// hundreds of the analyzer's tokens, is integrated: its keyword neighbours are searched
// a character at a time, within Lucene's clause limit.
func TestLongUnspacedMessage(t *testing.T) {
	store := cyphertest.MustOpen(t)
	var chinese, japanese strings.Builder
	for i := range 150 {
		fmt.Fprintf(&chinese, "我今天去了第%d个公园。", i)
	}
	for i := range 30 {
		fmt.Fprintf(&japanese, "%d番目の文です。今日は友達と公園に行きました！", i)
	}
	for _, text := range []string{chinese.String(), japanese.String()} {
		obs := []realm.Observation{{ID: "m1", SessionID: "s1", Speaker: "李伟", Content: text, ObservedAt: t0}}
		results, _ := ingestSession(t, store, obs, 1)
		if r := results[0]; r.Status != construction.StatusIntegrated || len(r.Added) == 0 {
			t.Errorf("%d characters: %+v, want integrated", len([]rune(text)), r)
		}
	}
}
