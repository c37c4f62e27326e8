// Package netnstest gives the agent's tests what every namespace test needs: a fresh network
// namespace with a veth pair, removed when the test ends, and one rule for a host that cannot
// run them. Imported by tests only.
package netnstest

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// CannotRun skips, or fails under CI=true, a test whose host lacks something the project installs:
// `./weft test` installs the lab's tools, and a namespace test skipped in CI would report green for
// code never run.
func CannotRun(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("cannot run under CI=true: %s", why)
	}
	t.Skip(why)
}

// New creates a namespace named prefix-<pid>-<n> holding an up veth pair, v0 with 2001:db8:ff::1/64
// (so 2001:db8:ff::2 is an on-link gateway), then runs each extra `ip -n <ns> ...` command in it.
// The namespace is deleted when t ends.
func New(t testing.TB, prefix string, extra ...[]string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		CannotRun(t, "needs root to create network namespaces")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		CannotRun(t, "iproute2 `ip` is not installed")
	}
	ns := fmt.Sprintf("%s-%d-%d", prefix, os.Getpid(), time.Now().UnixNano()%1_000_000)
	if out, err := exec.Command("ip", "netns", "add", ns).CombinedOutput(); err != nil {
		CannotRun(t, "cannot create a network namespace: "+strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("ip", "netns", "del", ns).CombinedOutput(); err != nil {
			t.Errorf("ip netns del %s: %s", ns, out)
		}
	})
	cmds := [][]string{
		{"link", "add", "v0", "type", "veth", "peer", "name", "v1"},
		{"link", "set", "v0", "up"},
		{"link", "set", "v1", "up"},
		{"-6", "addr", "add", "2001:db8:ff::1/64", "dev", "v0", "nodad"},
	}
	for _, args := range append(cmds, extra...) {
		if out, err := exec.Command("ip", append([]string{"-n", ns}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("ip -n %s %s: %s", ns, strings.Join(args, " "), out)
		}
	}
	return ns
}
