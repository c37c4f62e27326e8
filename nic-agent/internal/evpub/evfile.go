// Package evpub publishes the entropy values (UDP source ports) the agent was given to the local
// training stack: a file in HCCL's shape and a JSON endpoint on a unix socket.
package evpub

import (
	"bytes"
	"fmt"
	"strconv"

	"weft.io/nic-agent/internal/host"
	"weft.io/nic-agent/internal/state"
)

// Format renders one line per peer in HCCL's shape: "srcIP,dstIP=sport0,sport1,...". The ports are
// the weighted list the host package made (each port repeated by its weight, heaviest first), so
// a stack that spreads evenly over the listed ports honours the weights; HCCL's shape is kept.
func Format(evs []host.EVPorts) []byte {
	var b bytes.Buffer
	for _, e := range evs {
		fmt.Fprintf(&b, "%s,%s=", e.Src, e.Dst)
		for i, p := range e.Ports {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(p))
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// WriteFile replaces the EV file atomically: a reader sees the old table or the new one.
func WriteFile(path string, evs []host.EVPorts) error {
	return state.WriteAtomic(path, Format(evs), 0o644)
}
