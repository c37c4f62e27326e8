package agent

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"weft.io/nic-agent/internal/host"
	"weft.io/nic-agent/internal/route"
)

func startStreamingAgent(t *testing.T, ns, server string) *Agent {
	t.Helper()
	prog, err := route.NewNetlink(ns)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(prog.Close)
	up, err := host.DetectUplink(prog.Handle(), host.Uplink{})
	if err != nil {
		t.Fatal(err)
	}
	a := New(Config{NIC: "nic1", Uplink: up, Stream: true, Wait: 2 * time.Second, BackoffBase: 50 * time.Millisecond,
		BackoffMax: 200 * time.Millisecond}, newClient(t, server), prog, nil, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = a.Run(ctx, false); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return a
}

// TestAgentFollowsTheProfileStream: with the stream, versions arrive on one response and no
// long-poll is made.
func TestAgentFollowsTheProfileStream(t *testing.T) {
	ns := newTestNetns(t)
	fake := newFakeScheduler(t, "tok-nic1", testProfile(1, cA))
	a := startStreamingAgent(t, ns, fake.srv.URL)
	waitFor(t, "version 1 from the stream", func() bool { return a.Snapshot().Version == 1 })
	fake.set(testProfile(2, cB))
	waitFor(t, "version 2 from the stream", func() bool { return a.Snapshot().Version == 2 })
	if text := kernelRoutes(t, ns); !strings.Contains(text, "segs 1 [ "+cB+" ]") {
		t.Fatalf("kernel does not route over %s:\n%s", cB, text)
	}
	if polls, streams := fake.requests(); polls != 0 || streams != 1 {
		t.Fatalf("requests: %d long-polls, %d streams; want 0 and 1", polls, streams)
	}
	if s := a.Snapshot(); s.State != StateConnected {
		t.Fatalf("state %q, want connected", s.State)
	}
}

// TestAgentFallsBackToLongPollWithoutAStream: a scheduler-api without the stream (404) is
// long-polled instead, and versions still arrive.
func TestAgentFallsBackToLongPollWithoutAStream(t *testing.T) {
	ns := newTestNetns(t)
	fake := newFakeScheduler(t, "tok-nic1", testProfile(1, cA))
	fake.noStream = true
	a := startStreamingAgent(t, ns, fake.srv.URL)
	waitFor(t, "version 1 by long-poll", func() bool { return a.Snapshot().Version == 1 })
	fake.set(testProfile(2, cB))
	waitFor(t, "version 2 by long-poll", func() bool { return a.Snapshot().Version == 2 })
	if polls, _ := fake.requests(); polls < 2 {
		t.Fatalf("%d long-polls, want at least 2 after falling back", polls)
	}
}
