package kernel

import (
	"reflect"
	"testing"

	"weft.io/switch-agent/internal/model"
)

func statics(prefixes ...string) []model.Static {
	out := []model.Static{}
	for _, p := range prefixes {
		out = append(out, model.NewStatic(p, []model.Hop{{Gateway: "fe80::1", Port: "eth1"}}))
	}
	return out
}

func prefixes(rs []model.Static) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.Prefix)
	}
	return out
}

func withRoutes(name string, rs []model.Static) model.Config {
	return model.Config{Instances: map[string]model.Instance{"Vrf-default": {Name: "Vrf-default",
		Protocols: model.Protocols{Protocol: []model.Protocol{model.NewProtocol(name, rs)}}}}}
}

// The controller confirms a Set by comparing the read-back as canonical JSON, list order
// included: the kernel's order (by prefix) must come back in the Set's order, and routes the
// Set did not list (installed by hand) follow in the kernel's order.
func TestReadBackListsStaticRoutesInTheOrderOfTheLastSet(t *testing.T) {
	running := withRoutes(model.ProtoEVStage1, statics("fd00:ef7:2::/64", "2001:db8:0:2::1/128", "2001:db8:0:2::2/128"))
	read := withRoutes(model.ProtoEVStage1, statics("2001:db8:0:2::1/128", "2001:db8:0:2::2/128", "2001:db8:0:9::/64",
		"fd00:ef7:2::/64"))
	orderLikeRunning(&read, &running)
	got := prefixes(read.Instances["Vrf-default"].Protocols.Protocol[0].StaticRoutes.Static)
	want := []string{"fd00:ef7:2::/64", "2001:db8:0:2::1/128", "2001:db8:0:2::2/128", "2001:db8:0:9::/64"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}

	// A route of the Set that the kernel lost (a port down) leaves no hole.
	read = withRoutes(model.ProtoEVStage1, statics("2001:db8:0:2::2/128", "fd00:ef7:2::/64"))
	orderLikeRunning(&read, &running)
	got = prefixes(read.Instances["Vrf-default"].Protocols.Protocol[0].StaticRoutes.Static)
	if want := []string{"fd00:ef7:2::/64", "2001:db8:0:2::2/128"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("after a lost route: got %v, want %v", got, want)
	}

	// Before the first Set the kernel's order stands.
	read = withRoutes(model.ProtoEVStage1, statics("2001:db8:0:2::1/128", "fd00:ef7:2::/64"))
	orderLikeRunning(&read, nil)
	got = prefixes(read.Instances["Vrf-default"].Protocols.Protocol[0].StaticRoutes.Static)
	if want := []string{"2001:db8:0:2::1/128", "fd00:ef7:2::/64"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("without a Set: got %v, want %v", got, want)
	}
}
