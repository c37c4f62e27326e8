package server

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"weft.io/switch-agent/internal/kernel"
)

// DefaultSampleInterval is used for SAMPLE subscriptions that give none.
const DefaultSampleInterval = time.Second

// onChangeCheck is how often ON_CHANGE subscriptions compare the kernel with what they sent
// when the switch does not report link changes; Server.OnChangeFallback when it does (counters
// and anything else a link event does not announce).
const onChangeCheck = 50 * time.Millisecond

// leaf is one telemetry value at a full path.
type leaf struct {
	path []*gnmi.PathElem
	val  *gnmi.TypedValue
	key  string // the path as a string: identity for ON_CHANGE and grouping
}

func uintLeaf(elems []*gnmi.PathElem, v uint64) leaf {
	return leaf{path: elems, val: &gnmi.TypedValue{Value: &gnmi.TypedValue_UintVal{UintVal: v}}}
}

// leaves renders port stats onto the OpenConfig paths the contract serves.
func leaves(stats []kernel.PortStats) []leaf {
	var out []leaf
	for _, s := range stats {
		ifc := []*gnmi.PathElem{{Name: "interfaces"}, {Name: "interface", Key: map[string]string{"name": s.Port}}, {Name: "state"}}
		out = append(out, leaf{path: append(clone(ifc), &gnmi.PathElem{Name: "oper-status"}),
			val: &gnmi.TypedValue{Value: &gnmi.TypedValue_StringVal{StringVal: s.OperStatus}}})
		for _, name := range sortedKeys(s.Counters) {
			out = append(out, uintLeaf(append(clone(ifc), &gnmi.PathElem{Name: "counters"}, &gnmi.PathElem{Name: name}),
				s.Counters[name]))
		}
		if s.Queue != nil {
			q := []*gnmi.PathElem{{Name: "qos"}, {Name: "interfaces"},
				{Name: "interface", Key: map[string]string{"interface-id": s.Port}}, {Name: "output"}, {Name: "queues"},
				{Name: "queue", Key: map[string]string{"name": "0"}}, {Name: "state"}}
			for _, name := range sortedKeys(s.Queue) {
				out = append(out, uintLeaf(append(clone(q), &gnmi.PathElem{Name: name}), s.Queue[name]))
			}
		}
	}
	for i := range out {
		out[i].key = pathKey(out[i].path)
	}
	return out
}

func clone(e []*gnmi.PathElem) []*gnmi.PathElem { return append([]*gnmi.PathElem{}, e...) }

func pathKey(elems []*gnmi.PathElem) string {
	var b strings.Builder
	for _, e := range elems {
		b.WriteString("/" + e.Name)
		for _, k := range sortedKeys(e.Key) {
			b.WriteString("[" + k + "=" + e.Key[k] + "]")
		}
	}
	return b.String()
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// matches tells whether a subscription path (which may name a container, use "*" for an element
// or a key value, or leave keys out) covers a leaf.
func matches(sub, leaf []*gnmi.PathElem) bool {
	if len(sub) > len(leaf) {
		return false
	}
	for i, e := range sub {
		if e.Name == "..." {
			return true
		}
		if e.Name != "*" && e.Name != leaf[i].Name {
			return false
		}
		for k, v := range e.Key {
			if v != "*" && leaf[i].Key[k] != v {
				return false
			}
		}
	}
	return true
}

type sub struct {
	path     []*gnmi.PathElem
	mode     gnmi.SubscriptionMode
	interval time.Duration
	suppress bool
}

// Subscribe serves ONCE, POLL and STREAM (SAMPLE, ON_CHANGE; TARGET_DEFINED = SAMPLE for
// counters, ON_CHANGE for oper-status) on the telemetry paths.
func (s *Server) Subscribe(stream gnmi.GNMI_SubscribeServer) error {
	if err := s.auth(stream.Context()); err != nil {
		return err
	}
	req, err := stream.Recv()
	if err != nil {
		return err
	}
	list := req.GetSubscribe()
	if list == nil {
		return status.Error(codes.InvalidArgument, "first message: a SubscriptionList is required")
	}
	if err := s.checkTarget(list.GetPrefix()); err != nil {
		return err
	}
	if e := list.GetEncoding(); e != gnmi.Encoding_JSON_IETF && e != gnmi.Encoding_JSON && e != gnmi.Encoding_PROTO {
		return status.Errorf(codes.Unimplemented, "encoding: %s; telemetry is sent as typed values (JSON_IETF, JSON, PROTO)", e)
	}
	var subs []sub
	for _, sb := range list.GetSubscription() {
		full := joinElems(list.GetPrefix(), sb.GetPath())
		if len(full) == 0 || (full[0].Name != "interfaces" && full[0].Name != "qos" && full[0].Name != "*") {
			return status.Errorf(codes.InvalidArgument, "%s: not a telemetry path (/interfaces/interface/state/..., "+
				"/qos/interfaces/interface/output/queues/queue/state/...)", pathKey(full))
		}
		iv := time.Duration(sb.GetSampleInterval())
		if iv == 0 {
			iv = DefaultSampleInterval
		}
		if iv < s.MinSampleInterval {
			return status.Errorf(codes.InvalidArgument, "%s: sample_interval %s is below %s", pathKey(full), iv, s.MinSampleInterval)
		}
		subs = append(subs, sub{path: full, mode: sb.GetMode(), interval: iv, suppress: sb.GetSuppressRedundant()})
	}
	if len(subs) == 0 {
		return status.Error(codes.InvalidArgument, "subscription: at least one path is required")
	}
	w := &writer{stream: stream, target: s.target}
	switch list.GetMode() {
	case gnmi.SubscriptionList_ONCE:
		if err := s.sendAll(w, subs, nil); err != nil {
			return err
		}
		return w.sync()
	case gnmi.SubscriptionList_POLL:
		for {
			if err := s.sendAll(w, subs, nil); err != nil {
				return err
			}
			if err := w.sync(); err != nil {
				return err
			}
			m, err := stream.Recv()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if m.GetPoll() == nil {
				return status.Error(codes.InvalidArgument, "POLL: only Poll messages may follow the SubscriptionList")
			}
		}
	}
	return s.stream(stream, w, subs, list.GetUpdatesOnly())
}

func joinElems(prefix, p *gnmi.Path) []*gnmi.PathElem {
	return append(append([]*gnmi.PathElem{}, prefix.GetElem()...), p.GetElem()...)
}

func (s *Server) sample(subs []sub) ([]leaf, error) {
	stats, err := s.sw.Stats()
	if err != nil {
		return nil, status.Errorf(codes.Internal, "reading counters: %v", err)
	}
	all := leaves(stats)
	var out []leaf
	for _, l := range all {
		for _, sb := range subs {
			if matches(sb.path, l.path) {
				out = append(out, l)
				break
			}
		}
	}
	return out, nil
}

func (s *Server) sendAll(w *writer, subs []sub, last map[string]string) error {
	ls, err := s.sample(subs)
	if err != nil {
		return err
	}
	var send []leaf
	for _, l := range ls {
		v := l.val.String()
		if last != nil {
			if last[l.key] == v {
				continue
			}
			last[l.key] = v
		}
		send = append(send, l)
	}
	return w.send(s.now().UnixNano(), send)
}

func (s *Server) stream(stream gnmi.GNMI_SubscribeServer, w *writer, subs []sub, updatesOnly bool) error {
	ctx := stream.Context()
	if !updatesOnly {
		if err := s.sendAll(w, subs, nil); err != nil {
			return err
		}
	}
	if err := w.sync(); err != nil {
		return err
	}
	errc := make(chan error, len(subs)+1)
	go func() { // a client may close its side; anything else after the list is a protocol error
		for {
			if _, err := stream.Recv(); err != nil {
				if err != io.EOF {
					errc <- err
				}
				return
			}
		}
	}()
	// Subscriptions with the same period and the same "changes only" rule share one ticker and
	// one kernel sample per tick: gnmic and weft-telemetry ask for three paths at one interval.
	type group struct {
		every       time.Duration
		changesOnly bool
		onChange    bool
	}
	groups := map[group][]sub{}
	var order []group
	for _, sb := range subs {
		onChange := sb.mode == gnmi.SubscriptionMode_ON_CHANGE ||
			sb.mode == gnmi.SubscriptionMode_TARGET_DEFINED && len(sb.path) > 0 && sb.path[len(sb.path)-1].Name == "oper-status"
		g := group{every: sb.interval, changesOnly: onChange || sb.suppress, onChange: onChange}
		if onChange {
			g.every = onChangeCheck
		}
		if _, ok := groups[g]; !ok {
			order = append(order, g)
		}
		groups[g] = append(groups[g], sb)
	}
	var wg sync.WaitGroup
	done := make(chan struct{})
	for _, g := range order {
		members := groups[g]
		var last map[string]string
		if g.changesOnly {
			last = map[string]string{}
			if ls, err := s.sample(members); err == nil { // the initial values were sent
				for _, l := range ls {
					last[l.key] = l.val.String()
				}
			}
		}
		every := g.every
		var changes <-chan struct{}
		if n, ok := s.sw.(linkNotifier); ok && g.onChange {
			var stop func()
			if changes, stop = n.LinkChanges(); changes != nil {
				every = s.OnChangeFallback
				defer stop()
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.NewTicker(every)
			defer t.Stop()
			for {
				select {
				case <-done:
					return
				case <-t.C:
				case <-changes:
				}
				if err := s.sendAll(w, members, last); err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	var err error
	select {
	case <-ctx.Done():
	case err = <-errc:
	}
	close(done)
	wg.Wait()
	return err
}

// writer serialises sends on one stream (grpc streams are not safe for concurrent Send).
type writer struct {
	mu     sync.Mutex
	stream gnmi.GNMI_SubscribeServer
	target string
}

// send groups leaves by their parent container: one notification per interface or queue.
func (w *writer) send(ts int64, ls []leaf) error {
	groups := map[string]*gnmi.Notification{}
	var order []string
	for _, l := range ls {
		parent := pathKey(l.path[:len(l.path)-1])
		n, ok := groups[parent]
		if !ok {
			n = &gnmi.Notification{Timestamp: ts, Prefix: &gnmi.Path{Target: w.target}}
			groups[parent] = n
			order = append(order, parent)
		}
		n.Update = append(n.Update, &gnmi.Update{Path: &gnmi.Path{Elem: l.path}, Val: l.val})
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, k := range order {
		if err := w.stream.Send(&gnmi.SubscribeResponse{Response: &gnmi.SubscribeResponse_Update{Update: groups[k]}}); err != nil {
			return fmt.Errorf("send: %w", err)
		}
	}
	return nil
}

func (w *writer) sync() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stream.Send(&gnmi.SubscribeResponse{Response: &gnmi.SubscribeResponse_SyncResponse{SyncResponse: true}})
}
