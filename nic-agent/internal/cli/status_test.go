package cli

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"weft.io/nic-agent/internal/agent"
	"weft.io/nic-agent/internal/host"
)

// TestStatusNamesEachEVPortsWayOut: `status` prints each entropy value with its slots and weight,
// and, for one steered out another port of a multi-plane NIC, that port's link and interface.
func TestStatusNamesEachEVPortsWayOut(t *testing.T) {
	socket := filepath.Join(t.TempDir(), "agent.sock")
	l, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	s := agent.Status{NIC: "srv1-nic1", State: agent.StateConnected, Version: 4, Applied: host.Desired{Version: 4,
		EV: []host.EVPorts{{Peer: "srv17-nic1", Src: "fd00:ef7:1::1", Dst: "fd00:ef7:5::1", Ports: []int{49152, 33024},
			Weights: []host.PortWeight{{Port: 49152, Weight: 100, Slots: 1},
				{Port: 33024, Weight: 100, Slots: 1, Link: "srv1-nic1-up2", Dev: "w0"}}}}}}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != agent.PathStatus {
			http.NotFound(w, r)
			return
		}
		_ = json.NewEncoder(w).Encode(s)
	})}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })

	var stdout, stderr bytes.Buffer
	if code := Run([]string{"status", "--socket", socket}, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := "  ev srv17-nic1 (fd00:ef7:5::1): 49152 x1 (weight 100), 33024 x1 (weight 100) port srv1-nic1-up2 dev w0\n"
	if !strings.Contains(stdout.String(), want) {
		t.Fatalf("status =\n%s\nwant a line %q", stdout.String(), want)
	}
}
