package server

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"weft.io/switch-agent/internal/nstest"
)

// kernelState is what Weft owns in a namespace, as iproute2 reads it over netlink: routes
// (without the kernel's own), rules, addresses and link flags.
func kernelState(t *testing.T, ns string) string {
	t.Helper()
	var keep []string
	for _, l := range strings.Split(nstest.Run(t, "ip", "-n", ns, "-6", "route", "show", "table", "all"), "\n") {
		if !strings.Contains(l, "proto kernel") && !strings.HasPrefix(l, "local ") && !strings.HasPrefix(l, "multicast ") {
			keep = append(keep, l)
		}
	}
	keep = append(keep, nstest.Run(t, "ip", "-n", ns, "-6", "rule"))
	addrs := nstest.Run(t, "ip", "-n", ns, "-6", "-o", "addr")
	// Address order within a link is not state: a link taken down and up again lists them anew.
	lines := strings.Split(regexp.MustCompile(`valid_lft.*`).ReplaceAllString(addrs, ""), "\n")
	sort.Strings(lines)
	keep = append(keep, lines...)
	keep = append(keep, nstest.Run(t, "ip", "-n", ns, "-o", "link"))
	return strings.Join(keep, "\n")
}

func TestBadPayloadIsRejectedNamingThePathAndTheKernelStaysAsItWas(t *testing.T) {
	nstest.Require(t, "nft")
	cases := []struct {
		name string
		edit func(*gnmi.SetRequest) // breaks the golden leaf's second push
		code codes.Code
		want string // the message must name this path and field
	}{
		{"unknown field", func(r *gnmi.SetRequest) {
			replaceVal(r, "SRV6_MY_LOCATORS", `{"weft":{"prefix":"fcbb:bb00:1::","block_len":"32","node_len":"16",`+
				`"func_len":"16","arg_len":"0","vrf":"default","colour":"red"}}`)
		}, codes.InvalidArgument, `sonic-db:/CONFIG_DB/localhost/SRV6_MY_LOCATORS: json: unknown field "colour"`},
		{"uA on a port the switch lacks", func(r *gnmi.SetRequest) {
			replaceVal(r, "SRV6_MY_SIDS", `{"weft|fcbb:bb00:1::/48":{"action":"uN","decap_dscp_mode":"pipe"},`+
				`"weft|fcbb:bb00:1:e101::/64":{"action":"uA","interface":"eth9","adj":"fe80::2","decap_dscp_mode":"pipe"}}`)
		}, codes.InvalidArgument, `SRV6_MY_SIDS: weft|fcbb:bb00:1:e101::/64/interface: no port "eth9"`},
		{"uDT46 into a VRF that does not exist", func(r *gnmi.SetRequest) {
			replaceVal(r, "SRV6_MY_SIDS", `{"weft|fcbb:bb00:1::/48":{"action":"uN","decap_dscp_mode":"pipe"},`+
				`"weft|fcbb:bb00:1:e000::/64":{"action":"uDT46","decap_vrf":"Vrf-blue","decap_dscp_mode":"pipe"}}`)
		}, codes.InvalidArgument, `weft|fcbb:bb00:1:e000::/64/decap_vrf: "Vrf-blue" is not an L3VRF`},
		{"static route prefix with host bits", func(r *gnmi.SetRequest) {
			for _, u := range r.Replace {
				if strings.Contains(u.Path.String(), "DEFAULT") {
					u.Val.Value = &gnmi.TypedValue_JsonIetfVal{JsonIetfVal: []byte(strings.Replace(
						string(u.Val.GetJsonIetfVal()), `"fcbb:bb00:3::/48"`, `"fcbb:bb00:3::1/48"`, 2))}
				}
			}
		}, codes.InvalidArgument, `network-instance[name=DEFAULT]: protocols/protocol[identifier=STATIC][name=STATIC]/static-routes/static[prefix=fcbb:bb00:3::1/48]/prefix`},
		{"a path the switch does not configure", func(r *gnmi.SetRequest) {
			r.Replace[0].Path.Elem[2].Name = "SRV6_MY_POLICIES"
		}, codes.InvalidArgument, `sonic-db:/CONFIG_DB/localhost/SRV6_MY_POLICIES: not a path this switch configures`},
		{"kernel refuses: route out of a port the same Set disables", func(r *gnmi.SetRequest) {
			for _, u := range r.Replace {
				if strings.Contains(u.Path.String(), `"eth2"`) {
					u.Val.Value = &gnmi.TypedValue_JsonIetfVal{JsonIetfVal: []byte(strings.ReplaceAll(
						string(u.Val.GetJsonIetfVal()), `"enabled":true`, `"enabled":false`))}
					u.Val.Value = &gnmi.TypedValue_JsonIetfVal{JsonIetfVal: []byte(strings.Replace(
						string(u.Val.GetJsonIetfVal()), `"ipv6":{"config":{"enabled":false}`, `"ipv6":{"config":{"enabled":true}`, 1))}
				}
			}
		}, codes.FailedPrecondition, `network-instance[name=DEFAULT]: static[prefix=fcbb:bb00:2::/48]: route fcbb:bb00:2::/48 table 254`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sw, _, portMap := wire(t, []string{"eth1", "eth2", "eth3"})
			in := readIntent(t, golden+"ls-2x2-leaf1.json")
			c := serve(t, sw, portMap, in.Target)
			if _, err := c.Set(ctx(t), setRequest(t, in)); err != nil {
				t.Fatalf("first Set: %v", err)
			}
			before := kernelState(t, sw)
			bad := setRequest(t, in)
			tc.edit(bad)
			_, err := c.Set(ctx(t), bad)
			st, _ := status.FromError(err)
			if st.Code() != tc.code || !strings.Contains(st.Message(), tc.want) {
				t.Fatalf("Set: got %v %q, want %v containing %q", st.Code(), st.Message(), tc.code, tc.want)
			}
			if after := kernelState(t, sw); after != before {
				t.Errorf("kernel changed by a rejected Set:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
}

func replaceVal(r *gnmi.SetRequest, table, val string) {
	for _, u := range r.Replace {
		if len(u.Path.Elem) == 3 && u.Path.Elem[2].Name == table {
			u.Val.Value = &gnmi.TypedValue_JsonIetfVal{JsonIetfVal: []byte(val)}
		}
	}
}
