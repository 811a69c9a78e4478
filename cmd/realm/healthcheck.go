package main

import (
	"context"
	"flag"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/realm-memory/realm"
)

// runHealthcheck asks the server at REALM_ADDR for /readyz; container images have no
// curl, so the binary checks itself.
func runHealthcheck(ctx context.Context, args []string, getenv func(string) string, _ io.Writer) error {
	fs := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return realm.Errorf(realm.EInvalid, "usage: realm healthcheck (it takes no arguments)")
	}
	addr := getenv("REALM_ADDR")
	if addr == "" {
		addr = "127.0.0.1:8080"
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return realm.Errorf(realm.EInvalid, "REALM_ADDR %q is not host:port", addr)
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	ctx, cancel := context.WithTimeout(ctx, 4*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+net.JoinHostPort(host, port)+"/readyz", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return realm.Errorf(realm.EUnavailable, "not ready: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return realm.Errorf(realm.EUnavailable, "not ready: /readyz answered %d", resp.StatusCode)
	}
	return nil
}
