package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"weft.io/switch-agent/internal/model"
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
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, cli, append([]string{"-insecure", "-a", addr, "-timeout", "10s"}, args...)...).CombinedOutput()
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
	t.Run("push sends a DeviceIntent file", func(t *testing.T) {
		intent := filepath.Join(dir, "sw1.json")
		_ = os.WriteFile(intent, []byte(`{"target":"sw1","replace":[{"origin":"openconfig",`+
			`"path":"/interfaces/interface[name=eth1]","value":`+strings.Replace(value, "fe80::1", "fe80::7", 2)+`}]}`), 0o644)
		if out, err := exec.Command(agent, "push", "--address", addr, intent).CombinedOutput(); err != nil ||
			!strings.Contains(string(out), "sw1: 1 ops applied") {
			t.Fatalf("push: %v\n%s", err, out)
		}
		if out := nstest.Run(t, "ip", "-n", sw, "-6", "addr", "show", "dev", "p0"); !strings.Contains(out, "fe80::7/64") {
			t.Fatalf("kernel after push:\n%s", out)
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
	t.Run("Subscribe POLL answers each poll", func(t *testing.T) {
		out := gnmiCli("-qt", "p", "-polling_interval", "200ms", "-count", "3", "-display_type", "group", "-ts", "raw",
			"-q", "interfaces/interface[name=eth1]/state/oper-status")
		if n := strings.Count(out, `"timestamp"`); n != 3 {
			t.Fatalf("want 3 polled values, got %d:\n%s", n, out)
		}
	})
	t.Run("Subscribe STREAM keeps sampling", func(t *testing.T) {
		// gnmi_cli asks TARGET_DEFINED without an interval: counters are sampled every second. It
		// ends the stream at -streaming_duration with DeadlineExceeded, so its exit status is not ours.
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		out, _ := exec.CommandContext(ctx, cli, "-insecure", "-a", addr, "-qt", "s", "-streaming_duration", "2500ms",
			"-display_type", "single", "-ts", "raw", "-q", "interfaces/interface[name=eth1]/state/counters/out-pkts").CombinedOutput()
		if n := strings.Count(string(out), "state/counters/out-pkts,"); n < 2 {
			t.Fatalf("want updates after the initial one, got %d lines:\n%s", n, out)
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
				if _, err := fmt.Sscanf(strings.TrimPrefix(l, "VmRSS:"), "%d", &rssKB); err != nil {
					t.Fatalf("%q: %v", l, err)
				}
			}
		}
		t.Logf("weft-switch VmRSS %d kB", rssKB)
		if rssKB == 0 || rssKB > 30*1024 {
			t.Fatalf("VmRSS %d kB, want <= 30 MB", rssKB)
		}
	})
}

// Without --netns the agent operates the namespace it runs in, with fabric port names as link
// names (a containerlab linux node); here it runs inside a fresh namespace and serves on a unix
// socket, which the test reaches from the root namespace.
func TestOwnNamespaceWithoutPortMap(t *testing.T) {
	nstest.Require(t)
	dir := t.TempDir()
	agent := build(t, dir, "weft.io/switch-agent/cmd/weft-switch", "weft-switch")
	sw, peer := nstest.NS(t), nstest.NS(t)
	nstest.Veth(t, sw, "eth1", peer, "x0")
	sock := filepath.Join(dir, "gnmi.sock")
	cmd := exec.Command("ip", "netns", "exec", sw, agent, "--listen", "unix:"+sock, "--target", "leaf9")
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("unix", sock); err == nil {
			c.Close()
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatal("weft-switch did not listen within 10 s")
		}
	}
	conn, err := grpc.NewClient("unix://"+sock, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	p, _ := model.ParsePath("openconfig", "/interfaces/interface[name=eth1]")
	val := model.NewInterface("eth1", true, []model.Address{{IP: "fe80::9",
		Config: model.AddressConfig{IP: "fe80::9", PrefixLength: 64, Type: model.LinkLocalUnicast}}})
	raw, _ := json.Marshal(val)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = gnmi.NewGNMIClient(conn).Set(ctx, &gnmi.SetRequest{Prefix: &gnmi.Path{Target: "leaf9"},
		Replace: []*gnmi.Update{{Path: p, Val: &gnmi.TypedValue{Value: &gnmi.TypedValue_JsonIetfVal{JsonIetfVal: raw}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if out := nstest.Run(t, "ip", "-n", sw, "-6", "addr", "show", "dev", "eth1"); !strings.Contains(out, "fe80::9/64") {
		t.Fatalf("address not set in the agent's own namespace:\n%s", out)
	}
	// the switch sysctls went to the agent's namespace, not to the host's
	if out := nstest.Run(t, "ip", "netns", "exec", sw, "sysctl", "-n", "net.ipv6.conf.eth1.seg6_enabled"); strings.TrimSpace(out) != "1" {
		t.Fatalf("seg6_enabled on eth1: %s", out)
	}
	if out := nstest.Run(t, "ip", "-n", sw, "link", "show", "sid0"); !strings.Contains(out, "UP") {
		t.Fatalf("anchor: %s", out)
	}
}
