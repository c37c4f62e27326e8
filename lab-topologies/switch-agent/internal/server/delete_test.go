package server

import (
	"strings"
	"testing"

	"github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"weft.io/switch-agent/internal/model"
	"weft.io/switch-agent/internal/nstest"
)

func mustPath(t *testing.T, origin, p string) *gnmi.Path {
	t.Helper()
	out, err := model.ParsePath(origin, p)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Deleting the tenant VRF while a uDT46 still decapsulates into it is refused; deleting both
// removes the VRF's table, its rules, the EV tables and the nftables table, and nothing else.
func TestDeleteRemovesWhatWeftOwnedAndChecksReferences(t *testing.T) {
	nstest.Require(t, "nft")
	sw, _, portMap := wire(t, []string{"eth1", "eth2", "eth3"})
	in := readIntent(t, golden+"ls-2x2-leaf1.json")
	c := serve(t, sw, portMap, in.Target)
	if _, err := c.Set(ctx(t), setRequest(t, in)); err != nil {
		t.Fatal(err)
	}
	vrf := mustPath(t, "openconfig", "/network-instances/network-instance[name=Vrf-default]")
	_, err := c.Set(ctx(t), &gnmi.SetRequest{Delete: []*gnmi.Path{vrf}})
	if st, _ := status.FromError(err); st.Code() != codes.InvalidArgument ||
		!strings.Contains(st.Message(), `weft|fcbb:bb00:1:e000::/64/decap_vrf: "Vrf-default" is not an L3VRF`) {
		t.Fatalf("deleting a VRF a SID uses: %v", err)
	}
	sids := `{"weft|fcbb:bb00:1::/48":{"action":"uN","decap_dscp_mode":"pipe"}}`
	_, err = c.Set(ctx(t), &gnmi.SetRequest{Delete: []*gnmi.Path{vrf}, Replace: []*gnmi.Update{{
		Path: mustPath(t, "sonic-db", "/CONFIG_DB/localhost/SRV6_MY_SIDS"),
		Val:  &gnmi.TypedValue{Value: &gnmi.TypedValue_JsonIetfVal{JsonIetfVal: []byte(sids)}}}}})
	if err != nil {
		t.Fatalf("delete VRF and its SID: %v", err)
	}
	routes := nstest.Run(t, "ip", "-n", sw, "-6", "route", "show", "table", "all")
	rules := nstest.Run(t, "ip", "-n", sw, "-6", "rule")
	nft := nstest.Run(t, "ip", "netns", "exec", sw, "nft", "list", "ruleset")
	for _, gone := range []string{"table 100", "table 2000", "End.DT6"} {
		if strings.Contains(routes, gone) {
			t.Errorf("routes still have %q:\n%s", gone, routes)
		}
	}
	if strings.Contains(rules, "lookup 100") || strings.Contains(rules, "fwmark") {
		t.Errorf("rules left:\n%s", rules)
	}
	if strings.Contains(nft, "weft_ev") {
		t.Errorf("nftables table left:\n%s", nft)
	}
	for _, kept := range []string{"fcbb:bb00:1::/48  encap seg6local action End", "fcbb:bb00:3::/48 via fe80::2 dev p1"} {
		if !strings.Contains(routes, kept) {
			t.Errorf("lost %q:\n%s", kept, routes)
		}
	}
	if _, err := c.Get(ctx(t), &gnmi.GetRequest{Path: []*gnmi.Path{vrf}, Encoding: gnmi.Encoding_JSON_IETF}); status.Code(err) != codes.NotFound {
		t.Errorf("Get of the deleted VRF: %v, want NotFound", err)
	}
}

func TestCredentialsInMetadata(t *testing.T) {
	nstest.Require(t)
	sw, _, portMap := wire(t, []string{"eth1"})
	c := serveWith(t, sw, portMap, "leaf1", "weft", "s3cret")
	if _, err := c.Capabilities(ctx(t), &gnmi.CapabilityRequest{}); status.Code(err) != codes.Unauthenticated {
		t.Fatalf("without credentials: %v, want Unauthenticated", err)
	}
	if _, err := c.Capabilities(withCreds(ctx(t), "weft", "wrong"), &gnmi.CapabilityRequest{}); status.Code(err) != codes.Unauthenticated {
		t.Fatalf("wrong password: %v, want Unauthenticated", err)
	}
	if _, err := c.Capabilities(withCreds(ctx(t), "weft", "s3cret"), &gnmi.CapabilityRequest{}); err != nil {
		t.Fatalf("right credentials: %v", err)
	}
}
