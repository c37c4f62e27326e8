package counters

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A fake sysfs tree in the shape of an mlx5 port's hw_counters.
func fakeSysfs(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "class", "infiniband", "mlx5_0", "ports", "1", "hw_counters")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, v := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestRDMAReadsAndSumsHwCounters(t *testing.T) {
	root := fakeSysfs(t, map[string]string{
		"np_ecn_marked_roce_packets": "17\n", "rp_cnp_handled": "5\n", "packet_seq_err": "3\n",
		"local_ack_timeout_err": "2\n", "np_cnp_sent": "99\n",
	})
	r, err := NewRDMA(root, "mlx5_0", 1)
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	if c != (NICCount{ECNMarked: 17, CNPs: 5, Drops: 5}) {
		t.Fatalf("Read = %+v, want ECN 17, CNPs 5, drops 3+2", c)
	}
}

func TestRDMAAbsentCountersAreZeroAndGarbageIsAnError(t *testing.T) {
	r, err := NewRDMA(fakeSysfs(t, map[string]string{"rp_cnp_handled": "4"}), "mlx5_0", 1)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := r.Read(); err != nil || c != (NICCount{CNPs: 4}) {
		t.Fatalf("Read = %+v, %v; want only CNPs 4", c, err)
	}
	r, _ = NewRDMA(fakeSysfs(t, map[string]string{"rp_cnp_handled": "many"}), "mlx5_0", 1)
	if _, err := r.Read(); err == nil || !strings.Contains(err.Error(), "rp_cnp_handled") {
		t.Fatalf("Read of a garbage counter: %v, want an error naming the file", err)
	}
}

func TestNewRDMARefusesMissingOrBadDevices(t *testing.T) {
	root := fakeSysfs(t, nil)
	for _, dev := range []string{"", "../etc", "mlx5_9"} {
		if _, err := NewRDMA(root, dev, 1); err == nil || !strings.HasPrefix(err.Error(), "rdma-dev:") {
			t.Errorf("NewRDMA(%q) = %v, want an rdma-dev error", dev, err)
		}
	}
}
