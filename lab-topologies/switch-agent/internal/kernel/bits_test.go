package kernel

import (
	"net/netip"
	"testing"
)

// The uA and decap "local form": the function moved right behind the block, where it is the
// active uSID once the switch's End consumed its uN.
func TestLocalFormOfAFunctionSID(t *testing.T) {
	cases := []struct{ sid, local string }{
		{"fcbb:bb00:1:e101::", "fcbb:bb00:e101::"},
		{"fcbb:bb00:12:e000::", "fcbb:bb00:e000::"},
		{"fcbb:bb00:ffff:1::", "fcbb:bb00:1::"},
	}
	for _, tc := range cases {
		a := netip.MustParseAddr(tc.sid)
		got := withBits(blockOf(a, 32), 32, 16, bits(a, 48, 16))
		if got.String() != tc.local {
			t.Errorf("%s: got %s, want %s", tc.sid, got, tc.local)
		}
		back := withBits(netip.MustParseAddr("fcbb:bb00:1::"), 48, 16, bits(got, 32, 16))
		if bits(back, 48, 16) != bits(a, 48, 16) {
			t.Errorf("%s: the function does not survive the round trip: %s", tc.sid, back)
		}
	}
}

func TestPortsMap(t *testing.T) {
	p, err := ParsePorts("eth1=p0, eth2=p1")
	if err != nil {
		t.Fatal(err)
	}
	if k, ok := p.Kernel("eth2"); !ok || k != "p1" {
		t.Fatalf("eth2 -> %q %v", k, ok)
	}
	if f, ok := p.Fabric("p0"); !ok || f != "eth1" {
		t.Fatalf("p0 -> %q %v", f, ok)
	}
	if _, ok := p.Kernel("eth3"); ok {
		t.Fatal("unmapped eth3 found")
	}
	for _, bad := range []string{"eth1", "eth1=p0,eth1=p1", "eth1=p0,eth2=p0", "eth1=sid0", "=p0"} {
		if _, err := ParsePorts(bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
	id, _ := ParsePorts("")
	if k, ok := id.Kernel("eth1"); !ok || k != "eth1" || func() bool { _, ok := id.Kernel("lo"); return ok }() {
		t.Fatal("identity map: eth1 must map to itself and lo to nothing")
	}
}
