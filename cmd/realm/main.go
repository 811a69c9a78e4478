// Command realm is REALM's one binary: serve | schema apply | version (see usage).
// main only parses the process's surroundings and calls run, which tests call too.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/realm-memory/realm"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args, os.Getenv, os.Stdout); err != nil {
		// One line: the domain error's message, which names the setting to fix.
		msg := err.Error()
		var e *realm.Error
		if errors.As(err, &e) {
			msg = e.Message
		}
		fmt.Fprintln(os.Stderr, "realm:", msg)
		os.Exit(1)
	}
}
