package evpub

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"weft.io/nic-agent/internal/host"
)

func TestFormatIsHCCLShaped(t *testing.T) {
	got := string(Format([]host.EVPorts{
		{Peer: "nic2", Src: "fd00:ef7:11::1", Dst: "fd00:ef7:12::2", Ports: []int{49920, 50176}},
		{Peer: "nic3", Src: "fd00:ef7:11::1", Dst: "fd00:ef7:13::3", Ports: []int{4791}},
	}))
	want := "fd00:ef7:11::1,fd00:ef7:12::2=49920,50176\nfd00:ef7:11::1,fd00:ef7:13::3=4791\n"
	if got != want {
		t.Fatalf("Format = %q, want %q", got, want)
	}
}

// TestWriteFileIsAtomic rewrites the file between two tables of different lengths while readers
// read it: every read must be one whole table, never a mix, a truncated or an empty file.
func TestWriteFileIsAtomic(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ev-ports")
	var long []host.EVPorts
	for i := range 200 {
		long = append(long, host.EVPorts{Src: "fd00:ef7:11::1", Dst: "fd00:ef7:12::" + string(rune('a'+i%6)), Ports: []int{49920 + i, 50000 + i}})
	}
	short := []host.EVPorts{{Src: "fd00:ef7:11::1", Dst: "fd00:ef7:12::2", Ports: []int{1}}}
	tables := map[string]bool{string(Format(long)): true, string(Format(short)): true}
	if err := WriteFile(path, short); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var reads, torn atomic.Int64
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for !stop.Load() {
				b, err := os.ReadFile(path)
				if err != nil {
					t.Errorf("read: %v", err)
					return
				}
				reads.Add(1)
				if !tables[string(b)] {
					torn.Add(1)
				}
			}
		})
	}
	for i := range 300 {
		tab := short
		if i%2 == 0 {
			tab = long
		}
		if err := WriteFile(path, tab); err != nil {
			t.Fatal(err)
		}
	}
	stop.Store(true)
	wg.Wait()
	if torn.Load() != 0 {
		t.Fatalf("%d of %d reads saw a partial file", torn.Load(), reads.Load())
	}
	if reads.Load() == 0 {
		t.Fatal("no read overlapped the writes")
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*"))
	if len(left) != 0 {
		t.Fatalf("temporary files left behind: %v", left)
	}
}
