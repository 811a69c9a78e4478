// Package realmtest starts REALM for the integration tests of a project that uses it: a
// Neo4j container (the official neo4j image) and a REALM container (the image of REALM's
// Dockerfile), with testcontainers-go's GenericContainer. It waits until REALM's
// /readyz answers 200 and hands back REALM's URL and an API key that may do everything in
// every space.
//
//	func TestMyAgent(t *testing.T) {
//		r := realmtest.Run(t, realmtest.Options{})
//		agent := myagent.New(r.URL, r.Key) // calls /v1/spaces/{space}/observations, /recall, …
//		…
//	}
//
// Both images must be on the Docker engine or pullable: `docker build -t realm .` in
// REALM's repository builds RealmImage. Without a bridge network (a Docker engine run
// with --bridge=none) set Options.HostNetwork: both containers then share the host's
// network on free ports. Testcontainers' reaper can be turned off with
// TESTCONTAINERS_RYUK_DISABLED=true where its image cannot be pulled; Terminate (Run
// does it when the test ends) removes the containers either way.
//
// It imports testcontainers-go and the standard library, and nothing of REALM's own.
package realmtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/testcontainers/testcontainers-go"
	tcnetwork "github.com/testcontainers/testcontainers-go/network"
	"github.com/testcontainers/testcontainers-go/wait"
)

// Default images.
const (
	DefaultRealmImage = "realm:latest" // docker build -t realm . in REALM's repository
	DefaultNeo4jImage = "neo4j:5.26"
)

// Options choose the images, the network and REALM's settings; the zero value is the
// defaults.
type Options struct {
	RealmImage string // DefaultRealmImage when empty
	Neo4jImage string // DefaultNeo4jImage when empty
	// Env is added to REALM's environment (REALM_LLM, OPENAI_BASE_URL, REALM_EMBEDDER, …).
	// REALM_API_KEYS, when set, is kept and the handed-back key is added to it.
	Env map[string]string
	// HostNetwork runs both containers on the host's network, on free ports, for a Docker
	// engine without a bridge network; by default they share a new bridge network.
	HostNetwork bool
	// StartupTimeout bounds each container's start; 5 minutes when zero.
	StartupTimeout time.Duration
}

// OptionsFromEnv reads Options from REALMTEST_REALM_IMAGE, REALMTEST_NEO4J_IMAGE and
// REALMTEST_HOST_NETWORK=true, for test suites run on engines that differ (getenv is
// os.Getenv in a test).
func OptionsFromEnv(getenv func(string) string) Options {
	return Options{
		RealmImage:  getenv("REALMTEST_REALM_IMAGE"),
		Neo4jImage:  getenv("REALMTEST_NEO4J_IMAGE"),
		HostNetwork: getenv("REALMTEST_HOST_NETWORK") == "true",
	}
}

// Realm is a running REALM and its Neo4j.
type Realm struct {
	URL           string // REALM's base URL from the host, e.g. http://127.0.0.1:32771
	Key           string // an API key with the admin scope over every space
	Neo4jURI      string // Neo4j's Bolt URL from the host
	Neo4jPassword string // user neo4j

	realm, neo4j testcontainers.Container
}

// EngineAnswers returns nil when a Docker engine answers (DOCKER_HOST, the default socket,
// or testcontainers' configuration), else why not.
func EngineAnswers(ctx context.Context) (err error) {
	defer func() { // the provider panics on some missing configurations
		if r := recover(); r != nil {
			err = fmt.Errorf("no Docker engine: %v", r)
		}
	}()
	p, err := testcontainers.NewDockerProvider()
	if err != nil {
		return fmt.Errorf("no Docker engine: %w", err)
	}
	if err := p.Health(ctx); err != nil {
		return fmt.Errorf("no Docker engine: %w", err)
	}
	return nil
}

// Run starts REALM for a test, fails the test when it cannot, and terminates the
// containers when the test ends.
func Run(tb testing.TB, opts Options) *Realm {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	r, err := Start(ctx, opts)
	if r != nil {
		tb.Cleanup(func() {
			if err := r.Terminate(context.Background()); err != nil {
				tb.Errorf("realmtest: %v", err)
			}
		})
	}
	if err != nil {
		tb.Fatalf("realmtest: %v", err)
	}
	return r
}

// Start starts Neo4j, then REALM on it, and returns once REALM's /readyz answers 200. On
// an error the returned Realm, when not nil, holds what started: call Terminate.
func Start(ctx context.Context, opts Options) (*Realm, error) {
	if opts.RealmImage == "" {
		opts.RealmImage = DefaultRealmImage
	}
	if opts.Neo4jImage == "" {
		opts.Neo4jImage = DefaultNeo4jImage
	}
	if opts.StartupTimeout == 0 {
		opts.StartupTimeout = 5 * time.Minute
	}
	r := &Realm{Key: "sk-realmtest-" + randomHex(16), Neo4jPassword: "realmtest-" + randomHex(8)}

	neo4jReq := testcontainers.ContainerRequest{
		Image: opts.Neo4jImage,
		Env: map[string]string{
			"NEO4J_AUTH":                         "neo4j/" + r.Neo4jPassword,
			"NEO4J_server_memory_heap_max__size": "1G",
		},
		WaitingFor: wait.ForLog("Started.").WithStartupTimeout(opts.StartupTimeout),
	}
	realmEnv := map[string]string{
		"NEO4J_USER": "neo4j", "NEO4J_PASSWORD": r.Neo4jPassword, "REALM_LLM": "offline",
		"REALM_LOG_LEVEL": "info",
	}
	var realmPort string
	var realmNet []string
	if opts.HostNetwork {
		ports, err := freePorts(3)
		if err != nil {
			return nil, err
		}
		bolt, browser, api := ports[0], ports[1], ports[2]
		neo4jReq.Env["NEO4J_server_bolt_listen__address"] = "127.0.0.1:" + bolt
		neo4jReq.Env["NEO4J_server_http_listen__address"] = "127.0.0.1:" + browser
		neo4jReq.HostConfigModifier, neo4jReq.EndpointSettingsModifier = hostNetwork, noEndpoints
		r.Neo4jURI = "bolt://127.0.0.1:" + bolt
		realmEnv["NEO4J_URI"] = r.Neo4jURI
		realmEnv["REALM_ADDR"] = "127.0.0.1:" + api
		realmPort = api
	} else {
		nw, err := tcnetwork.New(ctx)
		if err != nil {
			return nil, fmt.Errorf("a network for REALM and Neo4j: %w", err)
		}
		realmNet = []string{nw.Name}
		neo4jReq.Networks = realmNet
		neo4jReq.NetworkAliases = map[string][]string{nw.Name: {"neo4j"}}
		neo4jReq.ExposedPorts = []string{"7687/tcp"}
		realmEnv["NEO4J_URI"] = "bolt://neo4j:7687"
		realmEnv["REALM_ADDR"] = "0.0.0.0:8080"
	}
	neo4j, err := testcontainers.GenericContainer(ctx, testcontainers.GenericContainerRequest{ContainerRequest: neo4jReq, Started: true})
	r.neo4j = neo4j
	if err != nil {
		return r, fmt.Errorf("neo4j (%s): %w", opts.Neo4jImage, err)
	}
	if !opts.HostNetwork {
		endpoint, err := neo4j.PortEndpoint(ctx, "7687/tcp", "bolt")
		if err != nil {
			return r, fmt.Errorf("neo4j's port: %w", err)
		}
		r.Neo4jURI = endpoint
	}

	for k, v := range opts.Env {
		realmEnv[k] = v
	}
	keys := "realmtest " + r.Key + " admin *"
	if extra := strings.TrimSpace(realmEnv["REALM_API_KEYS"]); extra != "" {
		keys += ";" + extra
	}
	realmEnv["REALM_API_KEYS"] = keys
	realmReq := testcontainers.ContainerRequest{
		Image:      opts.RealmImage,
		Env:        realmEnv,
		Networks:   realmNet,
		WaitingFor: wait.ForLog("REALM serving on").WithStartupTimeout(opts.StartupTimeout),
	}
	if opts.HostNetwork {
		realmReq.HostConfigModifier, realmReq.EndpointSettingsModifier = hostNetwork, noEndpoints
	} else {
		realmReq.ExposedPorts = []string{"8080/tcp"}
	}
	realm, err := testcontainers.GenericContainer(ctx, testcontainers.GenericContainerRequest{ContainerRequest: realmReq, Started: true})
	r.realm = realm
	if err != nil {
		return r, fmt.Errorf("realm (%s): %w", opts.RealmImage, err)
	}
	if opts.HostNetwork {
		r.URL = "http://127.0.0.1:" + realmPort
	} else if r.URL, err = realm.PortEndpoint(ctx, "8080/tcp", "http"); err != nil {
		return r, fmt.Errorf("realm's port: %w", err)
	}
	return r, waitReady(ctx, r.URL+"/readyz", opts.StartupTimeout)
}

// Terminate stops and removes both containers.
func (r *Realm) Terminate(ctx context.Context) error {
	var errs []error
	for _, c := range []testcontainers.Container{r.realm, r.neo4j} {
		if c != nil {
			errs = append(errs, c.Terminate(ctx))
		}
	}
	return errors.Join(errs...)
}

// waitReady polls url until it answers 200, for at most timeout.
func waitReady(ctx context.Context, url string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	last := "no answer"
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			last = fmt.Sprintf("%d %s", resp.StatusCode, body)
		} else {
			last = err.Error()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s did not answer 200 within %s (last: %s)", url, timeout, last)
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func hostNetwork(hc *container.HostConfig) { hc.NetworkMode = "host" }

// noEndpoints drops the networks testcontainers attaches by default (its own bridge
// network), which a container on the host's network cannot join.
func noEndpoints(endpoints map[string]*network.EndpointSettings) { clear(endpoints) }

// freePorts are n loopback ports free at the time of the call.
func freePorts(n int) ([]string, error) {
	var ports []string
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		defer l.Close()
		_, port, _ := net.SplitHostPort(l.Addr().String())
		ports = append(ports, port)
	}
	return ports, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on Linux
	}
	return hex.EncodeToString(b)
}
