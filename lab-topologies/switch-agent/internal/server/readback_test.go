package server

import (
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/openconfig/gnmi/proto/gnmi"
	"weft.io/switch-agent/internal/nstest"
)

// Every switch of three rendered fabrics (2x2 leaf-spine, k=4 fat-tree, tiny Dragonfly: ECMP,
// parallel-link uA, EV stages with 2 and 4 members) is Set into a fresh namespace and read back
// through Get equal to its intent, op by op.
func TestEveryRenderedSwitchReadsBackAsItsIntent(t *testing.T) {
	nstest.Require(t, "nft")
	for _, dir := range []string{"ls-2x2", "ft4", "dragonfly-tiny"} {
		files, _ := filepath.Glob("../../testdata/" + dir + "/*.json")
		if len(files) == 0 {
			t.Fatalf("no intents in testdata/%s", dir)
		}
		for _, file := range files {
			in := readIntent(t, file)
			t.Run(dir+"/"+in.Target, func(t *testing.T) {
				var ports []string
				for _, op := range in.Replace {
					if name, ok := strings.CutPrefix(op.Path, "/interfaces/interface[name="); ok && name != "Loopback0]" {
						ports = append(ports, strings.TrimSuffix(name, "]"))
					}
				}
				sort.Strings(ports)
				sw, portMap := wireToOnePeer(t, ports)
				c := serve(t, sw, portMap, in.Target)
				req := setRequest(t, in)
				if _, err := c.Set(ctx(t), req); err != nil {
					t.Fatalf("Set: %v", err)
				}
				get := &gnmi.GetRequest{Prefix: &gnmi.Path{Target: in.Target}, Encoding: gnmi.Encoding_JSON_IETF,
					Type: gnmi.GetRequest_CONFIG}
				for _, u := range req.Replace {
					get.Path = append(get.Path, u.Path)
				}
				resp, err := c.Get(ctx(t), get)
				if err != nil {
					t.Fatalf("Get: %v", err)
				}
				for i, n := range resp.Notification {
					got := n.Update[0].Val.GetJsonIetfVal()
					if !reflect.DeepEqual(normalise(t, got), normalise(t, in.Replace[i].Value)) {
						t.Errorf("Get %s:\n got  %s\n want %s", in.Replace[i].Path, got, in.Replace[i].Value)
					}
				}
			})
		}
	}
}

// wireToOnePeer gives the switch one veth per port, all ending in a single peer namespace.
func wireToOnePeer(t *testing.T, ports []string) (sw, portMap string) {
	sw, peer := nstest.NS(t), nstest.NS(t)
	var pairs []string
	for i, p := range ports {
		k := fmt.Sprintf("p%d", i)
		nstest.Veth(t, sw, k, peer, fmt.Sprintf("x%d", i))
		pairs = append(pairs, p+"="+k)
	}
	return sw, strings.Join(pairs, ",")
}
