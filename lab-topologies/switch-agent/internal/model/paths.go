package model

import (
	"fmt"
	"strings"

	"github.com/openconfig/gnmi/proto/gnmi"
)

// Origins of the two dialects (contracts/gnmi/README.md).
const (
	OriginSonic = "sonic-db"
	OriginOC    = "openconfig"
)

// Kind is which replaceable subtree a path names.
type Kind int

const (
	KindLocators Kind = iota + 1
	KindSIDs
	KindInterface
	KindInstance
	// KindStatic is one static route of a network instance's protocol: the controller replaces
	// and deletes single routes when a re-plan changes only a few of an instance's routes.
	KindStatic
)

// Subtree is one replaceable unit of Config: a whole SONiC table, one keyed OpenConfig list
// entry (interface, network instance), or one static route inside a network instance.
type Subtree struct {
	Kind Kind
	Name string // interface or instance name; empty for the SONiC tables
	// Of a KindStatic: the protocol's keys and the route's prefix.
	Identifier, Protocol, Prefix string
}

// String is the path as DeviceIntent writes it (origin:path), for messages and Get answers.
func (s Subtree) String() string {
	switch s.Kind {
	case KindLocators:
		return OriginSonic + ":/CONFIG_DB/localhost/SRV6_MY_LOCATORS"
	case KindSIDs:
		return OriginSonic + ":/CONFIG_DB/localhost/SRV6_MY_SIDS"
	case KindInterface:
		return OriginOC + ":/interfaces/interface[name=" + s.Name + "]"
	case KindInstance:
		return OriginOC + ":/network-instances/network-instance[name=" + s.Name + "]"
	case KindStatic:
		return OriginOC + ":/network-instances/network-instance[name=" + s.Name + "]/protocols/protocol[identifier=" +
			s.Identifier + "][name=" + s.Protocol + "]/static-routes/static[prefix=" + s.Prefix + "]"
	}
	return "?"
}

// Path is the subtree as a gNMI path.
func (s Subtree) Path() *gnmi.Path {
	switch s.Kind {
	case KindLocators, KindSIDs:
		table := "SRV6_MY_LOCATORS"
		if s.Kind == KindSIDs {
			table = "SRV6_MY_SIDS"
		}
		return &gnmi.Path{Origin: OriginSonic, Elem: []*gnmi.PathElem{{Name: "CONFIG_DB"}, {Name: "localhost"}, {Name: table}}}
	case KindInterface:
		return &gnmi.Path{Origin: OriginOC, Elem: []*gnmi.PathElem{
			{Name: "interfaces"}, {Name: "interface", Key: map[string]string{"name": s.Name}}}}
	case KindInstance:
		return &gnmi.Path{Origin: OriginOC, Elem: []*gnmi.PathElem{
			{Name: "network-instances"}, {Name: "network-instance", Key: map[string]string{"name": s.Name}}}}
	case KindStatic:
		return &gnmi.Path{Origin: OriginOC, Elem: []*gnmi.PathElem{
			{Name: "network-instances"}, {Name: "network-instance", Key: map[string]string{"name": s.Name}},
			{Name: "protocols"}, {Name: "protocol", Key: map[string]string{"identifier": s.Identifier, "name": s.Protocol}},
			{Name: "static-routes"}, {Name: "static", Key: map[string]string{"prefix": s.Prefix}}}}
	}
	return nil
}

// PathString renders a gNMI path as origin:/a/b[k=v] (keys sorted), for error messages.
func PathString(p *gnmi.Path) string {
	if p == nil {
		return "/"
	}
	var b strings.Builder
	if p.Origin != "" {
		b.WriteString(p.Origin + ":")
	}
	if len(p.Elem) == 0 {
		b.WriteString("/")
	}
	for _, e := range p.Elem {
		b.WriteString("/" + e.Name)
		for _, k := range sortedKeys(e.Key) {
			b.WriteString("[" + k + "=" + e.Key[k] + "]")
		}
	}
	return b.String()
}

// Join prepends a SetRequest/GetRequest prefix to a path (origin from whichever has one).
func Join(prefix, p *gnmi.Path) *gnmi.Path {
	if prefix == nil || len(prefix.Elem) == 0 && prefix.Origin == "" {
		return p
	}
	out := &gnmi.Path{Origin: p.GetOrigin(), Target: prefix.GetTarget()}
	if out.Origin == "" {
		out.Origin = prefix.Origin
	}
	out.Elem = append(append(out.Elem, prefix.GetElem()...), p.GetElem()...)
	return out
}

// ParseSubtree maps a gNMI path onto the subtree it replaces, or an *Error naming the path.
func ParseSubtree(p *gnmi.Path) (Subtree, error) {
	where := PathString(p)
	names := make([]string, len(p.GetElem()))
	for i, e := range p.GetElem() {
		names[i] = e.Name
	}
	joined := strings.Join(names, "/")
	origin := p.GetOrigin()
	switch joined {
	case "CONFIG_DB/localhost/SRV6_MY_LOCATORS", "CONFIG_DB/localhost/SRV6_MY_SIDS":
		if origin != OriginSonic {
			return Subtree{}, Errorf(where, "origin", "must be %q for CONFIG_DB tables, not %q", OriginSonic, origin)
		}
		if joined == "CONFIG_DB/localhost/SRV6_MY_LOCATORS" {
			return Subtree{Kind: KindLocators}, nil
		}
		return Subtree{Kind: KindSIDs}, nil
	case "interfaces/interface", "network-instances/network-instance":
		if origin != OriginOC && origin != "" {
			return Subtree{}, Errorf(where, "origin", "must be %q (or empty) for OpenConfig paths, not %q", OriginOC, origin)
		}
		last := p.Elem[1]
		name, ok := last.Key["name"]
		if !ok || name == "" || len(last.Key) != 1 {
			return Subtree{}, Errorf(where, last.Name, "needs exactly one key, name")
		}
		if joined == "interfaces/interface" {
			return Subtree{Kind: KindInterface, Name: name}, nil
		}
		return Subtree{Kind: KindInstance, Name: name}, nil
	case "network-instances/network-instance/protocols/protocol/static-routes/static":
		if origin != OriginOC && origin != "" {
			return Subtree{}, Errorf(where, "origin", "must be %q (or empty) for OpenConfig paths, not %q", OriginOC, origin)
		}
		inst, proto, route := p.Elem[1].Key, p.Elem[3].Key, p.Elem[5].Key
		if inst["name"] == "" || len(inst) != 1 {
			return Subtree{}, Errorf(where, "network-instance", "needs exactly one key, name")
		}
		if proto["identifier"] == "" || proto["name"] == "" || len(proto) != 2 {
			return Subtree{}, Errorf(where, "protocol", "needs exactly two keys, identifier and name")
		}
		if route["prefix"] == "" || len(route) != 1 {
			return Subtree{}, Errorf(where, "static", "needs exactly one key, prefix")
		}
		return Subtree{Kind: KindStatic, Name: inst["name"], Identifier: proto["identifier"], Protocol: proto["name"],
			Prefix: route["prefix"]}, nil
	}
	return Subtree{}, Errorf(where, "", "not a path this switch configures (SRV6_MY_LOCATORS, SRV6_MY_SIDS, "+
		"/interfaces/interface[name], /network-instances/network-instance[name], "+
		".../protocols/protocol[identifier][name]/static-routes/static[prefix])")
}

// Error is a rejected payload: the path and, inside its value, the field that is wrong.
type Error struct {
	Path  string
	Field string
	Msg   string
}

func (e *Error) Error() string {
	if e.Field == "" {
		return e.Path + ": " + e.Msg
	}
	return e.Path + ": " + e.Field + ": " + e.Msg
}

// Errorf builds an *Error.
func Errorf(path, field, format string, args ...any) *Error {
	return &Error{Path: path, Field: field, Msg: fmt.Sprintf(format, args...)}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}
