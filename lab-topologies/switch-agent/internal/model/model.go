// Package model holds the configuration a Weft switch accepts over gNMI, in the JSON shapes
// io.weft.plan.intent.DeviceIntent renders (contracts/gnmi/README.md): SONiC CONFIG_DB SRv6
// tables and OpenConfig interfaces and network instances. The same types carry what the agent
// reads back from the kernel, so Get answers in exactly the shape Set accepted.
package model

import "strconv"

// Config is everything the switch owns: each field is one replaceable subtree.
type Config struct {
	// Locators is SRV6_MY_LOCATORS by locator name; nil or empty when none is configured.
	Locators map[string]Locator
	// SIDs is SRV6_MY_SIDS by "<locator>|<prefix>".
	SIDs map[string]SID
	// Interfaces by name (fabric port name, or Loopback0).
	Interfaces map[string]Interface
	// Instances are network instances by name (DEFAULT and one L3VRF per tenant).
	Instances map[string]Instance
}

// Locator is one SRV6_MY_LOCATORS entry; SONiC keeps every value as a string.
type Locator struct {
	Prefix   string `json:"prefix"`
	BlockLen string `json:"block_len"`
	NodeLen  string `json:"node_len"`
	FuncLen  string `json:"func_len"`
	ArgLen   string `json:"arg_len"`
	Vrf      string `json:"vrf"`
}

// SID is one SRV6_MY_SIDS entry.
type SID struct {
	Action        string `json:"action"`
	Interface     string `json:"interface,omitempty"`
	Adj           string `json:"adj,omitempty"`
	DecapVrf      string `json:"decap_vrf,omitempty"`
	DecapDscpMode string `json:"decap_dscp_mode"`
}

// Interface is /interfaces/interface[name].
type Interface struct {
	Name          string        `json:"name"`
	Config        IfConfig      `json:"config"`
	Subinterfaces Subinterfaces `json:"subinterfaces"`
}

type IfConfig struct {
	Name    string `json:"name"`
	Enabled bool   `json:"enabled"`
}

type Subinterfaces struct {
	Subinterface []Subinterface `json:"subinterface"`
}

type Subinterface struct {
	Index  int         `json:"index"`
	Config SubIfConfig `json:"config"`
	IPv6   IPv6        `json:"ipv6"`
}

type SubIfConfig struct {
	Index   int  `json:"index"`
	Enabled bool `json:"enabled"`
}

type IPv6 struct {
	Config    EnabledConfig `json:"config"`
	Addresses Addresses     `json:"addresses"`
}

type EnabledConfig struct {
	Enabled bool `json:"enabled"`
}

type Addresses struct {
	Address []Address `json:"address"`
}

type Address struct {
	IP     string        `json:"ip"`
	Config AddressConfig `json:"config"`
}

type AddressConfig struct {
	IP           string `json:"ip"`
	PrefixLength int    `json:"prefix-length"`
	Type         string `json:"type"`
}

// Instance is /network-instances/network-instance[name].
type Instance struct {
	Name      string         `json:"name"`
	Config    InstanceConfig `json:"config"`
	Protocols Protocols      `json:"protocols"`
}

type InstanceConfig struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Enabled     bool   `json:"enabled"`
	Description string `json:"description,omitempty"`
}

type Protocols struct {
	Protocol []Protocol `json:"protocol"`
}

type Protocol struct {
	Identifier   string         `json:"identifier"`
	Name         string         `json:"name"`
	Config       ProtocolConfig `json:"config"`
	StaticRoutes StaticRoutes   `json:"static-routes"`
}

type ProtocolConfig struct {
	Identifier string `json:"identifier"`
	Name       string `json:"name"`
}

type StaticRoutes struct {
	Static []Static `json:"static"`
}

type Static struct {
	Prefix   string       `json:"prefix"`
	Config   StaticConfig `json:"config"`
	NextHops NextHops     `json:"next-hops"`
}

type StaticConfig struct {
	Prefix string `json:"prefix"`
}

type NextHops struct {
	NextHop []NextHop `json:"next-hop"`
}

// NextHop's index is a string: the OpenConfig key is a string (DeviceIntent writes "0", "1", ...).
type NextHop struct {
	Index        string        `json:"index"`
	Config       NextHopConfig `json:"config"`
	InterfaceRef InterfaceRef  `json:"interface-ref"`
}

type NextHopConfig struct {
	Index   string `json:"index"`
	NextHop string `json:"next-hop"`
}

type InterfaceRef struct {
	Config InterfaceRefConfig `json:"config"`
}

type InterfaceRefConfig struct {
	Interface    string `json:"interface"`
	Subinterface int    `json:"subinterface"`
}

// Names of the things Weft's intent uses.
const (
	LoopbackName     = "Loopback0"
	DefaultInstance  = "DEFAULT"
	TypeDefault      = "DEFAULT_INSTANCE"
	TypeL3VRF        = "L3VRF"
	ProtoStatic      = "STATIC"
	ProtoLocal       = "LOCAL"
	ProtoEVStage1    = "EV-STAGE1"
	ProtoEVStage2    = "EV-STAGE2"
	ProtoMinimal     = "MINIMAL"
	ActionUN         = "uN"
	ActionUA         = "uA"
	ActionUDT46      = "uDT46"
	DscpPipe         = "pipe"
	LinkLocalUnicast = "LINK_LOCAL_UNICAST"
	GlobalUnicast    = "GLOBAL_UNICAST"
)

// VRFProtocols are the static protocols of a tenant VRF, in the order DeviceIntent writes them.
var VRFProtocols = []string{ProtoLocal, ProtoEVStage1, ProtoEVStage2, ProtoMinimal}

// Clone copies the maps (values are copied by value; slices inside are not mutated in place).
func (c Config) Clone() Config {
	out := Config{
		Locators:   map[string]Locator{},
		SIDs:       map[string]SID{},
		Interfaces: map[string]Interface{},
		Instances:  map[string]Instance{},
	}
	for k, v := range c.Locators {
		out.Locators[k] = v
	}
	for k, v := range c.SIDs {
		out.SIDs[k] = v
	}
	for k, v := range c.Interfaces {
		out.Interfaces[k] = v
	}
	for k, v := range c.Instances {
		out.Instances[k] = v
	}
	return out
}

// NewInterface is an interface in DeviceIntent's shape with the given addresses.
func NewInterface(name string, enabled bool, addrs []Address) Interface {
	if addrs == nil {
		addrs = []Address{}
	}
	return Interface{
		Name:   name,
		Config: IfConfig{Name: name, Enabled: enabled},
		Subinterfaces: Subinterfaces{Subinterface: []Subinterface{{
			Index:  0,
			Config: SubIfConfig{Index: 0, Enabled: enabled},
			IPv6:   IPv6{Config: EnabledConfig{Enabled: true}, Addresses: Addresses{Address: addrs}},
		}}},
	}
}

// NewProtocol is a STATIC protocol named name with the given routes.
func NewProtocol(name string, routes []Static) Protocol {
	if routes == nil {
		routes = []Static{}
	}
	return Protocol{
		Identifier:   ProtoStatic,
		Name:         name,
		Config:       ProtocolConfig{Identifier: ProtoStatic, Name: name},
		StaticRoutes: StaticRoutes{Static: routes},
	}
}

// NewStatic is a static route whose next hops are indexed 0, 1, ... in order.
func NewStatic(prefix string, hops []Hop) Static {
	s := Static{Prefix: prefix, Config: StaticConfig{Prefix: prefix}, NextHops: NextHops{NextHop: []NextHop{}}}
	for i, h := range hops {
		idx := strconv.Itoa(i)
		s.NextHops.NextHop = append(s.NextHops.NextHop, NextHop{
			Index:        idx,
			Config:       NextHopConfig{Index: idx, NextHop: h.Gateway},
			InterfaceRef: InterfaceRef{Config: InterfaceRefConfig{Interface: h.Port, Subinterface: 0}},
		})
	}
	return s
}

// Hop is a next hop: a link-local gateway out of a port.
type Hop struct {
	Gateway string
	Port    string
}
