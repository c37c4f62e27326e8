package fanoutprobe

import (
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
