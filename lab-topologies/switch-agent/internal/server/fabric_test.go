package server

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/openconfig/gnmi/proto/gnmi"
	"weft.io/switch-agent/internal/nstest"
)

// fabricFile is the part of contracts/fabric.schema.json the wiring needs.
type fabricFile struct {
	Nodes []struct {
		ID   string `json:"id"`
		Role string `json:"role"`
	} `json:"nodes"`
	Links []struct {
		ID string `json:"id"`
		A  end    `json:"a"`
		B  end    `json:"b"`
	} `json:"links"`
}

type end struct {
	Node string `json:"node"`
	Port string `json:"port"`
}

// miniLab wires a fabric like the lab does (a namespace per node, a veth per link named p<k>
// by the node's link order) and nothing else: every switch is then configured by Set alone.
type miniLab struct {
	ns      map[string]string            // node -> namespace
	link    map[string]map[string]string // node -> fabric port -> veth
	clients map[string]gnmi.GNMIClient
}

func wireFabric(t *testing.T, file string) *miniLab {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var f fabricFile
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	lab := &miniLab{ns: map[string]string{}, link: map[string]map[string]string{}, clients: map[string]gnmi.GNMIClient{}}
	for _, n := range f.Nodes {
		lab.ns[n.ID] = nstest.NS(t)
		lab.link[n.ID] = map[string]string{}
	}
	for _, l := range f.Links {
		va := fmt.Sprintf("p%d", len(lab.link[l.A.Node]))
		vb := fmt.Sprintf("p%d", len(lab.link[l.B.Node]))
		lab.link[l.A.Node][l.A.Port], lab.link[l.B.Node][l.B.Port] = va, vb
		nstest.Veth(t, lab.ns[l.A.Node], va, lab.ns[l.B.Node], vb)
	}
	for _, n := range f.Nodes {
		if n.Role == "nic" {
			continue
		}
		var pairs []string
		for port, veth := range lab.link[n.ID] {
			pairs = append(pairs, port+"="+veth)
		}
		lab.clients[n.ID] = serve(t, lab.ns[n.ID], strings.Join(pairs, ","), n.ID)
	}
	return lab
}

func (l *miniLab) inPkts(t *testing.T, sw, port string) uint64 {
	t.Helper()
	st, err := l.clients[sw].Subscribe(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	path := "/interfaces/interface[name=" + port + "]/state/counters/in-pkts"
	if err := st.Send(subReq(t, gnmi.SubscriptionList_ONCE, 0, 0, path)); err != nil {
		t.Fatal(err)
	}
	v, _ := recvSync(t, st)[0][path].(uint64)
	return v
}

// A 2x2 leaf-spine configured only by Set with the payloads the Java core renders forwards a
// uSID packet from a NIC through the spine its carrier names, and moves when the carrier does.
func TestMiniFabricConfiguredBySetForwardsUsidEndToEnd(t *testing.T) {
	nstest.Require(t, "ping", "nft")
	lab := wireFabric(t, "../../../../contracts/examples/leaf-spine-2x2.json")
	for _, sw := range []string{"leaf1", "leaf2", "spine1", "spine2"} {
		in := readIntent(t, "../../testdata/ls-2x2/"+sw+".json")
		if _, err := lab.clients[sw].Set(ctx(t), setRequest(t, in)); err != nil {
			t.Fatalf("Set %s: %v", sw, err)
		}
	}
	// The NICs (the nic-agent's job, not the switch's), with the addresses the leaves' intent names: the NIC's link-local
	// is the LOCAL route's next hop, the leaf's is its port address.
	nic := func(name, addr, leafLL string) {
		ns, dev := lab.ns[name], lab.link[name]["eth1"]
		nstest.Run(t, "ip", "-n", ns, "addr", "add", addr+"/128", "dev", dev, "nodad")
		nstest.Run(t, "ip", "-n", ns, "addr", "add", "fe80::1/64", "dev", dev, "nodad")
		nstest.Run(t, "ip", "-n", ns, "-6", "route", "add", "default", "via", leafLL, "dev", dev)
	}
	nic("nic1", "2001:db8:0:1::1", "fe80::2")
	nic("nic3", "2001:db8:0:2::1", "fe80::2")
	cases := []struct {
		via, other string
		carrier    string // leaf1 uN, spine uN, leaf2 uN, leaf2 decap function
	}{
		{"spine1", "spine2", "fcbb:bb00:1:11:2:e000::"},
		{"spine2", "spine1", "fcbb:bb00:1:12:2:e000::"},
	}
	for _, tc := range cases {
		t.Run("via "+tc.via, func(t *testing.T) {
			nstest.Run(t, "ip", "-n", lab.ns["nic1"], "-6", "route", "replace", "2001:db8:0:2::1/128", "encap", "seg6",
				"mode", "encap.red", "segs", tc.carrier, "dev", lab.link["nic1"]["eth1"], "via", "fe80::2")
			viaBefore, otherBefore := lab.inPkts(t, tc.via, "eth1"), lab.inPkts(t, tc.other, "eth1")
			out := nstest.Run(t, "ip", "netns", "exec", lab.ns["nic1"], "ping", "-6", "-c", "20", "-i", "0.01", "-w", "5",
				"-q", "2001:db8:0:2::1")
			if !strings.Contains(out, "20 received") {
				t.Fatalf("ping nic1 -> nic3 via %s:\n%s", tc.via, out)
			}
			viaGrew, otherGrew := lab.inPkts(t, tc.via, "eth1")-viaBefore, lab.inPkts(t, tc.other, "eth1")-otherBefore
			// eth1 of a spine faces leaf1: the 20 requests enter there; replies take plain ECMP back.
			if viaGrew < 20 || otherGrew >= 5 {
				t.Fatalf("from leaf1: %s in-pkts +%d (want >= 20), %s +%d (want < 5)", tc.via, viaGrew, tc.other, otherGrew)
			}
		})
	}
}
