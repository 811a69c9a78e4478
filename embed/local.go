package embed

import (
	"context"
	"path/filepath"
	"slices"
	"sync"

	"github.com/realm-memory/realm"
	ort "github.com/yalue/onnxruntime_go"
)

// Files of the model directory, as deploy/model/setup.sh writes them. The int8 model is
// the same network quantized, with the same tokenizer and dimension.
const (
	modelFile     = "model.onnx"
	quantizedFile = "model-q.onnx"
	tokenizerFile = "tokenizer.json"
	libFile       = "libonnxruntime.so"
)

// IDs of the local models, as stored with the spaces they embedded.
const (
	LocalID  = "local:all-MiniLM-L6-v2"
	LocalQID = LocalID + "-q"
)

const (
	localDim       = 384 // all-MiniLM-L6-v2's hidden size
	localMaxTokens = 256 // sentence-transformers' max_seq_length for this model
	localBatch     = 32
)

// LocalConfig configures the local embedder.
type LocalConfig struct {
	ModelDir  string // holds model.onnx (model-q.onnx), tokenizer.json and (unless LibPath) libonnxruntime.so
	LibPath   string // libonnxruntime.so; default ModelDir/libonnxruntime.so
	Threads   int    // intra-op threads; 0 leaves ONNX Runtime's default (one per core)
	BatchSize int    // texts per model run; default 32
	// Quantized runs the int8 model (model-q.onnx): about 2.5 times less CPU per text, a
	// different ID, so that spaces embedded by one model are never searched with the other.
	Quantized bool
}

// Local runs all-MiniLM-L6-v2 in process with ONNX Runtime: WordPiece tokens, the
// transformer, mean pooling over the attention mask, L2 normalisation — what
// sentence-transformers does for this model. Safe for concurrent use.
type Local struct {
	tok     *wordPiece
	session *ort.DynamicAdvancedSession
	batch   int
	id      string
}

// ONNX Runtime has one environment per process (onnxruntime_go keeps it in a package
// variable), so the first Local initialises it and later ones share it; ortMu guards that.
var (
	ortMu  sync.Mutex
	ortLib string
)

func initORT(lib string) error {
	ortMu.Lock()
	defer ortMu.Unlock()
	if ort.IsInitialized() {
		if lib != ortLib {
			return errorf("ONNX Runtime already loaded from %s, cannot also load %s", ortLib, lib)
		}
		return nil
	}
	ort.SetSharedLibraryPath(lib)
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		return errorf("loading ONNX Runtime from %s: %v", lib, err)
	}
	ortLib = lib
	return nil
}

// NewLocal loads the tokenizer, ONNX Runtime and the model. When the files are missing the
// error names the setup command.
func NewLocal(cfg LocalConfig) (*Local, error) {
	if cfg.ModelDir == "" {
		return nil, realm.Errorf(realm.ENotSupported, "embed: local: no model directory configured (REALM_MODEL_DIR)")
	}
	lib := cfg.LibPath
	if lib == "" {
		lib = filepath.Join(cfg.ModelDir, libFile)
	}
	model, id := modelFile, LocalID
	if cfg.Quantized {
		model, id = quantizedFile, LocalQID
	}
	if !filesPresent(filepath.Join(cfg.ModelDir, model), filepath.Join(cfg.ModelDir, tokenizerFile), lib) {
		return nil, realm.Errorf(realm.ENotSupported,
			"embed: local model %s not installed in %s (or no %s): run %s (or set REALM_EMBEDDER=hash|openai)", model, cfg.ModelDir, lib, SetupCommand)
	}
	tok, err := loadWordPiece(filepath.Join(cfg.ModelDir, tokenizerFile), localMaxTokens)
	if err != nil {
		return nil, err
	}
	if err := initORT(lib); err != nil {
		return nil, err
	}
	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, errorf("session options: %v", err)
	}
	defer opts.Destroy()
	if cfg.Threads > 0 {
		if err := opts.SetIntraOpNumThreads(cfg.Threads); err != nil {
			return nil, errorf("intra-op threads: %v", err)
		}
	}
	// Idle intra-op threads sleep instead of spinning: on cores shared with Neo4j and
	// other requests a spinning thread takes the CPU the others wait for (a batch of 32
	// took 0.6–1.0 s instead of 1.3–1.6 s on 2 loaded cores, embed/BENCHMARKS.md).
	if err := opts.AddSessionConfigEntry("session.intra_op.allow_spinning", "0"); err != nil {
		return nil, errorf("intra-op spinning: %v", err)
	}
	// One graph, run operator by operator: inter-op parallelism only adds threads.
	if err := opts.SetInterOpNumThreads(1); err != nil {
		return nil, errorf("inter-op threads: %v", err)
	}
	session, err := ort.NewDynamicAdvancedSession(filepath.Join(cfg.ModelDir, model),
		[]string{"input_ids", "attention_mask", "token_type_ids"}, []string{"last_hidden_state"}, opts)
	if err != nil {
		return nil, errorf("loading %s: %v", model, err)
	}
	batch := cfg.BatchSize
	if batch <= 0 {
		batch = localBatch
	}
	return &Local{tok: tok, session: session, batch: batch, id: id}, nil
}

// ID names the model: LocalID, or LocalQID for the int8 one.
func (l *Local) ID() string { return l.id }

// Dim is 384.
func (l *Local) Dim() int { return localDim }

// Close frees the model. The process-wide ONNX Runtime environment stays loaded.
func (l *Local) Close() error { return l.session.Destroy() }

// Embed tokenizes all texts, runs them through the model in batches of similar length
// (padding only to the longest of a batch wastes little) and returns them in input order.
func (l *Local) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	ids := make([][]int64, len(texts))
	for i, text := range texts {
		ids[i] = l.tok.encode(text)
	}
	order := make([]int, len(texts))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(ids[a]) - len(ids[b]) })

	out := make([][]float32, len(texts))
	for start, end := 0, 0; start < len(order); start = end {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		end = start + 1
		for end < len(order) && end-start < l.batch && len(ids[order[end]]) <= padLimit(len(ids[order[start]])) {
			end++
		}
		chunk := order[start:end]
		batch := make([][]int64, len(chunk))
		for j, i := range chunk {
			batch[j] = ids[i]
		}
		vecs, err := l.run(ctx, batch)
		if err != nil {
			return nil, err
		}
		for j, i := range chunk {
			out[i] = vecs[j]
		}
	}
	return out, nil
}

// padLimit is the longest text a batch whose shortest has n tokens takes: every text is
// padded to the batch's longest, and the model's cost grows with the padded length, so
// that a call of a few texts of mixed lengths (a run's candidates, a message's) would
// pay for padding what sorting a large call by length spares (a quarter more CPU for
// 168 texts in four calls than in one, embed/BENCHMARKS.md).
func padLimit(n int) int { return n + n/4 + 4 }

// run embeds one batch of token id sequences, padded with 0 ([PAD]) to the longest.
func (l *Local) run(ctx context.Context, batch [][]int64) ([][]float32, error) {
	n, seq := len(batch), 0
	for _, ids := range batch {
		seq = max(seq, len(ids))
	}
	inputIDs := make([]int64, n*seq)
	mask := make([]int64, n*seq)
	for j, ids := range batch {
		copy(inputIDs[j*seq:], ids)
		for k := range ids {
			mask[j*seq+k] = 1
		}
	}
	shape := ort.NewShape(int64(n), int64(seq))
	idsT, err := ort.NewTensor(shape, inputIDs)
	if err != nil {
		return nil, errorf("input tensor: %v", err)
	}
	defer idsT.Destroy()
	maskT, err := ort.NewTensor(shape, mask)
	if err != nil {
		return nil, errorf("mask tensor: %v", err)
	}
	defer maskT.Destroy()
	typesT, err := ort.NewTensor(shape, make([]int64, n*seq)) // one segment: all zeros
	if err != nil {
		return nil, errorf("type tensor: %v", err)
	}
	defer typesT.Destroy()
	hiddenT, err := ort.NewEmptyTensor[float32](ort.NewShape(int64(n), int64(seq), localDim))
	if err != nil {
		return nil, errorf("output tensor: %v", err)
	}
	defer hiddenT.Destroy()

	// A cancelled ctx terminates the run in ONNX Runtime rather than waiting for it.
	runOpts, err := ort.NewRunOptions()
	if err != nil {
		return nil, errorf("run options: %v", err)
	}
	defer runOpts.Destroy()
	stop := context.AfterFunc(ctx, func() { runOpts.Terminate() })
	err = l.session.RunWithOptions([]ort.Value{idsT, maskT, typesT}, []ort.Value{hiddenT}, runOpts)
	stop()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, errorf("running the model: %v", err)
	}

	// Mean pooling over the real tokens (the mask), then unit length.
	hidden := hiddenT.GetData()
	vecs := make([][]float32, n)
	for j, ids := range batch {
		v := make([]float32, localDim)
		for k := range ids {
			row := hidden[(j*seq+k)*localDim : (j*seq+k+1)*localDim]
			for d, x := range row {
				v[d] += x
			}
		}
		inv := 1 / float32(len(ids))
		for d := range v {
			v[d] *= inv
		}
		normalize(v)
		vecs[j] = v
	}
	return vecs, nil
}
