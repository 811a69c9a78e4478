package ctxtime

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestSleep(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		d    time.Duration
		want error
	}{
		{"OK", context.Background(), time.Millisecond, nil},
		{"Zero", context.Background(), 0, nil},
		{"Negative", context.Background(), -time.Second, nil},
		{"CancelledZero", cancelled, 0, context.Canceled},
		// An hour-long wait on a cancelled context returns at once with its error; were
		// it to wait, the test would time out rather than pass.
		{"CancelledLong", cancelled, time.Hour, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := Sleep(tt.ctx, tt.d); !errors.Is(err, tt.want) {
				t.Fatalf("Sleep(%v) = %v, want %v", tt.d, err, tt.want)
			}
		})
	}
}

func TestSleepDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	if err := Sleep(ctx, time.Hour); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Sleep past the deadline = %v, want %v", err, context.DeadlineExceeded)
	}
}
