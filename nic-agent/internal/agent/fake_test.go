package agent

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"weft.io/nic-agent/internal/profile"
)

// fakeScheduler is an httptest stand-in for scheduler-api's agent contract (the real service is
// Java; the end-to-end test in system-tests runs agents against it). It long-polls like the
// real one: 200 with the profile when newer than since, else waits and answers 304.
type fakeScheduler struct {
	t       *testing.T
	token   string
	mu      sync.Mutex
	p       profile.Profile
	changed chan struct{}
	reports []json.RawMessage
	srv     *httptest.Server
	// noStream makes the stream endpoint answer 404 like a scheduler-api without it.
	noStream bool
	polls    int // GET .../paths requests
	streams  int // GET .../paths/stream requests
}

func newFakeScheduler(t *testing.T, token string, p profile.Profile) *fakeScheduler {
	f := &fakeScheduler{t: t, token: token, p: p, changed: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/agents/{nic}/paths", f.paths)
	mux.HandleFunc("GET /v1/agents/{nic}/paths/stream", f.stream)
	mux.HandleFunc("POST /v1/agents/{nic}/reports", f.report)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeScheduler) set(p profile.Profile) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.p = p
	close(f.changed)
	f.changed = make(chan struct{})
}

func (f *fakeScheduler) authorized(w http.ResponseWriter, r *http.Request) bool {
	if r.Header.Get("Authorization") != "Bearer "+f.token {
		http.Error(w, `{"detail":"bad token"}`, http.StatusUnauthorized)
		return false
	}
	if r.PathValue("nic") != f.p.NIC {
		http.Error(w, `{"detail":"not bound"}`, http.StatusForbidden)
		return false
	}
	return true
}

func (f *fakeScheduler) count(n *int) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	*n++
	return *n
}

func (f *fakeScheduler) requests() (polls, streams int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.polls, f.streams
}

// stream serves server-sent events: one "profile" event per version newer than since.
func (f *fakeScheduler) stream(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	off := f.noStream
	f.mu.Unlock()
	if off {
		http.Error(w, `{"title":"Not Found","status":404}`, http.StatusNotFound)
		return
	}
	if !f.authorized(w, r) {
		return
	}
	f.count(&f.streams)
	since := int64(-1)
	if s := r.URL.Query().Get("since"); s != "" {
		since, _ = strconv.ParseInt(s, 10, 64)
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
	for {
		f.mu.Lock()
		p, ch := f.p, f.changed
		f.mu.Unlock()
		if since < 0 || p.Version > since {
			b, _ := json.Marshal(p)
			fmt.Fprintf(w, "event: profile\nid: %d\ndata: %s\n\n", p.Version, b)
			w.(http.Flusher).Flush()
			since = p.Version
		}
		select {
		case <-ch:
		case <-r.Context().Done():
			return
		}
	}
}

func (f *fakeScheduler) paths(w http.ResponseWriter, r *http.Request) {
	if !f.authorized(w, r) {
		return
	}
	f.count(&f.polls)
	since := int64(-1)
	if s := r.URL.Query().Get("since"); s != "" {
		since, _ = strconv.ParseInt(s, 10, 64)
	}
	wait, _ := strconv.Atoi(r.URL.Query().Get("wait"))
	deadline := time.After(time.Duration(wait) * time.Second)
	for {
		f.mu.Lock()
		p, ch := f.p, f.changed
		f.mu.Unlock()
		if since < 0 || p.Version > since {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(p)
			return
		}
		select {
		case <-ch:
			continue
		case <-deadline:
		case <-r.Context().Done():
		}
		w.Header().Set("Weft-Version", strconv.FormatInt(p.Version, 10))
		w.WriteHeader(http.StatusNotModified)
		return
	}
}

func (f *fakeScheduler) report(w http.ResponseWriter, r *http.Request) {
	if !f.authorized(w, r) {
		return
	}
	var raw json.RawMessage
	if err := json.NewDecoder(r.Body).Decode(&raw); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.reports = append(f.reports, raw)
	f.mu.Unlock()
	w.WriteHeader(http.StatusAccepted)
}

// reportsSoFar is a copy of the reports received.
func (f *fakeScheduler) reportsSoFar() []json.RawMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]json.RawMessage(nil), f.reports...)
}
