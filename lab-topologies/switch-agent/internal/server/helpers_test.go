package server

import (
	"context"
	"encoding/json"
	"io"
	"log"
	"net"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"weft.io/switch-agent/internal/kernel"
	"weft.io/switch-agent/internal/model"
)

// serve starts the gNMI server for namespace ns on a loopback port, as weft-switch does.
func serve(t *testing.T, ns, portMap, target string) gnmi.GNMIClient {
	t.Helper()
	return serveWith(t, ns, portMap, target, "", "")
}

func withCreds(c context.Context, user, pass string) context.Context {
	return metadata.AppendToOutgoingContext(c, "username", user, "password", pass)
}

func serveWith(t *testing.T, ns, portMap, target, user, pass string) gnmi.GNMIClient {
	t.Helper()
	c, _ := serveFull(t, ns, portMap, target, user, pass)
	return c
}

func serveServer(t *testing.T, ns, portMap, target string) (gnmi.GNMIClient, *Server) {
	t.Helper()
	return serveFull(t, ns, portMap, target, "", "")
}

// waitWatching waits until the kernel watcher runs (it starts asynchronously).
func waitWatching(t *testing.T, s *Server) {
	t.Helper()
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		if ch, stop := s.sw.(linkNotifier).LinkChanges(); ch != nil {
			stop()
			return
		}
		if time.Since(start) > 5*time.Second {
			t.Fatal("the kernel watcher did not start")
		}
	}
}

func serveFull(t *testing.T, ns, portMap, target, user, pass string) (gnmi.GNMIClient, *Server) {
	t.Helper()
	ports, err := kernel.ParsePorts(portMap)
	if err != nil {
		t.Fatal(err)
	}
	k, err := kernel.Open(ns, ports)
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// WaitForHandlers: Stop must not return while a handler still reads the kernel, or the
	// cleanup below closes the netlink handle under it (a race the detector caught in CI).
	g := grpc.NewServer(grpc.WaitForHandlers(true))
	srv := New(k, target, user, pass)
	gnmi.RegisterGNMIServer(g, srv)
	go func() { _ = g.Serve(lis) }()
	watchCtx, stopWatch := context.WithCancel(context.Background())
	watched := make(chan struct{})
	go func() { _ = k.Watch(watchCtx, log.New(io.Discard, "", 0)); close(watched) }()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Close()
		g.Stop()
		stopWatch()
		<-watched
		k.Close()
	})
	return gnmi.NewGNMIClient(conn), srv
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return c
}

func readIntent(t *testing.T, file string) model.Intent {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var in model.Intent
	if err := json.Unmarshal(raw, &in); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return in
}

func setRequest(t *testing.T, in model.Intent) *gnmi.SetRequest {
	t.Helper()
	req, err := in.SetRequest()
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// normalise parses JSON and orders keyed lists (routes by prefix, addresses by ip): OpenConfig
// keyed lists carry no order; next hops keep theirs (index = member).
func normalise(t *testing.T, raw []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	var walk func(any)
	walk = func(x any) {
		switch y := x.(type) {
		case map[string]any:
			for k, c := range y {
				if arr, ok := c.([]any); ok && (k == "static" || k == "address") {
					key := map[string]string{"static": "prefix", "address": "ip"}[k]
					sort.Slice(arr, func(i, j int) bool {
						return arr[i].(map[string]any)[key].(string) < arr[j].(map[string]any)[key].(string)
					})
				}
				walk(c)
			}
		case []any:
			for _, c := range y {
				walk(c)
			}
		}
	}
	walk(v)
	return v
}
