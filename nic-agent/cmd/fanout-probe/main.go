// Command fanout-probe plays the api bench's agents: N connections to scheduler-api waiting for
// their NICs' next profile versions (streams or long-polls), each arrival timed by the kernel's
// receive stamp and by the probe's read. Driven by lines on stdin (see fanoutprobe.Serve); it
// runs under SCHED_IDLE, so that on the service's own machine it takes only CPU nothing else wants.
package main

import (
	"flag"
	"fmt"
	"net/netip"
	"os"
	"runtime"

	"weft.io/nic-agent/internal/fanoutprobe"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "scheduler-api's address (IPv4:port)")
	token := flag.String("token", "", "the agents' bearer token")
	agents := flag.Int("agents", 10000, "agents; agent i waits for NIC nic<i mod nics>")
	nics := flag.Int("nics", 1024, "NICs")
	stream := flag.Bool("stream", false, "hold profile streams instead of long-polls")
	readers := flag.Int("readers", runtime.NumCPU(), "reader threads")
	idle := flag.Bool("idle", true, "run every thread under SCHED_IDLE")
	flag.Parse()
	ap, err := netip.ParseAddrPort(*addr)
	if err != nil || !ap.Addr().Is4() {
		fmt.Fprintf(os.Stderr, "fanout-probe: --addr %q: want IPv4:port\n", *addr)
		os.Exit(2)
	}
	p, err := fanoutprobe.New(fanoutprobe.Config{Addr: ap, Token: *token, Agents: *agents, NICs: *nics,
		Stream: *stream, Readers: *readers})
	if err != nil {
		fmt.Fprintln(os.Stderr, "fanout-probe:", err)
		os.Exit(1)
	}
	sched := "normal"
	if *idle {
		// After the readers started: the sweep covers them and whatever threads the runtime made.
		if err := fanoutprobe.SetIdle(); err != nil {
			fmt.Fprintln(os.Stderr, "fanout-probe:", err)
			os.Exit(1)
		}
		sched = "idle"
	}
	fmt.Printf("ready sched=%s readers=%d\n", sched, *readers)
	if err := fanoutprobe.Serve(p, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "fanout-probe:", err)
		os.Exit(1)
	}
}
