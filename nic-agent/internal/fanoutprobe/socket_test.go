package fanoutprobe

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// The kernel's stamp is when the bytes arrived, not when they were read: a reader that sleeps 300 ms
// before its recvmsg gets a stamp at the write and a read time 300 ms later.
func TestKernelStampStaysAtTheWriteWhenTheReaderSleeps(t *testing.T) {
	fd, server := timestampedPair(t)
	defer closeFd(fd)
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
	fd, server := timestampedPair(t) // the probe closes fd
	p, err := New(Config{Addr: netip.MustParseAddrPort("127.0.0.1:9"), Token: "t", Agents: 1, NICs: 1,
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

	// The round, and when the heartbeat was written (ms after the publish).
	round := func(readBetween bool, padBytes int) (Round, float64) {
		p.Arm()
		published := time.Now().UnixMicro()
		data := fmt.Sprintf(":published-us=%d\nevent:profile\nid:2\ndata:{\"pad\":%q}\n\n", published,
			strings.Repeat("x", padBytes))
		if _, err := fmt.Fprintf(server, "%x\r\n%s\r\n", len(data), data); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
		if readBetween {
			r.mu.Lock()
			p.drain(r, a)
			r.mu.Unlock()
		}
		heartbeatMs := float64(time.Now().UnixMicro()-published) / 1e3
		if _, err := server.Write([]byte("3\r\n:\n\n\r\n")); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
		r.mu.Lock()
		p.drain(r, a)
		r.mu.Unlock()
		return p.Await(0, published), heartbeatMs
	}
	// Whatever TCP did, the heartbeat's time (>= 200 ms after the event) is never the event's arrival.
	for _, c := range []struct {
		readBetween bool
		padBytes    int
	}{{false, 0}, {true, 0}, {false, 40 << 10}, {true, 40 << 10}} {
		got, heartbeatMs := round(c.readBetween, c.padBytes)
		if got.Events != 1 || got.Delivered.N+got.Restamped != 1 || got.Read.P50Ms < 200 ||
			(got.Delivered.N == 1 && got.Delivered.P50Ms >= heartbeatMs) {
			t.Fatalf("read between %v, event of %d+ bytes: round %+v", c.readBetween, c.padBytes, got)
		}
		switch {
		case !c.readBetween && c.padBytes == 0 && got.Restamped != 1:
			t.Errorf("a small unread event: the heartbeat should have been merged into it: %+v", got)
		case c.readBetween && got.Restamped != 0:
			t.Errorf("read between %v, event of %d+ bytes: restamped although read apart: %+v", c.readBetween,
				c.padBytes, got)
		}
	}
}

// timestampedPair connects a socket with SO_TIMESTAMPNS (the caller closes it or hands it on) to a
// loopback listener and returns it with the server's end of the connection.
func timestampedPair(t *testing.T) (int, net.Conn) {
	t.Helper()
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
	server := <-accepted
	if server == nil {
		t.Fatal("no connection accepted")
	}
	t.Cleanup(func() { server.Close() })
	return fd, server
}
