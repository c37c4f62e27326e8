package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Local endpoints on the agent's unix socket (JSON): what `nic-agent status` and `nic-agent
// ev-ports` print, and what a collective library or a wrapper reads for its source ports.
const (
	PathStatus = "/v1/status"
	PathEV     = "/v1/ev"
)

// ServeSocket answers on a unix socket until ctx ends.
func (a *Agent) ServeSocket(ctx context.Context, path string) error {
	_ = os.Remove(path) // a socket left by an earlier run
	l, err := net.Listen("unix", path)
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	// Readable by the training stack on the host, which runs as other users.
	if err := os.Chmod(path, 0o666); err != nil {
		l.Close()
		return fmt.Errorf("socket: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+PathStatus, func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, a.Snapshot()) })
	mux.HandleFunc("GET "+PathEV, func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, a.Snapshot().Applied.EV) })
	return serve(ctx, l, mux)
}

// ServeMetrics serves Prometheus /metrics on addr (host:port) until ctx ends.
func (a *Agent) ServeMetrics(ctx context.Context, addr string) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("metrics-addr: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(a.m.reg, promhttp.HandlerOpts{}))
	return serve(ctx, l, mux)
}

func serve(ctx context.Context, l net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	if err := srv.Serve(l); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}
