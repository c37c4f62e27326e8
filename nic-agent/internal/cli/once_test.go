package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"weft.io/nic-agent/internal/netnstest"
	"weft.io/nic-agent/internal/vectors"
)

// TestRunOnceProgramsANamespace runs `nic-agent run --once --netns` against an httptest stand-in
// of scheduler-api (the real one is Java; system-tests runs real agents against it) and reads the
// route back from the kernel.
func TestRunOnceProgramsANamespace(t *testing.T) {
	if os.Geteuid() != 0 {
		netnstest.CannotRun(t, "needs root to create network namespaces")
	}
	ns := fmt.Sprintf("weft-cli-%d-%d", os.Getpid(), time.Now().UnixNano()%1_000_000)
	if out, err := exec.Command("ip", "netns", "add", ns).CombinedOutput(); err != nil {
		netnstest.CannotRun(t, "cannot create a network namespace: "+strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() { _ = exec.Command("ip", "netns", "del", ns).Run() })
	for _, args := range [][]string{
		{"link", "add", "v0", "type", "veth", "peer", "name", "v1"},
		{"link", "set", "v0", "up"}, {"link", "set", "v1", "up"},
		{"-6", "addr", "add", "2001:db8:ff::1/64", "dev", "v0", "nodad"},
		{"-6", "route", "add", "default", "via", "2001:db8:ff::2", "dev", "v0"},
	} {
		if out, err := exec.Command("ip", append([]string{"-n", ns}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("ip %s: %s", strings.Join(args, " "), out)
		}
	}
	profile := map[string]any{"nic": "nic1", "version": 4, "peers": []any{map[string]any{
		"peer": "nic2", "address": "fd00:ef7:12::2", "minActive": 1, "entries": []any{
			map[string]any{"id": "f#srv6", "format": "srv6", "value": "fcbb:bb00:1:e000::",
				"carriers": []string{"fcbb:bb00:1:e000::", "fcbb:bb00:2:e000::"}, "weight": 1, "state": "GOOD"},
			map[string]any{"id": "f#mpls", "format": "mpls", "value": "16", "weight": 1, "state": "GOOD"}}}}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/agents/nic1/paths" || r.Header.Get("Authorization") != "Bearer tok" {
			http.Error(w, "no", http.StatusForbidden)
			return
		}
		_ = json.NewEncoder(w).Encode(profile)
	}))
	defer srv.Close()
	dir := t.TempDir()
	t.Setenv("WEFT_AGENT_TOKEN", "tok")
	var stdout, stderr bytes.Buffer
	code := Run([]string{"run", "--once", "--nic", "nic1", "--server", srv.URL, "--netns", ns, "--log-level", "error",
		"--state-file", filepath.Join(dir, "state.json"), "--ev-file", filepath.Join(dir, "ev")}, &stdout, &stderr)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := "version 4: 1 routes, 0 EV peers, 1 rejected\nrejected peers[0].entries[1].format: unknown format \"mpls\" (srv6 or udp-sport)\n"
	if stdout.String() != want {
		t.Fatalf("stdout = %q, want %q", stdout.String(), want)
	}
	out, _ := exec.Command("ip", "-n", ns, "-6", "route", "show", "proto", "200").CombinedOutput()
	if !strings.Contains(string(out), "segs 2 [ fcbb:bb00:1:e000:: fcbb:bb00:2:e000:: ] via 2001:db8:ff::2 dev v0") {
		t.Fatalf("kernel routes:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "state.json")); err != nil {
		t.Fatalf("no state file: %v", err)
	}
}

// TestRunOnceSendsEachEntryOutItsPort: the multi-plane-ports profile of the shared vectors (a NIC
// with one port per plane) with --port for both ports: the peer reached over plane 1 is routed out
// v0, the one over plane 2 out w0, each via its own leaf, and each EV entry's source port is steered
// out its port by a rule.
func TestRunOnceSendsEachEntryOutItsPort(t *testing.T) {
	ns := netnstest.New(t, "weft-cli2",
		[]string{"link", "add", "w0", "type", "veth", "peer", "name", "w1"},
		[]string{"link", "set", "w0", "up"}, []string{"link", "set", "w1", "up"},
		[]string{"-6", "addr", "add", "2001:db8:fe::1/64", "dev", "w0", "nodad"},
		[]string{"-6", "route", "add", "default", "via", "2001:db8:ff::2", "dev", "v0"})
	body, err := vectors.AgentProfile("multi-plane-ports")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/agents/srv1-nic1/paths" {
			http.Error(w, "no", http.StatusForbidden)
			return
		}
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	dir := t.TempDir()
	t.Setenv("WEFT_AGENT_TOKEN", "tok")
	var stdout, stderr bytes.Buffer
	code := Run([]string{"run", "--once", "--nic", "srv1-nic1", "--server", srv.URL, "--netns", ns,
		"--log-level", "error", "--port", "srv1-nic1-up1=v0,2001:db8:ff::2", "--port", "srv1-nic1-up2=w0,2001:db8:fe::2",
		"--state-file", filepath.Join(dir, "state.json"), "--ev-file", filepath.Join(dir, "ev")}, &stdout, &stderr)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if want := "version 4: 2 routes, 2 EV peers, 0 rejected\n"; stdout.String() != want {
		t.Fatalf("stdout = %q, want %q", stdout.String(), want)
	}
	out, _ := exec.Command("ip", "-n", ns, "-6", "route", "show", "proto", "200").CombinedOutput()
	for _, want := range []string{
		"fd00:ef7:3::1  encap seg6 mode encap.red segs 1 [ fcbb:bb00:1:25:3:e000:: ] via 2001:db8:ff::2 dev v0",
		"fd00:ef7:5::1  encap seg6 mode encap.red segs 1 [ fcbb:bb00:15:2a:17:e000:: ] via 2001:db8:fe::2 dev w0",
	} {
		if !strings.Contains(string(out), want) {
			t.Fatalf("kernel routes lack %q:\n%s", want, out)
		}
	}
	rules, _ := exec.Command("ip", "-n", ns, "-6", "rule", "show").CombinedOutput()
	for _, want := range []string{"to fd00:ef7:3::1 ipproto udp sport 257 lookup 1464205312 proto 200",
		"to fd00:ef7:5::1 ipproto udp sport 33024 lookup 1464205313 proto 200"} {
		if !strings.Contains(string(rules), want) {
			t.Fatalf("rules lack %q:\n%s", want, rules)
		}
	}
}
