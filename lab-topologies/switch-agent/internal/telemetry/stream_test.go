package telemetry

import (
	"context"
	"encoding/json"
	"io"
	"log"
	"net"
	"testing"
	"time"

	"github.com/openconfig/gnmi/proto/gnmi"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"google.golang.org/grpc"
	"weft.io/switch-agent/internal/kernel"
	"weft.io/switch-agent/internal/nstest"
	"weft.io/switch-agent/internal/server"
)

// agent runs a switch agent for a fresh namespace with one port eth1 (p0), wired to a peer.
func agent(t *testing.T) (addr, peer string) {
	t.Helper()
	sw, peer := nstest.NS(t), nstest.NS(t)
	nstest.Veth(t, sw, "p0", peer, "x0")
	ports, _ := kernel.ParsePorts("eth1=p0")
	k, err := kernel.Open(sw, ports)
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := grpc.NewServer()
	gnmi.RegisterGNMIServer(g, server.New(k, "sw1", "", ""))
	go func() { _ = g.Serve(lis) }()
	t.Cleanup(func() { g.Stop(); k.Close() })
	return lis.Addr().String(), peer
}

// The subscriber follows weft.fabric to the switch agent and its records on
// weft.telemetry.interfaces carry the pings that entered the port, in gnmic's shape; a snapshot
// without the switch stops the subscription. Kafka is franz-go's in-process kfake cluster
// (the Kafka wire protocol, the client used in production).
func TestSubscriberFollowsFabricAndStreamsCountersToKafka(t *testing.T) {
	nstest.Require(t, "ping")
	addr, peer := agent(t)
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, FabricTopic, TelemetryTopic))
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	brokers := cluster.ListenAddrs()
	producer, err := kgo.NewClient(kgo.SeedBrokers(brokers...))
	if err != nil {
		t.Fatal(err)
	}
	defer producer.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	snapshot := func(nodes string) {
		rec := &kgo.Record{Topic: FabricTopic, Key: []byte("t"),
			Value: []byte(`{"schemaVersion":1,"fabricId":"t","version":1,"fabric":{"nodes":[` + nodes + `]}}`)}
		if err := producer.ProduceSync(ctx, rec).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	snapshot(`{"id":"sw1","role":"leaf"},{"id":"nic1","role":"nic"},{"id":"sw2","role":"spine"}`)

	logger := log.New(io.Discard, "", 0)
	sub := &Subscriber{Interval: 100 * time.Millisecond, Subscription: "weft-ifcounters", Log: logger,
		Sink: &KafkaSink{Client: producer, Topic: TelemetryTopic, Log: logger}}
	followCtx, stopFollow := context.WithCancel(ctx)
	defer func() { stopFollow(); sub.Wait() }()
	go func() {
		_ = FollowFabric(followCtx, brokers, nil, FabricTopic, logger, func(f *Fabrics) {
			ts, _ := f.Targets(map[string]string{"sw1": addr}) // sw2 has no agent: not subscribed
			sub.SetTargets(followCtx, ts)
		})
	}()

	consumer, err := kgo.NewClient(kgo.SeedBrokers(brokers...), kgo.ConsumeTopics(TelemetryTopic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer consumer.Close()
	const inPkts = "/interfaces/interface/state/counters/in-pkts"
	// next returns in-pkts of eth1 from the next record that has it, checking every record's shape.
	next := func() uint64 {
		for {
			fetches := consumer.PollFetches(ctx)
			if ctx.Err() != nil {
				t.Fatal("no telemetry record in time")
			}
			var found *uint64
			fetches.EachRecord(func(r *kgo.Record) {
				if string(r.Key) != "sw1" {
					t.Fatalf("record key %q, want the switch id", r.Key)
				}
				var evs []struct {
					Name      string            `json:"name"`
					Timestamp *int64            `json:"timestamp"`
					Tags      map[string]string `json:"tags"`
					Values    map[string]any    `json:"values"`
				}
				if err := json.Unmarshal(r.Value, &evs); err != nil {
					t.Fatalf("record is not a JSON array of events: %v: %s", err, r.Value)
				}
				for _, e := range evs {
					if e.Timestamp == nil || e.Tags["source"] != addr || e.Tags["target"] != "sw1" ||
						e.Tags["subscription-name"] != "weft-ifcounters" || e.Name != "weft-ifcounters" || len(e.Values) == 0 {
						t.Fatalf("event without gnmic's fields: %s", r.Value)
					}
					if v, ok := e.Values[inPkts].(float64); ok && e.Tags["interface_name"] == "eth1" {
						u := uint64(v)
						found = &u
					}
				}
			})
			if found != nil {
				return *found
			}
		}
	}
	before := next()
	_, _ = nstest.Try("ip", "netns", "exec", peer, "ping", "-6", "-c", "30", "-i", "0.005", "-w", "2", "-q", "ff02::1%x0")
	deadline := time.Now().Add(10 * time.Second)
	for n := next(); n < before+30; n = next() {
		if time.Now().After(deadline) {
			t.Fatalf("in-pkts %d after 30 pings, from %d", n, before)
		}
	}
	if got := sub.Targets(); len(got) != 1 || got[0] != "sw1" {
		t.Fatalf("subscribed to %v, want [sw1]", got)
	}
	snapshot(`{"id":"sw2","role":"spine"}`) // a re-plan without sw1
	for start := time.Now(); len(sub.Targets()) != 0; time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > 10*time.Second {
			t.Fatalf("still subscribed to %v after sw1 left the fabric", sub.Targets())
		}
	}
}

// memSink keeps every record the subscriber writes.
type memSink struct{ ch chan []byte }

func (m memSink) Write(_ string, value []byte) { m.ch <- value }

// A port's oper-status reaches the sink when the kernel announces it, not at the next SAMPLE tick:
// with the sample interval at 30 s, the peer taking its end down must still show as DOWN at once.
func TestSubscriberSendsOperStatusOnChange(t *testing.T) {
	addr, peer := agent(t)
	sink := memSink{ch: make(chan []byte, 256)}
	sub := &Subscriber{Interval: 30 * time.Second, Subscription: "weft-ifcounters", Log: log.New(io.Discard, "", 0),
		Sink: sink}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer func() { cancel(); sub.Wait() }()
	sub.SetTargets(ctx, []Target{{Name: "sw1", Address: addr}})
	const oper = "/interfaces/interface/state/oper-status"
	// status returns eth1's oper-status from the next record that has it.
	status := func() string {
		for {
			select {
			case <-ctx.Done():
				t.Fatal("no oper-status record in time")
			case b := <-sink.ch:
				var evs []Event
				if err := json.Unmarshal(b, &evs); err != nil {
					t.Fatalf("record is not a JSON array of events: %v", err)
				}
				for _, e := range evs {
					if v, ok := e.Values[oper].(string); ok && e.Tags["interface_name"] == "eth1" {
						return v
					}
				}
			}
		}
	}
	if s := status(); s != "UP" {
		t.Fatalf("initial oper-status %q, want UP", s)
	}
	start := time.Now()
	nstest.Run(t, "ip", "-n", peer, "link", "set", "x0", "down")
	if s := status(); s != "DOWN" {
		t.Fatalf("oper-status %q after the peer went down, want DOWN", s)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("DOWN arrived after %s: not on change", took)
	}
	t.Logf("DOWN after %s", time.Since(start))
}
