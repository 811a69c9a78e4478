package construction

import (
	"context"
	"fmt"
	"sync"
)

// embedCacheSize bounds the texts whose vectors a pipeline remembers (384 floats each:
// 6 MiB for MiniLM).
const embedCacheSize = 4096

// embedCache remembers the vectors of recent texts: a conversation repeats many candidate
// texts (a speaker's entity, the session's episode) every turn, and a text's vector is
// the same whenever it is embedded (with the int8 model, local-q, nearly: it quantizes a
// batch's activations together, so a text's vector moves by a cosine of about 0.01 with
// the texts embedded beside it, and the cached one is as good as another).
type embedCache struct {
	mu    sync.Mutex
	vecs  map[string][]float32
	order []string // the texts, oldest first: the first ones go when it is full
}

// embed returns the vectors of texts, in order, asking the embedder once, for the texts
// it has not seen lately, each once.
func (p *Pipeline) embed(ctx context.Context, texts []string) ([][]float32, error) {
	c := &p.embeds
	out := make([][]float32, len(texts))
	var missing []string
	at := map[string][]int{} // missing text → its indexes in texts
	c.mu.Lock()
	for i, t := range texts {
		if v, ok := c.vecs[t]; ok {
			out[i] = v
			continue
		}
		if _, ok := at[t]; !ok {
			missing = append(missing, t)
		}
		at[t] = append(at[t], i)
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	vecs, err := p.emb.Embed(ctx, missing)
	if err != nil {
		return nil, err
	}
	if len(vecs) != len(missing) {
		return nil, fmt.Errorf("%d vectors for %d texts", len(vecs), len(missing))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.vecs == nil {
		c.vecs = map[string][]float32{}
	}
	for j, t := range missing {
		for _, i := range at[t] {
			out[i] = vecs[j]
		}
		if _, ok := c.vecs[t]; ok {
			continue
		}
		if len(c.order) == embedCacheSize {
			delete(c.vecs, c.order[0])
			c.order = c.order[1:]
		}
		c.vecs[t] = vecs[j]
		c.order = append(c.order, t)
	}
	return out, nil
}
