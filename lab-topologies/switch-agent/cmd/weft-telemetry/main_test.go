package main

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/openconfig/gnmi/proto/gnmi"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"google.golang.org/grpc"
	"weft.io/switch-agent/internal/kernel"
	"weft.io/switch-agent/internal/nstest"
	"weft.io/switch-agent/internal/server"
	"weft.io/switch-agent/internal/telemetry"
)

// weft-telemetry as a process: given a targets file and a broker, gnmic-shaped records of the
// switch arrive on weft.telemetry.interfaces.
func TestBinaryWritesRecordsForTheTargetsFile(t *testing.T) {
	nstest.Require(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "weft-telemetry")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	sw, peer := nstest.NS(t), nstest.NS(t)
	nstest.Veth(t, sw, "p0", peer, "x0")
	ports, _ := kernel.ParsePorts("eth1=p0")
	k, err := kernel.Open(sw, ports)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	lis, _ := net.Listen("tcp", "127.0.0.1:0")
	g := grpc.NewServer()
	gnmi.RegisterGNMIServer(g, server.New(k, "leaf1", "", ""))
	go func() { _ = g.Serve(lis) }()
	defer g.Stop()

	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, telemetry.TelemetryTopic, telemetry.FabricTopic))
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	targets := filepath.Join(dir, "targets.txt")
	_ = os.WriteFile(targets, []byte("# switch gNMI address\nleaf1 "+lis.Addr().String()+"\n"), 0o644)
	cmd := exec.Command(bin, "--brokers", cluster.ListenAddrs()[0], "--targets-file", targets, "--follow-fabric=false",
		"--interval", "50ms")
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()

	c, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.ConsumeTopics(telemetry.TelemetryTopic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		fetches := c.PollFetches(ctx)
		if ctx.Err() != nil {
			t.Fatal("no record from weft-telemetry within 20 s")
		}
		found := false
		fetches.EachRecord(func(r *kgo.Record) {
			var evs []telemetry.Event
			if err := json.Unmarshal(r.Value, &evs); err != nil || string(r.Key) != "leaf1" {
				t.Fatalf("record %s / %s: %v", r.Key, r.Value, err)
			}
			for _, e := range evs {
				if e.Tags["interface_name"] == "eth1" && e.Values["/interfaces/interface/state/counters/in-pkts"] != nil {
					found = true
				}
			}
		})
		if found {
			return
		}
	}
}
