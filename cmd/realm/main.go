// Command realm is REALM's one binary: serve | schema apply | version (see usage).
// main only parses the process's surroundings and calls run, which tests call too.
package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	_ "time/tzdata" // REALM_TIME_ZONE names resolve where the system has no zoneinfo (containers)

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The store logs through zerolog's global logger (to stderr), which prints every
	// level unless told otherwise: the same level as the server's log (an invalid one is
	// reported by the config).
	if lvl, err := zerolog.ParseLevel(cmp.Or(os.Getenv("REALM_LOG_LEVEL"), "info")); err == nil {
		zerolog.SetGlobalLevel(lvl)
	}
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
