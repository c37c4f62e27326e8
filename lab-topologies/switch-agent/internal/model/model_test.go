package model

import (
	"strings"
	"testing"
)

func TestParsePath(t *testing.T) {
	cases := []struct {
		in, want, err string
	}{
		{"/interfaces/interface[name=eth1]", "openconfig:/interfaces/interface[name=eth1]", ""},
		{"/CONFIG_DB/localhost/SRV6_MY_SIDS", "openconfig:/CONFIG_DB/localhost/SRV6_MY_SIDS", ""},
		{"/a/static[prefix=fd00::/64]/next-hops/next-hop[index=0]",
			"openconfig:/a/static[prefix=fd00::/64]/next-hops/next-hop[index=0]", ""},
		{"/a/b[x=1][k=2]", "openconfig:/a/b[k=2][x=1]", ""},
		{"interfaces", "", "does not start with /"},
		{"/a[k]/b", "", "bad key"},
		{"/a//b", "", "empty element"},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			p, err := ParsePath("openconfig", tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("want error %q, got %v", tc.err, err)
				}
				return
			}
			if err != nil || PathString(p) != tc.want {
				t.Fatalf("got %q, %v; want %q", PathString(p), err, tc.want)
			}
		})
	}
}

func TestParseSubtree(t *testing.T) {
	cases := []struct {
		origin, path string
		want         Subtree
		err          string
	}{
		{"sonic-db", "/CONFIG_DB/localhost/SRV6_MY_LOCATORS", Subtree{Kind: KindLocators}, ""},
		{"openconfig", "/interfaces/interface[name=eth1]", Subtree{Kind: KindInterface, Name: "eth1"}, ""},
		{"", "/network-instances/network-instance[name=DEFAULT]", Subtree{Kind: KindInstance, Name: "DEFAULT"}, ""},
		{"openconfig", "/CONFIG_DB/localhost/SRV6_MY_SIDS", Subtree{}, `origin: must be "sonic-db"`},
		{"openconfig", "/interfaces/interface", Subtree{}, "needs exactly one key, name"},
		{"openconfig", "/interfaces/interface[name=eth1]/config", Subtree{}, "not a path this switch configures"},
		{"openconfig", "/network-instances/network-instance[name=Vrf-a]/protocols/protocol[identifier=STATIC][name=MINIMAL]" +
			"/static-routes/static[prefix=fd00:ef7:2::/64]",
			Subtree{Kind: KindStatic, Name: "Vrf-a", Identifier: "STATIC", Protocol: "MINIMAL", Prefix: "fd00:ef7:2::/64"}, ""},
		{"openconfig", "/network-instances/network-instance[name=Vrf-a]/protocols/protocol[name=MINIMAL]" +
			"/static-routes/static[prefix=fd00:ef7:2::/64]", Subtree{}, "protocol: needs exactly two keys"},
		{"openconfig", "/network-instances/network-instance[name=Vrf-a]/protocols/protocol[identifier=STATIC][name=MINIMAL]" +
			"/static-routes/static", Subtree{}, "static: needs exactly one key, prefix"},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			p, _ := ParsePath(tc.origin, tc.path)
			got, err := ParseSubtree(p)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("want error %q, got %v", tc.err, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

func validConfig() Config {
	c := Config{
		Locators:   map[string]Locator{"weft": {"fcbb:bb00:1::", "32", "16", "16", "0", "default"}},
		SIDs:       map[string]SID{"weft|fcbb:bb00:1::/48": {Action: ActionUN, DecapDscpMode: DscpPipe}},
		Interfaces: map[string]Interface{},
		Instances:  map[string]Instance{},
	}
	c.Interfaces["eth1"] = NewInterface("eth1", true, []Address{{IP: "fe80::1",
		Config: AddressConfig{IP: "fe80::1", PrefixLength: 64, Type: LinkLocalUnicast}}})
	c.Instances["Vrf-a"] = Instance{Name: "Vrf-a", Config: InstanceConfig{Name: "Vrf-a", Type: TypeL3VRF, Enabled: true,
		Description: "tenant a, table 101"}}
	return c
}

func TestValidateNamesTheField(t *testing.T) {
	hasPort := func(p string) bool { return p == "eth1" }
	cases := []struct {
		name string
		edit func(*Config)
		want string // "" = valid
	}{
		{"valid", func(*Config) {}, ""},
		{"locator with host bits", func(c *Config) {
			c.Locators["weft"] = Locator{"fcbb:bb00:1::5", "32", "16", "16", "0", "default"}
		}, "SRV6_MY_LOCATORS: weft/prefix: fcbb:bb00:1::5 has bits set beyond block+node"},
		{"function longer than a uSID", func(c *Config) {
			c.Locators["weft"] = Locator{"fcbb:bb00:1::", "32", "16", "32", "0", "default"}
		}, "weft/func_len: 32: must equal node_len"},
		{"SID of an unknown locator", func(c *Config) {
			c.SIDs["other|fcbb:bb00:1::/48"] = SID{Action: ActionUN, DecapDscpMode: DscpPipe}
		}, `other|fcbb:bb00:1::/48: locator "other" is not in SRV6_MY_LOCATORS`},
		{"SID outside the locator", func(c *Config) {
			c.SIDs["weft|fcbb:bb00:2:e000::/64"] = SID{Action: ActionUDT46, DecapVrf: "Vrf-a", DecapDscpMode: DscpPipe}
		}, "is outside locator weft"},
		{"uniform DSCP", func(c *Config) {
			c.SIDs["weft|fcbb:bb00:1::/48"] = SID{Action: ActionUN, DecapDscpMode: "uniform"}
		}, "weft|fcbb:bb00:1::/48/decap_dscp_mode"},
		{"address type wrong", func(c *Config) {
			c.Interfaces["eth1"] = NewInterface("eth1", true, []Address{{IP: "fe80::1",
				Config: AddressConfig{IP: "fe80::1", PrefixLength: 64, Type: GlobalUnicast}}})
		}, "address[ip=fe80::1]/config/type"},
		{"interface of no port", func(c *Config) {
			c.Interfaces["eth7"] = NewInterface("eth7", true, nil)
		}, `interface[name=eth7]: name: no port "eth7"`},
		{"two VRFs on one table", func(c *Config) {
			c.Instances["Vrf-b"] = Instance{Name: "Vrf-b", Config: InstanceConfig{Name: "Vrf-b", Type: TypeL3VRF,
				Enabled: true, Description: "table 101"}}
		}, "table 101 is Vrf-a's too"},
		{"unknown VRF protocol", func(c *Config) {
			v := c.Instances["Vrf-a"]
			v.Protocols.Protocol = []Protocol{NewProtocol("BGP", nil)}
			c.Instances["Vrf-a"] = v
		}, `name: "BGP" is not a protocol this instance takes`},
		{"next hop out of order", func(c *Config) {
			s := NewStatic("fd00::/64", []Hop{{"fe80::2", "eth1"}, {"fe80::3", "eth1"}})
			s.NextHops.NextHop[1].Index, s.NextHops.NextHop[1].Config.Index = "2", "2"
			v := c.Instances["Vrf-a"]
			v.Protocols.Protocol = []Protocol{NewProtocol(ProtoMinimal, []Static{s})}
			c.Instances["Vrf-a"] = v
		}, "next-hop[index=2]/index"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := validConfig()
			tc.edit(&c)
			err := Validate(c, hasPort)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want an error containing %q, got %v", tc.want, err)
			}
		})
	}
}

func TestVRFTablesFromDescriptionElseLowestFree(t *testing.T) {
	c := validConfig()
	c.Instances["Vrf-b"] = Instance{Name: "Vrf-b", Config: InstanceConfig{Name: "Vrf-b", Type: TypeL3VRF, Enabled: true}}
	c.Instances["Vrf-c"] = Instance{Name: "Vrf-c", Config: InstanceConfig{Name: "Vrf-c", Type: TypeL3VRF, Enabled: true}}
	got, err := VRFTables(c)
	if err != nil {
		t.Fatal(err)
	}
	if got["Vrf-a"] != 101 || got["Vrf-b"] != 100 || got["Vrf-c"] != 102 {
		t.Fatalf("got %v, want Vrf-a 101 (described), Vrf-b 100, Vrf-c 102", got)
	}
}

// A single static route is replaced, added, read and deleted inside its protocol; the
// configuration the edit started from is left as it was (the Set rolls back to it).
func TestStaticRouteSubtree(t *testing.T) {
	route := func(prefix, gw string) []byte {
		return []byte(`{"prefix":"` + prefix + `","config":{"prefix":"` + prefix + `"},"next-hops":{"next-hop":[` +
			`{"index":"0","config":{"index":"0","next-hop":"` + gw + `"},"interface-ref":{"config":{"interface":"eth1","subinterface":0}}}]}}`)
	}
	base := Config{Instances: map[string]Instance{"DEFAULT": {Name: "DEFAULT",
		Config: InstanceConfig{Name: "DEFAULT", Type: TypeDefault, Enabled: true},
		Protocols: Protocols{Protocol: []Protocol{NewProtocol(ProtoStatic, []Static{
			NewStatic("fcbb:bb00:2::/48", []Hop{{"fe80::2", "eth1"}}),
			NewStatic("fcbb:bb00:3::/48", []Hop{{"fe80::2", "eth1"}}),
		})}}}}}
	st := func(prefix string) Subtree {
		return Subtree{Kind: KindStatic, Name: "DEFAULT", Identifier: ProtoStatic, Protocol: ProtoStatic, Prefix: prefix}
	}
	prefixes := func(c Config) string {
		var out []string
		for _, r := range c.Instances["DEFAULT"].Protocols.Protocol[0].StaticRoutes.Static {
			out = append(out, r.Prefix+" "+r.NextHops.NextHop[0].Config.NextHop)
		}
		return strings.Join(out, ", ")
	}
	next := base.Clone()
	if err := Replace(&next, st("fcbb:bb00:2::/48"), route("fcbb:bb00:2::/48", "fe80::9")); err != nil {
		t.Fatal(err)
	}
	if err := Replace(&next, st("fcbb:bb00:7::/48"), route("fcbb:bb00:7::/48", "fe80::2")); err != nil {
		t.Fatal(err)
	}
	Delete(&next, st("fcbb:bb00:3::/48"))
	Delete(&next, st("fcbb:bb00:5::/48")) // not there: no error, no change
	if got, want := prefixes(next), "fcbb:bb00:2::/48 fe80::9, fcbb:bb00:7::/48 fe80::2"; got != want {
		t.Errorf("after the edits: %s, want %s", got, want)
	}
	if got, want := prefixes(base), "fcbb:bb00:2::/48 fe80::2, fcbb:bb00:3::/48 fe80::2"; got != want {
		t.Errorf("the original changed under the edits: %s, want %s", got, want)
	}
	raw, ok := Value(next, st("fcbb:bb00:7::/48"))
	if !ok || !strings.Contains(string(raw), `"next-hop":"fe80::2"`) {
		t.Errorf("Value of the added route: %s, %v", raw, ok)
	}
	if _, ok := Value(next, st("fcbb:bb00:3::/48")); ok {
		t.Error("Value of the deleted route still answers")
	}
	for _, tc := range []struct {
		name string
		s    Subtree
		raw  []byte
		want string
	}{
		{"prefix differs from the key", st("fcbb:bb00:8::/48"), route("fcbb:bb00:9::/48", "fe80::2"),
			`static[prefix=fcbb:bb00:8::/48]: prefix: "fcbb:bb00:9::/48" differs from the path key`},
		{"no such protocol", Subtree{Kind: KindStatic, Name: "DEFAULT", Identifier: ProtoStatic, Protocol: ProtoMinimal,
			Prefix: "fcbb:bb00:9::/48"}, route("fcbb:bb00:9::/48", "fe80::2"), `has no protocol STATIC MINIMAL`},
		{"no such instance", Subtree{Kind: KindStatic, Name: "Vrf-x", Identifier: ProtoStatic, Protocol: ProtoMinimal,
			Prefix: "fcbb:bb00:9::/48"}, route("fcbb:bb00:9::/48", "fe80::2"), `network instance "Vrf-x" does not exist`},
		{"unknown field", st("fcbb:bb00:9::/48"), []byte(`{"prefix":"fcbb:bb00:9::/48","colour":"red"}`), `unknown field "colour"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := base.Clone()
			err := Replace(&c, tc.s, tc.raw)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
