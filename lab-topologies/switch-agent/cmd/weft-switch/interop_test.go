package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"weft.io/switch-agent/internal/nstest"
)

// build compiles a package of this module (or its gnmi_cli tool dependency) into dir.
func build(t *testing.T, dir, pkg, name string) string {
	t.Helper()
	out := filepath.Join(dir, name)
	if b, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	return out
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// The agent as a process, driven by gnmi_cli of the pinned gnmi module (an independent client
// built from the module cache through go.mod's tool directive).
func TestGnmiCliInterop(t *testing.T) {
	nstest.Require(t)
	dir := t.TempDir()
	agent := build(t, dir, "weft.io/switch-agent/cmd/weft-switch", "weft-switch")
	cli := build(t, dir, "github.com/openconfig/gnmi/cmd/gnmi_cli", "gnmi_cli")
	sw, peer := nstest.NS(t), nstest.NS(t)
	nstest.Veth(t, sw, "p0", peer, "x0")
	addr := freePort(t)
	cmd := exec.Command(agent, "--netns", sw, "--listen", addr, "--port-map", "eth1=p0", "--target", "sw1")
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) { // ready = accepting connections
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatal("weft-switch did not listen within 10 s")
		}
	}
	gnmiCli := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(cli, append([]string{"-insecure", "-a", addr, "-timeout", "10s"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("gnmi_cli %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	const eth1 = `<origin: "openconfig" elem: <name: "interfaces"> elem: <name: "interface" key: <key: "name" value: "eth1">>>`
	const value = `{"name":"eth1","config":{"name":"eth1","enabled":true},"subinterfaces":{"subinterface":[{"index":0,` +
		`"config":{"index":0,"enabled":true},"ipv6":{"config":{"enabled":true},"addresses":{"address":[{"ip":"fe80::1",` +
		`"config":{"ip":"fe80::1","prefix-length":64,"type":"LINK_LOCAL_UNICAST"}}]}}}]}}`
	t.Run("Capabilities lists the contract's models and JSON_IETF", func(t *testing.T) {
		out := gnmiCli("-capabilities")
		for _, want := range []string{`"sonic-db"`, `"openconfig-interfaces"`, `"openconfig-network-instance"`, "JSON_IETF"} {
			if !strings.Contains(out, want) {
				t.Errorf("capabilities lack %s:\n%s", want, out)
			}
		}
	})
	t.Run("Set puts the address into the kernel", func(t *testing.T) {
		gnmiCli("-set", "-proto", `prefix: <target: "sw1"> replace: <path: `+eth1+` val: <json_ietf_val: '`+value+`'>>`)
		if out := nstest.Run(t, "ip", "-n", sw, "-6", "addr", "show", "dev", "p0"); !strings.Contains(out, "fe80::1/64 scope link nodad") {
			t.Fatalf("kernel after Set:\n%s", out)
		}
	})
	t.Run("Get reads it back", func(t *testing.T) {
		out := gnmiCli("-get", "-proto", `path: `+eth1+` encoding: JSON_IETF type: CONFIG`)
		if !strings.Contains(out, `\"ip\":\"fe80::1\"`) && !strings.Contains(out, `"ip":"fe80::1"`) {
			t.Fatalf("Get:\n%s", out)
		}
	})
	t.Run("Set with a bad value is refused, naming the path", func(t *testing.T) {
		out, err := exec.Command(cli, "-insecure", "-a", addr, "-set", "-proto",
			`replace: <path: `+eth1+` val: <json_ietf_val: '{"name":"eth1","speed":"400G"}'>>`).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "InvalidArgument") ||
			!strings.Contains(string(out), `openconfig:/interfaces/interface[name=eth1]: json: unknown field "speed"`) {
			t.Fatalf("want InvalidArgument naming the path and field, got %v:\n%s", err, out)
		}
	})
	t.Run("Subscribe ONCE returns the port's counters", func(t *testing.T) {
		out := gnmiCli("-qt", "once", "-display_type", "single", "-t", "sw1", "-q", "interfaces/interface[name=eth1]/state")
		for _, want := range []string{"oper-status", "UP", "counters/out-pkts"} {
			if !strings.Contains(out, want) {
				t.Errorf("subscribe output lacks %s:\n%s", want, out)
			}
		}
	})
	t.Run("the agent stays within 30 MB RSS (a k=8 lab runs 80)", func(t *testing.T) {
		for i := 0; i < 20; i++ { // some churn: Sets and subscriptions
			gnmiCli("-set", "-proto", `replace: <path: `+eth1+` val: <json_ietf_val: '`+value+`'>>`)
			gnmiCli("-qt", "once", "-q", "interfaces/interface[name=eth1]/state")
		}
		status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
		if err != nil {
			t.Fatal(err)
		}
		var rssKB int
		for _, l := range strings.Split(string(status), "\n") {
			if strings.HasPrefix(l, "VmRSS:") {
				fmt.Sscanf(strings.TrimPrefix(l, "VmRSS:"), "%d", &rssKB)
			}
		}
		t.Logf("weft-switch VmRSS %d kB", rssKB)
		if rssKB == 0 || rssKB > 30*1024 {
			t.Fatalf("VmRSS %d kB, want <= 30 MB", rssKB)
		}
	})
}
