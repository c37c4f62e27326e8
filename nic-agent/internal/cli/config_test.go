package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSettingsLayering: a flag wins over the environment, which wins over the config file, which
// wins over the default.
func TestSettingsLayering(t *testing.T) {
	file := filepath.Join(t.TempDir(), "agent.yaml")
	if err := os.WriteFile(file, []byte("nic: from-file\nwait: 10s\nreport-interval: 5s\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("WEFT_AGENT_WAIT", "20s")
	t.Setenv("WEFT_AGENT_TOKEN", "tok-from-env")
	var stderr bytes.Buffer
	v, code, ok := settings("run", "", []string{"--config", file, "--nic", "from-flag"}, &stderr, runFlags)
	if !ok {
		t.Fatalf("settings failed (%d): %s", code, stderr.String())
	}
	checks := []struct {
		key  string
		got  any
		want any
	}{
		{"nic (flag over file)", v.GetString("nic"), "from-flag"},
		{"wait (env over file)", v.GetDuration("wait"), 20 * time.Second},
		{"report-interval (file over default)", v.GetDuration("report-interval"), 5 * time.Second},
		{"probe-losses (default)", v.GetInt("probe-losses"), 3},
		{"token (env)", v.GetString("token"), "tok-from-env"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.key, c.got, c.want)
		}
	}
}

func TestSettingsRejects(t *testing.T) {
	dir := t.TempDir()
	unknown := filepath.Join(dir, "unknown.yaml")
	if err := os.WriteFile(unknown, []byte("nic: a\nreport-intervall: 1s\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown config key", []string{"--config", unknown}, `unknown key "report-intervall"`},
		{"missing config file", []string{"--config", filepath.Join(dir, "none.yaml")}, "config:"},
		{"bad duration", []string{"--wait", "soon"}, "invalid argument"},
		{"stray argument", []string{"extra"}, `unexpected argument "extra"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			_, code, ok := settings("run", "", tt.args, &stderr, runFlags)
			if ok || code != exitUsage || !strings.Contains(stderr.String(), tt.want) {
				t.Fatalf("ok=%v code=%d stderr=%q, want exit %d naming %q", ok, code, stderr.String(), exitUsage, tt.want)
			}
		})
	}
}

func TestRunRefusesBadSettingsNamingThem(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"run", "--server", "http://127.0.0.1:1"}, "nic: required"},
		{[]string{"run", "--nic", "n1", "--server", "ftp://x"}, "server:"},
		{[]string{"run", "--nic", "n1", "--log-level", "loud"}, "log-level:"},
		{[]string{"run", "--nic", "n1", "--token-file", "/nonexistent/token"}, "token-file:"},
		{[]string{"run", "--nic", "n1", "--rdma-dev", "no_such_rdma0"}, "rdma-dev:"},
		{[]string{"status", "--socket", "/nonexistent/agent.sock"}, "socket: is the agent running?"},
		{[]string{"ev-ports", "--socket", "/nonexistent/agent.sock"}, "socket: is the agent running?"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := Run(tt.args, &stdout, &stderr); code == exitOK || !strings.Contains(stderr.String(), tt.want) {
				t.Fatalf("exit %d, stderr %q; want a failure naming %q", code, stderr.String(), tt.want)
			}
		})
	}
}

func TestParsePortsReadsEachPortAndNamesABadOne(t *testing.T) {
	ports, err := parsePorts([]string{"srv1-nic1-up1=eth0,fe80::1", "srv1-nic1-up2=eth1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ports) != 2 || ports["srv1-nic1-up1"].Dev != "eth0" || ports["srv1-nic1-up1"].Via != "fe80::1" ||
		ports["srv1-nic1-up2"].Dev != "eth1" || ports["srv1-nic1-up2"].Via != "" {
		t.Fatalf("ports = %+v", ports)
	}
	for _, bad := range [][]string{{"eth0"}, {"=eth0"}, {"l1=eth0", "l1=eth1"}, {"l1=eth0,not-an-address"}, {"l1=bad/name"}} {
		if _, err := parsePorts(bad); err == nil || !strings.Contains(err.Error(), "port") {
			t.Errorf("parsePorts(%q) = %v, want an error naming the port", bad, err)
		}
	}
}
