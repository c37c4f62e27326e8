// Package nstest gives tests fresh network namespaces: real kernel state, no mocks. A test
// that cannot run (not root, no ip(8), no SRv6 in the kernel) skips with the reason, and fails
// under CI=true, where tools/weft.d/test has installed what the project needs.
package nstest

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Require stops the test unless namespaces can be made here; tools are the binaries needed.
func Require(t testing.TB, tools ...string) {
	t.Helper()
	missing := ""
	if os.Geteuid() != 0 {
		missing = "needs root (network namespaces)"
	} else if _, err := os.Stat("/proc/sys/net/ipv6/conf/all/seg6_enabled"); err != nil {
		missing = "kernel without SRv6 (no net.ipv6.conf.all.seg6_enabled)"
	} else {
		for _, tool := range append([]string{"ip"}, tools...) {
			if _, err := exec.LookPath(tool); err != nil {
				missing = "needs " + tool + " in PATH (tools/lib.sh need_lab_tools installs it)"
				break
			}
		}
	}
	if missing == "" {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("cannot run under CI: %s", missing)
	}
	t.Skip(missing)
}

// NS creates a fresh namespace, deleted when the test ends.
func NS(t testing.TB) string {
	t.Helper()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	name := "wsa-" + hex.EncodeToString(b)
	Run(t, "ip", "netns", "add", name)
	t.Cleanup(func() { _ = exec.Command("ip", "netns", "del", name).Run() })
	Run(t, "ip", "-n", name, "link", "set", "lo", "up")
	return name
}

// Veth wires nsA/a to nsB/b, both ends up, with DAD off (addresses are usable at once).
func Veth(t testing.TB, nsA, a, nsB, b string) {
	t.Helper()
	Run(t, "ip", "link", "add", a, "netns", nsA, "type", "veth", "peer", "name", b, "netns", nsB)
	for _, x := range [][2]string{{nsA, a}, {nsB, b}} {
		Run(t, "ip", "netns", "exec", x[0], "sysctl", "-qw", "net.ipv6.conf."+x[1]+".accept_dad=0")
		Run(t, "ip", "-n", x[0], "link", "set", x[1], "up")
	}
}

// Run runs a command and fails the test with its output when it fails.
func Run(t testing.TB, args ...string) string {
	t.Helper()
	out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Try runs a command and returns its output and error, for commands expected to fail.
func Try(args ...string) (string, error) {
	out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
	return string(out), err
}
