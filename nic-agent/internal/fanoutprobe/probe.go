// Package fanoutprobe holds the api bench's simulated agents: N connections to scheduler-api that
// each wait for their NIC's next profile version, either on a profile stream or on a long-poll, and
// time every version's arrival twice: by the kernel's receive stamp of the bytes (when the version
// reached the agent's host) and by the probe's own read (when a reader thread got a core to read
// it). On one machine with the service, the first is what an agent on its own host would see; the
// second adds the probe's wait for a core.
package fanoutprobe

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// ErrStreamOnly is returned by Park on a probe whose agents hold profile streams.
var ErrStreamOnly = errors.New("park: the agents hold streams; only long-polls park")

// Config says whom the probe connects to and how many agents it plays.
type Config struct {
	Addr    netip.AddrPort
	Token   string // every agent's bearer token
	Agents  int    // agent i waits for NIC "nic<i mod NICs>"
	NICs    int
	Stream  bool // profile streams; else long-polls
	Readers int  // reader threads, each with its own epoll set
	WaitS   int  // a long-poll's wait parameter
}

type agent struct {
	fd     int
	nic    int
	events EventScanner
	chunks ChunkFramer
	resp   ResponseParser
	// The round's arrival (owned by the agent's reader, under its lock).
	got                           bool
	publishedUs, kernelNs, readNs int64
	// restamped: bytes read after the event carried the event's own stamp, so TCP merged a later
	// segment (a heartbeat) into the event's before it was read, and the merged stamp is the later
	// one's: the event's time is unknown (at most the stamp).
	restamped, watch bool
}

type reader struct {
	mu     sync.Mutex
	epfd   int
	byFd   map[int]*agent
	buf    []byte
	oob    []byte
	exited chan struct{}
}

// Probe holds the agents' connections and times each round's arrivals.
type Probe struct {
	cfg     Config
	agents  []*agent
	readers []*reader
	client  *http.Client
	closing atomic.Bool
	armed   atomic.Bool
	got     atomic.Int64
	failed  atomic.Int64
	all     chan struct{}
	cpu0    float64
}

// New starts the reader threads; Open connects the agents.
func New(cfg Config) (*Probe, error) {
	if cfg.Agents < 1 || cfg.NICs < 1 || cfg.Readers < 1 {
		return nil, fmt.Errorf("agents %d, nics %d, readers %d: each must be at least 1", cfg.Agents, cfg.NICs,
			cfg.Readers)
	}
	if cfg.WaitS == 0 {
		cfg.WaitS = 60
	}
	p := &Probe{cfg: cfg, all: make(chan struct{}, 1),
		client: &http.Client{Timeout: 30 * time.Second}}
	for range cfg.Readers {
		epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
		if err != nil {
			p.Close()
			return nil, fmt.Errorf("epoll: %w", err)
		}
		r := &reader{epfd: epfd, byFd: map[int]*agent{}, buf: make([]byte, 16<<10), oob: make([]byte, oobSize),
			exited: make(chan struct{})}
		p.readers = append(p.readers, r)
		go p.loop(r)
	}
	return p, nil
}

func (p *Probe) readerOf(i int) *reader { return p.readers[i%len(p.readers)] }

// Open connects every agent (a pause every 200 connects lets the service's accept queue drain) and,
// for streams, opens each agent's stream at its NIC's current version.
func (p *Probe) Open() error {
	for i := range p.cfg.Agents {
		fd, err := dialTimestamped(p.cfg.Addr)
		if err != nil {
			return fmt.Errorf("agent %d: %w", i, err)
		}
		if err := unix.SetNonblock(fd, true); err != nil {
			unix.Close(fd)
			return fmt.Errorf("agent %d: nonblock: %w", i, err)
		}
		a := &agent{fd: fd, nic: i % p.cfg.NICs}
		p.agents = append(p.agents, a)
		r := p.readerOf(i)
		r.mu.Lock()
		r.byFd[fd] = a
		r.mu.Unlock()
		if err := unix.EpollCtl(r.epfd, unix.EPOLL_CTL_ADD, fd,
			&unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLRDHUP, Fd: int32(fd)}); err != nil {
			return fmt.Errorf("agent %d: epoll_ctl: %w", i, err)
		}
		if i%200 == 199 {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if !p.cfg.Stream {
		return nil
	}
	return p.request(func(nic int, since int64) string {
		return fmt.Sprintf("/v1/agents/nic%d/paths/stream?since=%d", nic, since)
	}, "text/event-stream")
}

// Park sends every agent's long-poll for its NIC's next version.
func (p *Probe) Park() error {
	if p.cfg.Stream {
		return ErrStreamOnly
	}
	return p.request(func(nic int, since int64) string {
		return fmt.Sprintf("/v1/agents/nic%d/paths?since=%d&wait=%d", nic, since, p.cfg.WaitS)
	}, "application/json")
}

// request reads each NIC's current version and sends every agent one request on its connection.
func (p *Probe) request(path func(nic int, since int64) string, accept string) error {
	since, err := p.versions()
	if err != nil {
		return err
	}
	for i, a := range p.agents {
		req := []byte("GET " + path(a.nic, since[a.nic]) + " HTTP/1.1\r\nHost: " + p.cfg.Addr.String() +
			"\r\nAuthorization: Bearer " + p.cfg.Token + "\r\nAccept: " + accept + "\r\n\r\n")
		r := p.readerOf(i)
		r.mu.Lock()
		a.resp.Reset()
		err := writeAll(a.fd, req)
		r.mu.Unlock()
		if err != nil {
			return fmt.Errorf("agent %d: %w", i, err)
		}
	}
	return nil
}

var versionInBody = regexp.MustCompile(`"version":(\d+)`)

// versions pulls every NIC's profile once (setup, not timed): its version, 0 for a NIC without one.
func (p *Probe) versions() ([]int64, error) {
	out := make([]int64, p.cfg.NICs)
	for n := range out {
		req, err := http.NewRequest(http.MethodGet, fmt.Sprintf("http://%s/v1/agents/nic%d/paths", p.cfg.Addr, n), nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+p.cfg.Token)
		req.Header.Set("Accept", "application/json")
		resp, err := p.client.Do(req)
		if err != nil {
			return nil, fmt.Errorf("profile of nic%d: %w", n, err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		switch {
		case err != nil:
			return nil, fmt.Errorf("profile of nic%d: %w", n, err)
		case resp.StatusCode == http.StatusNoContent:
			out[n] = 0
		case resp.StatusCode != http.StatusOK:
			return nil, fmt.Errorf("profile of nic%d: status %d: %s", n, resp.StatusCode, bytes.TrimSpace(body))
		default:
			m := versionInBody.FindSubmatch(body)
			if m == nil {
				return nil, fmt.Errorf("profile of nic%d without a version", n)
			}
			out[n], _ = strconv.ParseInt(string(m[1]), 10, 64)
		}
	}
	return out, nil
}

// Arm starts a round: from now on each agent's first version is its arrival.
func (p *Probe) Arm() {
	for _, r := range p.readers {
		r.mu.Lock()
		for _, a := range r.byFd {
			a.got = false
		}
		r.mu.Unlock()
	}
	p.got.Store(0)
	select {
	case <-p.all:
	default:
	}
	p.cpu0 = cpuMs()
	p.armed.Store(true)
}

// Round is one round's arrivals, ms: delivered = kernel receive stamp - the version's publish,
// read = the probe's read - the publish, update = the read - postUs (when the job was sent).
type Round struct {
	Events            int
	Delivered, Read   Figures
	Update            Figures
	PublishedMinUs    int64
	Unstamped, Failed int
	Restamped         int // arrivals whose stamp a later segment overwrote: left out of Delivered
	CPUMs             float64
}

// Await waits until every agent has its version or timeout passed, then ends the round.
func (p *Probe) Await(timeout time.Duration, postUs int64) Round {
	select {
	case <-p.all:
	case <-time.After(timeout):
	}
	p.armed.Store(false)
	var delivered, read, update []float64
	round := Round{PublishedMinUs: 0, Failed: int(p.failed.Load())}
	for _, r := range p.readers {
		r.mu.Lock()
		for _, a := range r.byFd {
			if !a.got {
				continue
			}
			round.Events++
			if a.publishedUs != 0 {
				if round.PublishedMinUs == 0 || a.publishedUs < round.PublishedMinUs {
					round.PublishedMinUs = a.publishedUs
				}
				read = append(read, float64(a.readNs/1e3-a.publishedUs)/1e3)
				if a.kernelNs != 0 && !a.restamped {
					delivered = append(delivered, float64(a.kernelNs/1e3-a.publishedUs)/1e3)
				}
			}
			switch {
			case a.kernelNs == 0:
				round.Unstamped++
			case a.restamped:
				round.Restamped++
			}
			if postUs != 0 {
				update = append(update, float64(a.readNs/1e3-postUs)/1e3)
			}
		}
		r.mu.Unlock()
	}
	round.Delivered, round.Read, round.Update = Summarise(delivered), Summarise(read), Summarise(update)
	round.CPUMs = cpuMs() - p.cpu0
	return round
}

// arrived records an agent's version (under its reader's lock).
func (p *Probe) arrived(a *agent, publishedUs int64, rd Read) {
	if !p.armed.Load() || a.got {
		return
	}
	a.got, a.publishedUs, a.kernelNs, a.readNs = true, publishedUs, rd.KernelNs, rd.ReadNs
	a.restamped, a.watch = false, p.cfg.Stream
	if p.got.Add(1) == int64(len(p.agents)) {
		select {
		case p.all <- struct{}{}:
		default:
		}
	}
}

// loop is one reader thread: level-triggered epoll, each ready connection drained with recvmsg.
func (p *Probe) loop(r *reader) {
	defer close(r.exited)
	events := make([]unix.EpollEvent, 256)
	for !p.closing.Load() {
		n, err := unix.EpollWait(r.epfd, events, 100)
		if err != nil {
			if err == unix.EINTR {
				continue
			}
			return
		}
		r.mu.Lock()
		for _, ev := range events[:n] {
			if a := r.byFd[int(ev.Fd)]; a != nil {
				p.drain(r, a)
			}
		}
		r.mu.Unlock()
	}
}

// drain reads a connection until it is empty (streams: chunk by chunk, see ChunkFramer); a closed
// or failed one is dropped and counted.
func (p *Probe) drain(r *reader, a *agent) {
	for {
		buf := r.buf
		if p.cfg.Stream {
			buf = r.buf[:a.chunks.Want(len(r.buf))]
		}
		rd, err := readStamped(a.fd, buf, r.oob)
		if err == unix.EAGAIN || err == unix.EINTR {
			return
		}
		if err != nil || rd.N == 0 {
			p.drop(r, a)
			return
		}
		data := r.buf[:rd.N]
		if p.cfg.Stream {
			// A read that starts where a chunk ended holds only later chunks: if it is the first after
			// the event's chunk and carries the event's stamp, TCP merged it into the event's segment.
			if a.watch && a.chunks.AtBoundary() {
				a.restamped, a.watch = rd.KernelNs != 0 && rd.KernelNs == a.kernelNs, false
			}
			if err := a.chunks.Consume(data); err != nil {
				p.drop(r, a)
				return
			}
			for _, us := range a.events.Feed(data) {
				p.arrived(a, us, rd)
			}
		} else {
			resp, done, perr := a.resp.Feed(data)
			switch {
			case perr != nil:
				p.drop(r, a)
				return
			case done && resp.Status == http.StatusOK:
				p.arrived(a, resp.PublishedUs, rd)
				a.resp.Reset()
			case done:
				p.failed.Add(1)
				a.resp.Reset()
			}
		}
		if !p.cfg.Stream && rd.N < len(r.buf) { // the socket had less than the room: drained
			return
		}
	}
}

func (p *Probe) drop(r *reader, a *agent) {
	p.failed.Add(1)
	_ = unix.EpollCtl(r.epfd, unix.EPOLL_CTL_DEL, a.fd, nil)
	delete(r.byFd, a.fd)
	unix.Close(a.fd)
}

// Close stops the readers and closes every connection.
func (p *Probe) Close() {
	p.closing.Store(true)
	for _, r := range p.readers {
		<-r.exited
		r.mu.Lock()
		for fd := range r.byFd {
			unix.Close(fd)
		}
		r.byFd = map[int]*agent{}
		r.mu.Unlock()
		unix.Close(r.epfd)
	}
}

// cpuMs is the process's user + system CPU so far.
func cpuMs() float64 {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}
