package telemetry

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
)

// Target is one switch agent: its id (the Kafka key and prefix.target) and gNMI address.
type Target struct {
	Name    string
	Address string
}

// Sink receives one record per notification: key = switch id, value = a JSON array of events.
type Sink interface {
	Write(key string, value []byte)
}

// SamplePaths are the telemetry paths subscribed to in SAMPLE mode, every Interval.
var SamplePaths = []string{
	"/interfaces/interface/state/counters",
	"/qos/interfaces/interface/output/queues/queue/state",
}

// OnChangePaths are subscribed to in ON_CHANGE mode: the switch agent sends a port's new
// oper-status as its kernel announces it, not at the next sample tick (which cost up to one
// interval, 50 ms on average at 100 ms, of every link-down reaction).
var OnChangePaths = []string{
	"/interfaces/interface/state/oper-status",
}

// Subscriber keeps one gNMI STREAM subscription per target and follows changes to the target set.
type Subscriber struct {
	Interval     time.Duration
	Subscription string // the subscription name (gnmic's "name" and subscription-name tag)
	Username     string
	Password     string
	Sink         Sink
	Log          *log.Logger

	mu      sync.Mutex
	running map[string]*run // by target name
	wg      sync.WaitGroup
}

type run struct {
	address string
	cancel  context.CancelFunc
}

// SetTargets starts subscriptions to new targets, stops those no longer listed and restarts
// those whose address changed.
func (s *Subscriber) SetTargets(ctx context.Context, targets []Target) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running == nil {
		s.running = map[string]*run{}
	}
	want := map[string]string{}
	for _, t := range targets {
		want[t.Name] = t.Address
	}
	for name, r := range s.running {
		if addr, ok := want[name]; !ok || addr != r.address {
			r.cancel()
			delete(s.running, name)
		}
	}
	for _, t := range targets {
		if _, ok := s.running[t.Name]; ok {
			continue
		}
		c, cancel := context.WithCancel(ctx)
		s.running[t.Name] = &run{address: t.Address, cancel: cancel}
		s.wg.Add(1)
		go func(t Target) {
			defer s.wg.Done()
			s.follow(c, t)
		}(t)
	}
}

// Targets lists the targets subscribed to, sorted by name.
func (s *Subscriber) Targets() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for name := range s.running {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Wait blocks until every subscription has ended (after the context passed to SetTargets ends).
func (s *Subscriber) Wait() { s.wg.Wait() }

// follow subscribes to one target until ctx ends, reconnecting with capped backoff.
func (s *Subscriber) follow(ctx context.Context, t Target) {
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := s.subscribe(ctx, t, func() { backoff = 100 * time.Millisecond })
		if ctx.Err() != nil {
			return
		}
		s.Log.Printf("switch %s (%s): subscription ended: %v; retrying in %s", t.Name, t.Address, err, backoff)
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 5*time.Second)
	}
}

func elemPath(p string) *gnmi.Path {
	var elems []*gnmi.PathElem
	for _, name := range strings.Split(strings.Trim(p, "/"), "/") {
		elems = append(elems, &gnmi.PathElem{Name: name})
	}
	return &gnmi.Path{Elem: elems}
}

func (s *Subscriber) subscribe(ctx context.Context, t Target, connected func()) error {
	conn, err := grpc.NewClient(t.Address, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return fmt.Errorf("dial: %w", err)
	}
	defer conn.Close()
	if s.Username != "" || s.Password != "" {
		ctx = metadata.AppendToOutgoingContext(ctx, "username", s.Username, "password", s.Password)
	}
	st, err := gnmi.NewGNMIClient(conn).Subscribe(ctx)
	if err != nil {
		return fmt.Errorf("subscribe: %w", err)
	}
	list := &gnmi.SubscriptionList{Prefix: &gnmi.Path{Target: t.Name}, Mode: gnmi.SubscriptionList_STREAM,
		Encoding: gnmi.Encoding_JSON_IETF}
	for _, p := range SamplePaths {
		list.Subscription = append(list.Subscription, &gnmi.Subscription{Path: elemPath(p),
			Mode: gnmi.SubscriptionMode_SAMPLE, SampleInterval: uint64(s.Interval)})
	}
	for _, p := range OnChangePaths {
		list.Subscription = append(list.Subscription, &gnmi.Subscription{Path: elemPath(p),
			Mode: gnmi.SubscriptionMode_ON_CHANGE})
	}
	if err := st.Send(&gnmi.SubscribeRequest{Request: &gnmi.SubscribeRequest_Subscribe{Subscribe: list}}); err != nil {
		return fmt.Errorf("subscribe: %w", err)
	}
	for {
		resp, err := st.Recv()
		if err != nil {
			return err
		}
		n := resp.GetUpdate()
		if n == nil {
			connected() // sync_response: no event, as with gnmic
			continue
		}
		evs := Events(n, t.Address, s.Subscription)
		if len(evs) == 0 {
			continue
		}
		b, err := json.Marshal(evs)
		if err != nil {
			return fmt.Errorf("encode events: %w", err)
		}
		s.Sink.Write(t.Name, b)
	}
}
