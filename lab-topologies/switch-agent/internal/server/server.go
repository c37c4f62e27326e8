// Package server is the gNMI service of a Weft switch (contracts/gnmi/README.md): Capabilities,
// Get read back from the kernel, all-or-nothing Set, Subscribe on interface and queue counters.
package server

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"weft.io/switch-agent/internal/kernel"
	"weft.io/switch-agent/internal/model"
)

// GNMIVersion is the gnmi.proto service version of the pinned module (v0.14.1).
const GNMIVersion = "0.10.0"

// Switch is the kernel side the server needs; *kernel.Kernel implements it.
type Switch interface {
	Read() (model.Config, error)
	Apply(model.Config) error
	HasPort(string) bool
	Stats() ([]kernel.PortStats, error)
}

// linkNotifier is implemented by switches that report link changes as they happen; ON_CHANGE
// subscriptions then check on each change (and every onChangeFallback) instead of polling.
type linkNotifier interface {
	LinkChanges() (<-chan struct{}, func())
}

// Server implements gnmi.GNMIServer for one switch.
type Server struct {
	gnmi.UnimplementedGNMIServer
	sw       Switch
	target   string
	username string
	password string
	setMu    sync.Mutex // one Set at a time: each reads, validates and applies the whole config
	now      func() time.Time
	// MinSampleInterval bounds SAMPLE intervals from below; the default 10 ms.
	MinSampleInterval time.Duration
	// OnChangeFallback is how often ON_CHANGE subscriptions also poll when the switch reports
	// link changes as they happen; the default 1 s.
	OnChangeFallback time.Duration
}

// New serves sw as target; username/password, when not empty, are required in the metadata.
func New(sw Switch, target, username, password string) *Server {
	return &Server{sw: sw, target: target, username: username, password: password, now: time.Now,
		MinSampleInterval: 10 * time.Millisecond, OnChangeFallback: time.Second}
}

func (s *Server) auth(ctx context.Context) error {
	if s.username == "" && s.password == "" {
		return nil
	}
	md, _ := metadata.FromIncomingContext(ctx)
	if first(md.Get("username")) != s.username || first(md.Get("password")) != s.password {
		return status.Error(codes.Unauthenticated, "metadata username/password: not accepted")
	}
	return nil
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

func (s *Server) checkTarget(prefix *gnmi.Path) error {
	if t := prefix.GetTarget(); t != "" && s.target != "" && t != s.target {
		return status.Errorf(codes.InvalidArgument, "prefix/target: %q, this switch is %q", t, s.target)
	}
	return nil
}

// Capabilities lists the models of the contract and JSON_IETF.
func (s *Server) Capabilities(ctx context.Context, _ *gnmi.CapabilityRequest) (*gnmi.CapabilityResponse, error) {
	if err := s.auth(ctx); err != nil {
		return nil, err
	}
	return &gnmi.CapabilityResponse{
		SupportedModels: []*gnmi.ModelData{
			{Name: "sonic-db", Organization: "Weft", Version: "1"},
			{Name: "openconfig-interfaces", Organization: "OpenConfig"},
			{Name: "openconfig-network-instance", Organization: "OpenConfig"},
			{Name: "openconfig-qos", Organization: "OpenConfig"},
		},
		SupportedEncodings: []gnmi.Encoding{gnmi.Encoding_JSON_IETF, gnmi.Encoding_JSON},
		GNMIVersion:        GNMIVersion,
	}, nil
}

// Get answers one notification per path with the subtree as the kernel holds it.
func (s *Server) Get(ctx context.Context, req *gnmi.GetRequest) (*gnmi.GetResponse, error) {
	if err := s.auth(ctx); err != nil {
		return nil, err
	}
	if err := s.checkTarget(req.GetPrefix()); err != nil {
		return nil, err
	}
	if e := req.GetEncoding(); e != gnmi.Encoding_JSON_IETF && e != gnmi.Encoding_JSON {
		return nil, status.Errorf(codes.Unimplemented, "encoding: %s; this switch answers JSON_IETF (or JSON)", e)
	}
	if len(req.GetUseModels()) > 0 {
		return nil, status.Error(codes.Unimplemented, "use_models: not supported; name paths with their origin")
	}
	var subtrees []model.Subtree
	var paths []*gnmi.Path
	for _, p := range req.GetPath() {
		full := model.Join(req.GetPrefix(), p)
		st, err := model.ParseSubtree(full)
		if err != nil {
			return nil, status.Error(codes.InvalidArgument, err.Error())
		}
		subtrees, paths = append(subtrees, st), append(paths, full)
	}
	cfg, err := s.sw.Read()
	if err != nil {
		return nil, status.Errorf(codes.Internal, "reading the kernel: %v", err)
	}
	ts := s.now().UnixNano()
	resp := &gnmi.GetResponse{}
	for i, st := range subtrees {
		raw, ok := model.Value(cfg, st)
		if !ok {
			return nil, status.Errorf(codes.NotFound, "%s: not configured", st)
		}
		val := &gnmi.TypedValue{Value: &gnmi.TypedValue_JsonIetfVal{JsonIetfVal: raw}}
		if req.GetEncoding() == gnmi.Encoding_JSON {
			val = &gnmi.TypedValue{Value: &gnmi.TypedValue_JsonVal{JsonVal: raw}}
		}
		p := st.Path()
		p.Elem = paths[i].Elem
		resp.Notification = append(resp.Notification, &gnmi.Notification{
			Timestamp: ts,
			Prefix:    &gnmi.Path{Target: s.target},
			Update:    []*gnmi.Update{{Path: p, Val: val}},
		})
	}
	return resp, nil
}

// Set applies deletes then replaces to the configuration read from the kernel, validates the
// result as a whole, applies it, and on a kernel error applies the previous one again.
func (s *Server) Set(ctx context.Context, req *gnmi.SetRequest) (*gnmi.SetResponse, error) {
	if err := s.auth(ctx); err != nil {
		return nil, err
	}
	if err := s.checkTarget(req.GetPrefix()); err != nil {
		return nil, err
	}
	if len(req.GetUpdate()) > 0 {
		return nil, status.Errorf(codes.InvalidArgument, "%s: update (merge) is not supported; send replace",
			model.PathString(model.Join(req.GetPrefix(), req.GetUpdate()[0].GetPath())))
	}
	if len(req.GetUnionReplace()) > 0 {
		return nil, status.Error(codes.InvalidArgument, "union_replace: not supported; send replace")
	}
	s.setMu.Lock()
	defer s.setMu.Unlock()
	prev, err := s.sw.Read()
	if err != nil {
		return nil, status.Errorf(codes.Internal, "reading the kernel: %v", err)
	}
	next := prev.Clone()
	var results []*gnmi.UpdateResult
	for _, p := range req.GetDelete() {
		full := model.Join(req.GetPrefix(), p)
		st, err := model.ParseSubtree(full)
		if err != nil {
			return nil, status.Error(codes.InvalidArgument, err.Error())
		}
		model.Delete(&next, st)
		results = append(results, &gnmi.UpdateResult{Path: p, Op: gnmi.UpdateResult_DELETE})
	}
	for _, u := range req.GetReplace() {
		full := model.Join(req.GetPrefix(), u.GetPath())
		st, err := model.ParseSubtree(full)
		if err != nil {
			return nil, status.Error(codes.InvalidArgument, err.Error())
		}
		raw := u.GetVal().GetJsonIetfVal()
		if raw == nil {
			raw = u.GetVal().GetJsonVal()
		}
		if raw == nil {
			return nil, status.Errorf(codes.InvalidArgument, "%s: val: a json_ietf_val is required", st)
		}
		if err := model.Replace(&next, st, raw); err != nil {
			return nil, status.Error(codes.InvalidArgument, err.Error())
		}
		results = append(results, &gnmi.UpdateResult{Path: u.GetPath(), Op: gnmi.UpdateResult_REPLACE})
	}
	if err := model.Validate(next, s.sw.HasPort); err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	if err := s.sw.Apply(next); err != nil {
		msg := err.Error()
		if rb := s.sw.Apply(prev); rb != nil {
			msg += "; rolling back also failed: " + rb.Error()
		}
		code := codes.FailedPrecondition
		if !errors.Is(err, kernel.ErrRefused) {
			code = codes.InvalidArgument
		}
		return nil, status.Error(code, msg)
	}
	return &gnmi.SetResponse{Prefix: req.GetPrefix(), Response: results, Timestamp: s.now().UnixNano()}, nil
}
