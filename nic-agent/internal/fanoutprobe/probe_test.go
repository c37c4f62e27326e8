package fanoutprobe

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func closeFd(fd int) { unix.Close(fd) }

// fakeService answers like scheduler-api's agent contract: a profile at version 1, long-polls and
// streams that get version 2 when publish is called, each stamped with the publish time.
type fakeService struct {
	mu        sync.Mutex
	published chan struct{}
	at        int64
	waiting   sync.WaitGroup
}

func newFakeService(waiters int) *fakeService {
	f := &fakeService{published: make(chan struct{})}
	f.waiting.Add(waiters)
	return f
}

func (f *fakeService) publish() {
	f.mu.Lock()
	f.at = time.Now().UnixMicro()
	f.mu.Unlock()
	close(f.published)
}

func (f *fakeService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer t0ken" {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	stream := strings.HasSuffix(r.URL.Path, "/stream")
	if !stream && r.URL.Query().Get("wait") == "" {
		w.Header().Set("Weft-Version", "1")
		fmt.Fprint(w, `{"nic":"x","version":1}`)
		return
	}
	if r.URL.Query().Get("since") != "1" {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	if stream {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
	}
	f.waiting.Done()
	<-f.published
	f.mu.Lock()
	at := f.at
	f.mu.Unlock()
	if stream {
		fmt.Fprintf(w, ":published-us=%d\nevent:profile\nid:2\ndata:{\"version\":2}\n\n", at)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		return
	}
	w.Header().Set("Weft-Version", "2")
	w.Header().Set("Weft-Published-Us", fmt.Sprint(at))
	fmt.Fprint(w, `{"version":2}`)
}

func TestProbeTimesEveryAgentsVersion(t *testing.T) {
	for _, stream := range []bool{true, false} {
		t.Run(map[bool]string{true: "stream", false: "long-poll"}[stream], func(t *testing.T) {
			const agents = 24
			fake := newFakeService(agents)
			srv := httptest.NewServer(fake)
			defer srv.Close()
			p, err := New(Config{Addr: netip.MustParseAddrPort(strings.TrimPrefix(srv.URL, "http://")),
				Token: "t0ken", Agents: agents, NICs: 5, Stream: stream, Readers: 2})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if err := p.Open(); err != nil {
				t.Fatal(err)
			}
			if !stream {
				if err := p.Park(); err != nil {
					t.Fatal(err)
				}
			}
			fake.waiting.Wait()
			time.Sleep(20 * time.Millisecond) // the stream headers are read before the round
			p.Arm()
			post := time.Now().UnixMicro()
			fake.publish()
			r := p.Await(10*time.Second, post)
			if r.Events != agents || r.Unstamped != 0 || r.Failed != 0 || r.Delivered.N != agents {
				t.Fatalf("round %+v", r)
			}
			if r.PublishedMinUs < post || r.Update.FirstMs < 0 {
				t.Fatalf("published %d before the post %d", r.PublishedMinUs, post)
			}
			if r.Delivered.FirstMs < 0 || r.Delivered.P99Ms > r.Read.MaxMs || r.Read.MaxMs > 5000 {
				t.Fatalf("delivered %+v read %+v", r.Delivered, r.Read)
			}
			if stream {
				if err := p.Park(); err != ErrStreamOnly {
					t.Fatalf("park on streams: %v", err)
				}
			}
		})
	}
}

// SetIdle is checked in a child process of its own: it would slow every later test of this one.
func TestSetIdleCoversEveryThread(t *testing.T) {
	if os.Getenv("FANOUTPROBE_IDLE_CHILD") == "1" {
		if err := SetIdle(); err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		go func() {}() // a thread the runtime may start later inherits the policy
		pol, err := Policies()
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		for tid, p := range pol {
			if p != unix.SCHED_IDLE {
				fmt.Println("thread", tid, "policy", p)
				os.Exit(1)
			}
		}
		fmt.Println("threads", len(pol), "idle")
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSetIdleCoversEveryThread$")
	cmd.Env = append(os.Environ(), "FANOUTPROBE_IDLE_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "idle") {
		t.Fatalf("child: %v\n%s", err, out)
	}
	t.Log(strings.TrimSpace(string(out)))
}
