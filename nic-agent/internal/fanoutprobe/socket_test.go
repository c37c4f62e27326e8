package fanoutprobe

import (
	"fmt"
	"net"
	"net/netip"
	"testing"
	"time"
)

// The kernel's stamp is when the bytes arrived, not when they were read: a reader that sleeps 300 ms
// before its recvmsg gets a stamp at the write and a read time 300 ms later.
func TestKernelStampStaysAtTheWriteWhenTheReaderSleeps(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			close(accepted)
			return
		}
		accepted <- c
	}()
	fd, err := dialTimestamped(netip.MustParseAddrPort(ln.Addr().String()))
	if err != nil {
		t.Fatal(err)
	}
	defer closeFd(fd)
	server := <-accepted
	if server == nil {
		t.Fatal("no connection accepted")
	}
	defer server.Close()
	// Timestamping is switched on for the whole stack by a deferred kernel work item: give it a moment.
	time.Sleep(20 * time.Millisecond)

	const sleep = 300 * time.Millisecond
	for round := range 3 {
		written := time.Now().UnixNano()
		if _, err := server.Write([]byte(":published-us=1\n")); err != nil {
			t.Fatal(err)
		}
		time.Sleep(sleep)
		rd, err := readStamped(fd, make([]byte, 4096), make([]byte, oobSize))
		if err != nil || rd.N == 0 {
			t.Fatalf("round %d: read %d bytes: %v", round, rd.N, err)
		}
		if rd.KernelNs == 0 {
			t.Fatalf("round %d: recvmsg carried no SCM_TIMESTAMPNS", round)
		}
		if d := time.Duration(rd.KernelNs - written); d < -time.Millisecond || d > 50*time.Millisecond {
			t.Errorf("round %d: kernel stamp %v after the write, want ~0", round, d)
		}
		if d := time.Duration(rd.ReadNs - written); d < sleep {
			t.Errorf("round %d: read %v after the write, want >= %v", round, d, sleep)
		}
	}
}

// A heartbeat that arrives after an event, before a late read, is merged by TCP into the event's
// segment and gives it its own (later) stamp: the probe sees the same stamp on the heartbeat's bytes,
// counts the event as restamped and leaves it out of the delivered figures. A heartbeat read apart
// leaves the event's stamp alone.
func TestALaterHeartbeatIsNeverTakenForTheEventsArrival(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	fd, err := dialTimestamped(netip.MustParseAddrPort(ln.Addr().String()))
	if err != nil {
		t.Fatal(err)
	}
	server := <-accepted
	if server == nil {
		t.Fatal("no connection accepted")
	}
	defer server.Close()
	p, err := New(Config{Addr: netip.MustParseAddrPort(ln.Addr().String()), Token: "t", Agents: 1, NICs: 1,
		Stream: true, Readers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	r := p.readers[0]
	a := &agent{fd: fd} // not in the epoll set: the test reads it itself
	r.mu.Lock()
	r.byFd[fd] = a
	r.mu.Unlock()
	if _, err := server.Write([]byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	r.mu.Lock()
	p.drain(r, a)
	r.mu.Unlock()

	round := func(readBetween bool) Round {
		p.Arm()
		published := time.Now().UnixMicro()
		data := fmt.Sprintf(":published-us=%d\nevent:profile\nid:2\ndata:{}\n\n", published)
		if _, err := fmt.Fprintf(server, "%x\r\n%s\r\n", len(data), data); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
		if readBetween {
			r.mu.Lock()
			p.drain(r, a)
			r.mu.Unlock()
		}
		if _, err := server.Write([]byte("3\r\n:\n\n\r\n")); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
		r.mu.Lock()
		p.drain(r, a)
		r.mu.Unlock()
		return p.Await(0, published)
	}
	merged := round(false)
	if merged.Events != 1 || merged.Restamped != 1 || merged.Delivered.N != 0 || merged.Read.P50Ms < 300 {
		t.Fatalf("heartbeat merged into the unread event: round %+v", merged)
	}
	apart := round(true)
	if apart.Events != 1 || apart.Restamped != 0 || apart.Delivered.N != 1 || apart.Delivered.P50Ms > 50 ||
		apart.Read.P50Ms < 200 {
		t.Fatalf("event read before the heartbeat came: round %+v", apart)
	}
}
