package cli

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"path/filepath"
	"testing"

	"weft.io/nic-agent/internal/agent"
	"weft.io/nic-agent/internal/host"
	"weft.io/nic-agent/internal/profile"
	"weft.io/nic-agent/internal/vectors"
)

// TestEVPortsPrintsTheWeightedList: `nic-agent ev-ports` prints what the agent's JSON endpoint
// holds for the multipath vector profile as HCCL's line, each port repeated by its weight.
func TestEVPortsPrintsTheWeightedList(t *testing.T) {
	body, err := vectors.AgentProfile("multipath-weighted-paths")
	if err != nil {
		t.Fatal(err)
	}
	var p profile.Profile
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatal(err)
	}
	evs := host.Compile(p, host.Uplink{Dev: "eth0", Address: "2001:db8:0:1::1"}, nil).EV
	sock := filepath.Join(t.TempDir(), "agent.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+agent.PathEV, func(w http.ResponseWriter, _ *http.Request) { _ = json.NewEncoder(w).Encode(evs) })
	srv := &http.Server{Handler: mux}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })

	var stdout, stderr bytes.Buffer
	if code := Run([]string{"ev-ports", "--socket", sock}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := "2001:db8:0:1::1,2001:db8:0:2::3=49408,49409,49408,49409,49410,49408,49409,49408\n"
	if stdout.String() != want {
		t.Fatalf("ev-ports printed %q, want %q", stdout.String(), want)
	}
}
