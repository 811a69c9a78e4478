package construction

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

func TestOwnerDead(t *testing.T) {
	child := exec.Command("true")
	if err := child.Run(); err != nil { // run and reaped: its pid no longer runs
		t.Skipf("no `true` command: %v", err)
	}
	host, self := hostname(), defaultOwner()
	tests := []struct {
		name  string
		owner string
		want  bool
	}{
		{"Self", self, false},
		{"ThisProcessOtherNonce", fmt.Sprintf("%s/%d/%s", host, os.Getpid(), "0ther"), true},
		{"ReapedProcess", fmt.Sprintf("%s/%d/%s", host, child.Process.Pid, "abcd"), true},
		{"RunningProcess", fmt.Sprintf("%s/%d/%s", host, os.Getppid(), "abcd"), false},
		{"OtherHost", fmt.Sprintf("%s-elsewhere/%d/%s", host, child.Process.Pid, "abcd"), false},
		{"NotOurForm", "test-replica", false},
		{"BadPid", host + "/x/abcd", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ownerDead(tt.owner, self); got != tt.want {
				t.Errorf("ownerDead(%q) = %v, want %v", tt.owner, got, tt.want)
			}
		})
	}
	if a, b := DefaultOptions().Owner, DefaultOptions().Owner; a != b {
		t.Errorf("two pipelines of one process have owners %q and %q", a, b)
	}
}
