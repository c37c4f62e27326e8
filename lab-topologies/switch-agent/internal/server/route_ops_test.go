package server

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"weft.io/switch-agent/internal/model"
	"weft.io/switch-agent/internal/nstest"
)

// staticPath is the path of one static route, as the controller sends it for a re-plan that
// changes only a few routes of an instance.
func staticPath(t *testing.T, instance, protocol, prefix string) *gnmi.Path {
	t.Helper()
	return mustPath(t, "openconfig", "/network-instances/network-instance[name="+instance+"]/protocols/protocol"+
		"[identifier=STATIC][name="+protocol+"]/static-routes/static[prefix="+prefix+"]")
}

func routeJSON(prefix string, hops ...[2]string) string {
	var hs []string
	for i, h := range hops {
		idx := string(rune('0' + i))
		hs = append(hs, `{"index":"`+idx+`","config":{"index":"`+idx+`","next-hop":"`+h[0]+`"},`+
			`"interface-ref":{"config":{"interface":"`+h[1]+`","subinterface":0}}}`)
	}
	return `{"prefix":"` + prefix + `","config":{"prefix":"` + prefix + `"},"next-hops":{"next-hop":[` + strings.Join(hs, ",") + `]}}`
}

func replaceOf(p *gnmi.Path, value string) *gnmi.Update {
	return &gnmi.Update{Path: p, Val: &gnmi.TypedValue{Value: &gnmi.TypedValue_JsonIetfVal{JsonIetfVal: []byte(value)}}}
}

// Single static routes (the re-plan shape): replaced, added and deleted in one all-or-nothing
// Set, in the kernel afterwards (underlay and EV tables), and read back per route by Get; a bad
// route is refused naming its path and leaves the kernel as it was.
func TestSingleRouteSetReplacesAddsAndDeletesRoutes(t *testing.T) {
	nstest.Require(t, "nft")
	sw, _, portMap := wire(t, []string{"eth1", "eth2", "eth3"}) // eth1=p0, eth2=p1, eth3=p2
	in := readIntent(t, golden+"ls-2x2-leaf1.json")
	c := serve(t, sw, portMap, in.Target)
	if _, err := c.Set(ctx(t), setRequest(t, in)); err != nil {
		t.Fatal(err)
	}

	underlay := routeJSON("fcbb:bb00:2::/48", [2]string{"fe80::2", "eth2"})                        // was ECMP over eth2 and eth3
	added := routeJSON("fcbb:bb00:99::/48", [2]string{"fe80::2", "eth3"})                          // new
	ev := routeJSON("fd00:ef7:2::/64", [2]string{"fe80::2", "eth3"}, [2]string{"fe80::2", "eth2"}) // members swapped
	good := &gnmi.SetRequest{
		Prefix: &gnmi.Path{Target: in.Target},
		Replace: []*gnmi.Update{
			replaceOf(staticPath(t, "DEFAULT", "STATIC", "fcbb:bb00:2::/48"), underlay),
			replaceOf(staticPath(t, "DEFAULT", "STATIC", "fcbb:bb00:99::/48"), added),
			replaceOf(staticPath(t, "Vrf-default", "EV-STAGE1", "fd00:ef7:2::/64"), ev),
		},
		Delete: []*gnmi.Path{staticPath(t, "DEFAULT", "STATIC", "fcbb:bb00:4::/48")},
	}
	if _, err := c.Set(ctx(t), good); err != nil {
		t.Fatalf("Set of single routes: %v", err)
	}
	routes := nstest.Run(t, "ip", "-n", sw, "-6", "route", "show", "table", "all")
	for _, want := range []string{
		"fcbb:bb00:2::/48 via fe80::2 dev p1 proto static",
		"fcbb:bb00:99::/48 via fe80::2 dev p2 proto static",
		"fcbb:bb00:3::/48 via fe80::2 dev p1 proto static", // untouched
	} {
		if !strings.Contains(routes, want) {
			t.Errorf("kernel lacks %q:\n%s", want, routes)
		}
	}
	if strings.Contains(routes, "fcbb:bb00:4::/48") || strings.Contains(routes, "fcbb:bb00:2::/48 proto static") {
		t.Errorf("deleted route or old ECMP route left:\n%s", routes)
	}
	// EV member 0 now leaves by eth3 (p2): the stage-1 table of member 0 says so.
	if ev0 := nstest.Run(t, "ip", "-n", sw, "-6", "route", "show", "table", "2000"); !strings.Contains(ev0, "dev p2") {
		t.Errorf("EV stage-1 member 0 table:\n%s", ev0)
	}

	for _, u := range good.Replace {
		resp, err := c.Get(ctx(t), &gnmi.GetRequest{Prefix: &gnmi.Path{Target: in.Target}, Path: []*gnmi.Path{u.Path},
			Encoding: gnmi.Encoding_JSON_IETF})
		if err != nil {
			t.Fatalf("Get %s: %v", u.Path, err)
		}
		got := resp.Notification[0].Update[0]
		if !reflect.DeepEqual(normalise(t, got.Val.GetJsonIetfVal()), normalise(t, u.Val.GetJsonIetfVal())) {
			t.Errorf("Get %s:\n got %s\nwant %s", u.Path, got.Val.GetJsonIetfVal(), u.Val.GetJsonIetfVal())
		}
		if model.PathString(&gnmi.Path{Elem: got.Path.Elem}) != model.PathString(&gnmi.Path{Elem: u.Path.Elem}) {
			t.Errorf("Get answered path %v, asked %v", got.Path, u.Path)
		}
	}
	_, err := c.Get(ctx(t), &gnmi.GetRequest{Path: []*gnmi.Path{staticPath(t, "DEFAULT", "STATIC", "fcbb:bb00:4::/48")},
		Encoding: gnmi.Encoding_JSON_IETF})
	if status.Code(err) != codes.NotFound {
		t.Errorf("Get of the deleted route: %v, want NotFound", err)
	}

	bad := []struct {
		name string
		req  *gnmi.SetRequest
		want string
	}{
		{"a route into a protocol the instance lacks", &gnmi.SetRequest{Replace: []*gnmi.Update{
			replaceOf(staticPath(t, "DEFAULT", "STATIC", "fcbb:bb00:3::/48"), routeJSON("fcbb:bb00:3::/48", [2]string{"fe80::2", "eth3"})),
			replaceOf(staticPath(t, "DEFAULT", "MINIMAL", "fd00:ef7:9::/64"), routeJSON("fd00:ef7:9::/64", [2]string{"fe80::2", "eth3"})),
		}}, `protocol[identifier=STATIC][name=MINIMAL]/static-routes/static[prefix=fd00:ef7:9::/64]: network instance "DEFAULT" has no protocol STATIC MINIMAL`},
		{"a route out of a port the switch lacks", &gnmi.SetRequest{Replace: []*gnmi.Update{
			replaceOf(staticPath(t, "DEFAULT", "STATIC", "fcbb:bb00:3::/48"), routeJSON("fcbb:bb00:3::/48", [2]string{"fe80::2", "eth9"})),
		}}, `static[prefix=fcbb:bb00:3::/48]/next-hops/next-hop[index=0]/interface-ref/config/interface: no port "eth9"`},
		{"a value whose prefix is not the key", &gnmi.SetRequest{Replace: []*gnmi.Update{
			replaceOf(staticPath(t, "DEFAULT", "STATIC", "fcbb:bb00:3::/48"), routeJSON("fcbb:bb00:5::/48", [2]string{"fe80::2", "eth3"})),
		}}, `static[prefix=fcbb:bb00:3::/48]: prefix: "fcbb:bb00:5::/48" differs from the path key`},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			before := kernelState(t, sw)
			_, err := c.Set(ctx(t), tc.req)
			if st, _ := status.FromError(err); st.Code() != codes.InvalidArgument || !strings.Contains(st.Message(), tc.want) {
				t.Fatalf("got %v, want InvalidArgument naming %q", err, tc.want)
			}
			if after := kernelState(t, sw); after != before {
				t.Errorf("kernel changed by a refused Set:\nbefore\n%s\nafter\n%s", before, after)
			}
		})
	}
}

// contracts/gnmi/vectors/single-routes.json: a switch holding `before` that applies `set` reads the
// instances of `after` back (the controller's side of the same vectors is its ProvisionerTest).
func TestSingleRouteVectors(t *testing.T) {
	nstest.Require(t, "nft")
	raw, err := os.ReadFile("../../../../contracts/gnmi/vectors/single-routes.json")
	if err != nil {
		t.Fatal(err)
	}
	var vectors struct {
		Cases []struct {
			Name   string                     `json:"name"`
			Before string                     `json:"before"`
			After  map[string]json.RawMessage `json:"after"`
			Set    struct {
				Replace []struct {
					Path  string          `json:"path"`
					Value json.RawMessage `json:"value"`
				} `json:"replace"`
				Delete []string `json:"delete"`
			} `json:"set"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &vectors); err != nil {
		t.Fatal(err)
	}
	parse := func(t *testing.T, s string) *gnmi.Path {
		origin, p, _ := strings.Cut(s, ":/")
		return mustPath(t, origin, "/"+p)
	}
	for _, tc := range vectors.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			sw, _, portMap := wire(t, []string{"eth1", "eth2", "eth3"})
			in := readIntent(t, "../../../../"+tc.Before)
			c := serve(t, sw, portMap, in.Target)
			if _, err := c.Set(ctx(t), setRequest(t, in)); err != nil {
				t.Fatal(err)
			}
			req := &gnmi.SetRequest{Prefix: &gnmi.Path{Target: in.Target}}
			for _, r := range tc.Set.Replace {
				req.Replace = append(req.Replace, replaceOf(parse(t, r.Path), string(r.Value)))
			}
			for _, d := range tc.Set.Delete {
				req.Delete = append(req.Delete, parse(t, d))
			}
			if _, err := c.Set(ctx(t), req); err != nil {
				t.Fatalf("Set of the vector: %v", err)
			}
			for path, want := range tc.After {
				resp, err := c.Get(ctx(t), &gnmi.GetRequest{Prefix: &gnmi.Path{Target: in.Target},
					Path: []*gnmi.Path{parse(t, path)}, Encoding: gnmi.Encoding_JSON_IETF})
				if err != nil {
					t.Fatalf("Get %s: %v", path, err)
				}
				got := resp.Notification[0].Update[0].Val.GetJsonIetfVal()
				if !reflect.DeepEqual(normalise(t, got), normalise(t, want)) {
					t.Errorf("%s reads back\n%s\nwant\n%s", path, got, want)
				}
			}
		})
	}
}
