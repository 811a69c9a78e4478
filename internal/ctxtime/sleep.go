package ctxtime

import (
	"context"
	"time"
)

// Sleep waits for d or until ctx is done, whichever comes first. It returns nil after a
// full wait and ctx.Err() otherwise; a d <= 0 does not wait and returns ctx.Err(), so a
// retry loop whose context is already cancelled stops at once.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
