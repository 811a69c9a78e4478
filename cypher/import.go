package cypher

import (
	"context"
	_ "embed"
	"io"
	"time"

	"github.com/realm-memory/realm"
)

var (
	//go:embed queries/import_props.cypher
	importPropsCypher string
	qImportProps      = newQuery("import_props", importPropsCypher)

	//go:embed queries/space_import_mark.cypher
	spaceImportMarkCypher string
	qSpaceImportMark      = newQuery("space_import_mark", spaceImportMarkCypher)
)

// Import is an import into a space, which it holds from BeginImport until Run or Abandon
// returns: meanwhile the space refuses ingest (SaveObservations), recall and answer
// (CheckNotImporting) with EConflict, so nothing is read from a half-written space and
// nothing sent to it is taken in and then erased by the import.
type Import struct {
	im          *importer
	stopRenewal context.CancelFunc
	renewed     chan struct{} // closed when the renewal has stopped
}

// BeginImport claims space, which must be empty, for an import (see ImportSpace), before
// its file is read: a client uploading a large file learns of a conflict at once, and
// the space is held during the upload. The hold is renewed in the background until Run
// or Abandon; one of them must be called. What an interrupted import left in the space
// is erased here. Errors: EConflict (the space is not empty or is being imported),
// EUnavailable.
func (s *Store) BeginImport(ctx context.Context, space string) (*Import, error) {
	im := &importer{store: s, space: space, id: newImportID()}
	interrupted, err := im.begin(ctx)
	if err != nil {
		return nil, err
	}
	if interrupted {
		if err := im.wipe(ctx); err != nil {
			im.abandon(ctx)
			return nil, err
		}
	}
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	imp := &Import{im: im, stopRenewal: cancel, renewed: make(chan struct{})}
	go imp.renew(rctx)
	return imp, nil
}

// renew extends the hold on the space well before its lease ends, while the file is
// uploaded or read (batches renew it too).
func (imp *Import) renew(ctx context.Context) {
	defer close(imp.renewed)
	tick := time.NewTicker(importLease / 4)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			// A failure is not fatal here: the next batch's renewal says whether the hold was lost.
			_, _ = imp.im.store.write(ctx, qImportRenew, map[string]any{
				"space": imp.im.space, "import": imp.im.id, "until": time.Now().UTC().Add(importLease)})
		}
	}
}

func (imp *Import) stop() {
	imp.stopRenewal()
	<-imp.renewed
}

// Run imports the export that open opens (see ImportSpace) into the space BeginImport
// claimed, and releases it. Errors: as ImportSpace's.
func (imp *Import) Run(ctx context.Context, open func() (io.ReadCloser, error), opts ImportOptions) (ImportResult, error) {
	defer imp.stop()
	if opts.MaxLine <= 0 {
		opts.MaxLine = DefaultMaxImportLine
	}
	im := imp.im
	res := ImportResult{Space: im.space}
	scan, err := scanImport(open, opts)
	if err == nil {
		res.SourceSpace, res.IDsRewritten, res.Counts = scan.header.Space, scan.header.Space != im.space, scan.counts
		im.scan, im.rw = scan, rewriter{from: scan.header.Space, to: im.space, on: res.IDsRewritten}
		err = im.setProps(ctx, opts)
	}
	if err == nil {
		err = im.write(ctx, open, opts)
	}
	if err == nil {
		err = im.finish(ctx)
	}
	if err != nil {
		im.abandon(ctx)
		return res, err
	}
	return res, nil
}

// Abandon gives up an import that was begun but will not run (its upload failed): what
// it holds is erased, the space's node with it.
func (imp *Import) Abandon(ctx context.Context) {
	imp.stop()
	imp.im.abandon(ctx)
}

// ImportSpace imports an export (see ExportFormat) into space, which must be empty.
// open is called twice: the first reading validates every line, and a bad line refuses
// the whole import with its number before anything of the file is written (EInvalid,
// Fields["line"]); the second writes, in batches of one transaction each, under a mark on
// the space that the batches renew. If writing fails, what was written is erased before
// returning; if even that fails (Neo4j gone), the mark stays and the next import into the
// space erases it, so a space is never left half imported unnoticed. An export of another
// space is imported with new ids (see ImportResult). It is BeginImport, then Run.
// Errors: EInvalid (a bad line), EConflict (the space is not empty, is being imported,
// or the file's embedder is not opts'), EUnavailable.
func (s *Store) ImportSpace(ctx context.Context, space string, open func() (io.ReadCloser, error), opts ImportOptions) (ImportResult, error) {
	imp, err := s.BeginImport(ctx, space)
	if err != nil {
		return ImportResult{Space: space}, err
	}
	return imp.Run(ctx, open, opts)
}

// CheckNotImporting returns EConflict when space is marked by an import: one running, or
// one interrupted that left it incomplete. Recall and answer call it first.
// Errors: EConflict, EUnavailable.
func (s *Store) CheckNotImporting(ctx context.Context, space string) error {
	recs, err := s.read(ctx, qSpaceImportMark, map[string]any{"space": space})
	if err != nil || len(recs) == 0 {
		return err
	}
	return importRefusal(space, valueOf(recs[0], "import_id"), valueOf(recs[0], "import_until"))
}

// importRefusal is the error of a request into a space that carries the import mark
// (mark, until), nil when it carries none.
func importRefusal(space string, mark, until any) error {
	switch {
	case mark == nil:
		return nil
	case timeOf(until).After(time.Now()):
		return realm.Errorf(realm.EConflict,
			"an import into space %q is running: ingest, recall and answer are refused until it ends; retry then", space)
	default:
		return realm.Errorf(realm.EConflict,
			"an import into space %q was interrupted and left it incomplete: import the file again (what it left is erased first) "+
				"or erase the space (DELETE /v1/spaces/%s)", space, space)
	}
}
