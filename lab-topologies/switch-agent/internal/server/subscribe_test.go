package server

import (
	"testing"
	"time"

	"github.com/openconfig/gnmi/proto/gnmi"
	"weft.io/switch-agent/internal/model"
	"weft.io/switch-agent/internal/nstest"
)

func subReq(t *testing.T, mode gnmi.SubscriptionList_Mode, smode gnmi.SubscriptionMode, interval time.Duration, path string) *gnmi.SubscribeRequest {
	t.Helper()
	p, err := model.ParsePath("", path)
	if err != nil {
		t.Fatal(err)
	}
	return &gnmi.SubscribeRequest{Request: &gnmi.SubscribeRequest_Subscribe{Subscribe: &gnmi.SubscriptionList{
		Mode: mode, Encoding: gnmi.Encoding_JSON_IETF,
		Subscription: []*gnmi.Subscription{{Path: p, Mode: smode, SampleInterval: uint64(interval)}},
	}}}
}

// values flattens one notification into "path" -> value (uint or string).
func values(n *gnmi.Notification) map[string]any {
	out := map[string]any{}
	for _, u := range n.GetUpdate() {
		key := pathKey(u.Path.Elem)
		switch v := u.Val.Value.(type) {
		case *gnmi.TypedValue_UintVal:
			out[key] = v.UintVal
		case *gnmi.TypedValue_StringVal:
			out[key] = v.StringVal
		}
	}
	return out
}

// recvUntil reads responses until one notification satisfies ok, or fails after the deadline.
func recvUntil(t *testing.T, st gnmi.GNMI_SubscribeClient, what string, ok func(map[string]any) bool) map[string]any {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		r, err := st.Recv()
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		if n := r.GetUpdate(); n != nil {
			if v := values(n); ok(v) {
				return v
			}
		}
	}
	t.Fatalf("no %s within 10 s", what)
	return nil
}

func recvSync(t *testing.T, st gnmi.GNMI_SubscribeClient) []map[string]any {
	t.Helper()
	var got []map[string]any
	for {
		r, err := st.Recv()
		if err != nil {
			t.Fatalf("before sync_response: %v", err)
		}
		if r.GetSyncResponse() {
			return got
		}
		got = append(got, values(r.GetUpdate()))
	}
}

const (
	inPkts = "/interfaces/interface[name=eth1]/state/counters/in-pkts"
	oper   = "/interfaces/interface[name=eth1]/state/oper-status"
)

func TestSubscribe(t *testing.T) {
	nstest.Require(t, "ping", "tc")
	t.Run("ONCE answers every counter of the port, then sync, then ends", func(t *testing.T) {
		sw, _, portMap := wire(t, []string{"eth1", "eth2"})
		c := serve(t, sw, portMap, "leaf1")
		st, err := c.Subscribe(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Send(subReq(t, gnmi.SubscriptionList_ONCE, 0, 0, "/interfaces/interface[name=eth1]/state")); err != nil {
			t.Fatal(err)
		}
		got := map[string]any{}
		for _, n := range recvSync(t, st) { // one notification per container: state, state/counters
			for k, v := range n {
				got[k] = v
			}
		}
		if len(got) != 9 || got[oper] != "UP" || got[inPkts] == nil {
			t.Fatalf("want the 8 counters and oper-status UP of eth1 only, got %v", got)
		}
		if _, err := st.Recv(); err == nil {
			t.Fatal("ONCE: the stream must end after sync_response")
		}
	})
	t.Run("STREAM SAMPLE shows the packets a ping sends into the port", func(t *testing.T) {
		sw, peers, portMap := wire(t, []string{"eth1"})
		c := serve(t, sw, portMap, "leaf1")
		st, err := c.Subscribe(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Send(subReq(t, gnmi.SubscriptionList_STREAM, gnmi.SubscriptionMode_SAMPLE, 100*time.Millisecond, inPkts)); err != nil {
			t.Fatal(err)
		}
		first := recvSync(t, st)[0][inPkts].(uint64)
		// Echo requests to all-nodes: each one enters the switch port, answered or not.
		_, _ = nstest.Try("ip", "netns", "exec", peers[0], "ping", "-6", "-c", "50", "-i", "0.005", "-w", "2", "-q", "ff02::1%x0")
		recvUntil(t, st, "in-pkts grown by the 50 pings", func(v map[string]any) bool {
			n, ok := v[inPkts].(uint64)
			return ok && n >= first+50
		})
	})
	t.Run("STREAM ON_CHANGE reports the port going down, and only changes", func(t *testing.T) {
		sw, peers, portMap := wire(t, []string{"eth1"})
		c := serve(t, sw, portMap, "leaf1")
		st, err := c.Subscribe(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Send(subReq(t, gnmi.SubscriptionList_STREAM, gnmi.SubscriptionMode_ON_CHANGE, 0, oper)); err != nil {
			t.Fatal(err)
		}
		if got := recvSync(t, st); got[0][oper] != "UP" {
			t.Fatalf("initial oper-status: %v", got)
		}
		start := time.Now()
		nstest.Run(t, "ip", "-n", peers[0], "link", "set", "x0", "down") // the cable's far end
		r, err := st.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if v := values(r.GetUpdate()); v[oper] == "UP" || v[oper] == nil {
			t.Fatalf("first update after the peer went down: %v, want a state other than UP", v)
		}
		// The kernel's linkwatch delays a carrier change by up to 1 s; the agent checks every 50 ms.
		t.Logf("ON_CHANGE after %s", time.Since(start))
	})
	t.Run("ON_CHANGE comes from the link event, not from polling", func(t *testing.T) {
		sw, _, portMap := wire(t, []string{"eth1"})
		c, srv := serveServer(t, sw, portMap, "leaf1")
		srv.OnChangeFallback = time.Hour // only a link event can trigger the check now
		waitWatching(t, srv)
		st, err := c.Subscribe(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Send(subReq(t, gnmi.SubscriptionList_STREAM, gnmi.SubscriptionMode_ON_CHANGE, 0, oper)); err != nil {
			t.Fatal(err)
		}
		recvSync(t, st)
		nstest.Run(t, "ip", "-n", sw, "link", "set", "p0", "down") // admin down: the event is immediate
		recvUntil(t, st, "oper-status DOWN", func(v map[string]any) bool { return v[oper] == "DOWN" })
	})
	t.Run("POLL answers once per poll", func(t *testing.T) {
		sw, _, portMap := wire(t, []string{"eth1"})
		c := serve(t, sw, portMap, "leaf1")
		st, err := c.Subscribe(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Send(subReq(t, gnmi.SubscriptionList_POLL, 0, 0, oper)); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3; i++ {
			if got := recvSync(t, st); len(got) != 1 || got[0][oper] != "UP" {
				t.Fatalf("poll %d: %v", i, got)
			}
			if err := st.Send(&gnmi.SubscribeRequest{Request: &gnmi.SubscribeRequest_Poll{Poll: &gnmi.Poll{}}}); err != nil {
				t.Fatal(err)
			}
		}
	})
	t.Run("a TBF-throttled port shows queue drops", func(t *testing.T) {
		sw, peers, portMap := wire(t, []string{"eth1"})
		c := serve(t, sw, portMap, "leaf1")
		nstest.Run(t, "ip", "-n", sw, "addr", "add", "fe80::1/64", "dev", "p0", "nodad")
		nstest.Run(t, "ip", "-n", peers[0], "addr", "add", "fe80::2/64", "dev", "x0", "nodad")
		nstest.Run(t, "tc", "-n", sw, "qdisc", "add", "dev", "p0", "root", "tbf", "rate", "200kbit", "burst", "3000", "latency", "5ms")
		// ping exits non-zero when replies are lost: expected here.
		_, _ = nstest.Try("ip", "netns", "exec", sw, "ping", "-6", "-c", "200", "-i", "0.002", "-s", "1200", "-w", "2", "-q", "fe80::2%p0")
		st, err := c.Subscribe(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		const q = "/qos/interfaces/interface[interface-id=eth1]/output/queues/queue[name=0]/state"
		if err := st.Send(subReq(t, gnmi.SubscriptionList_ONCE, 0, 0, q)); err != nil {
			t.Fatal(err)
		}
		got := recvSync(t, st)
		if len(got) != 1 {
			t.Fatalf("want one queue notification, got %v", got)
		}
		drops, _ := got[0][q+"/dropped-pkts"].(uint64)
		sent, _ := got[0][q+"/transmit-pkts"].(uint64)
		if drops < 10 || sent == 0 {
			t.Fatalf("pings of 1200 B every 2 ms through 200 kbit/s: want at least 10 drops and some transmits, got %v", got[0])
		}
		t.Logf("queue: %v", got[0])
	})
}
