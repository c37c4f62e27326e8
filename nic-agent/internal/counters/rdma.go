package counters

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// NICCount is what an RDMA NIC counts for all its RoCEv2 traffic (not per flow).
type NICCount struct {
	ECNMarked uint64 // ECN-marked (CE) RoCEv2 packets received (np_ecn_marked_roce_packets)
	CNPs      uint64 // congestion notification packets received and handled (rp_cnp_handled)
	Drops     uint64 // sequence errors and ACK timeouts: packets lost and retransmitted
}

// rdmaFiles are the hw_counters the NIC count sums, by field (mlx5 names; absent files count 0).
var rdmaFiles = map[string][]string{
	"ecn":   {"np_ecn_marked_roce_packets"},
	"cnp":   {"rp_cnp_handled"},
	"drops": {"packet_seq_err", "local_ack_timeout_err"},
}

// RDMA reads one RDMA port's hardware counters from sysfs
// (/sys/class/infiniband/<dev>/ports/<port>/hw_counters).
type RDMA struct {
	dir string
}

// NewRDMA checks that dev's port exposes hardware counters under root (normally "/sys").
func NewRDMA(root, dev string, port int) (*RDMA, error) {
	if dev == "" || strings.ContainsAny(dev, "/\x00") || dev == "." || dev == ".." {
		return nil, fmt.Errorf("rdma-dev: %q is not an RDMA device name", dev)
	}
	dir := filepath.Join(root, "class", "infiniband", dev, "ports", strconv.Itoa(port), "hw_counters")
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("rdma-dev: %s port %d exposes no hardware counters: %w", dev, port, err)
	}
	return &RDMA{dir: dir}, nil
}

// Read returns the NIC's cumulative counts.
func (r *RDMA) Read() (NICCount, error) {
	sum := func(names []string) (uint64, error) {
		var total uint64
		for _, n := range names {
			b, err := os.ReadFile(filepath.Join(r.dir, n))
			if errors.Is(err, fs.ErrNotExist) {
				continue // this NIC model does not count it
			}
			if err != nil {
				return 0, err
			}
			v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("%s: %q is not a counter", filepath.Join(r.dir, n), strings.TrimSpace(string(b)))
			}
			total += v
		}
		return total, nil
	}
	var c NICCount
	var err error
	if c.ECNMarked, err = sum(rdmaFiles["ecn"]); err != nil {
		return c, err
	}
	if c.CNPs, err = sum(rdmaFiles["cnp"]); err != nil {
		return c, err
	}
	c.Drops, err = sum(rdmaFiles["drops"])
	return c, err
}
