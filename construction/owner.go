package construction

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// Lease owners. The default owner of a process is "host/pid/nonce": unique per process,
// so two processes on one host never share leases, and readable in the database.
//
// A pending observation leased to another owner is normally left alone until its lease
// expires (Options.Lease). A process may take it over at once when it can tell that
// owner is dead, which it can only do on its own host:
//
//   - same host, another pid, and that pid no longer runs (a killed `realm serve`
//     restarted by hand or by systemd);
//   - same host, the same pid as ours but another nonce (a restarted container keeps its
//     host name and runs REALM as pid 1 again).
//
// Owners on other hosts, and owners not of this form (Options.Owner set by hand), are
// trusted until their lease expires. A wrong guess costs work, not correctness: the
// integration re-checks under the space lock that the observation is still pending.
// A killed process must have been reaped by its parent: a zombie still counts as running.

// processNonce tells this process apart from an earlier one that had the same pid on the
// same host. One per process, so that every pipeline of the process has the same owner.
var processNonce = sync.OnceValue(func() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
})

func hostname() string {
	host, _ := os.Hostname()
	if host == "" {
		host = "realm"
	}
	return strings.ReplaceAll(host, "/", "_")
}

// defaultOwner is this process's lease owner.
func defaultOwner() string {
	return fmt.Sprintf("%s/%d/%s", hostname(), os.Getpid(), processNonce())
}

// ownerDead reports whether owner is a process of this host that is known to be gone.
func ownerDead(owner, self string) bool {
	if owner == self {
		return false
	}
	parts := strings.Split(owner, "/")
	if len(parts) != 3 || parts[0] != hostname() {
		return false
	}
	pid, err := strconv.Atoi(parts[1])
	if err != nil || pid <= 0 {
		return false
	}
	if pid == os.Getpid() {
		return parts[2] != processNonce()
	}
	return !processRunning(pid)
}

// processRunning reports whether a process with this pid exists; when it cannot tell,
// it says yes (the lease then waits for its expiry).
func processRunning(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return !errors.Is(err, os.ErrProcessDone)
	}
	defer p.Release()
	return !errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone)
}
