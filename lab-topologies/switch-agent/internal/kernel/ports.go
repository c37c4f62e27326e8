package kernel

import (
	"fmt"
	"sort"
	"strings"
)

// Ports maps the fabric's port names (what the intent says, e.g. eth1) to the kernel's link
// names (what the lab wired, e.g. p0). Without a map the names are the same (containerlab).
type Ports struct {
	toKernel map[string]string
	toFabric map[string]string
}

// ParsePorts reads "eth1=p0,eth2=p1"; empty means identity.
func ParsePorts(s string) (Ports, error) {
	p := Ports{}
	if strings.TrimSpace(s) == "" {
		return p, nil
	}
	p.toKernel, p.toFabric = map[string]string{}, map[string]string{}
	for _, pair := range strings.Split(s, ",") {
		fabric, kernel, ok := strings.Cut(strings.TrimSpace(pair), "=")
		if !ok || fabric == "" || kernel == "" {
			return Ports{}, fmt.Errorf("port map: %q is not <fabric port>=<link>", pair)
		}
		if kernel == "lo" || kernel == Anchor || kernel == AnchorPeer {
			return Ports{}, fmt.Errorf("port map: %s: link %q is the switch's own", fabric, kernel)
		}
		if _, dup := p.toKernel[fabric]; dup {
			return Ports{}, fmt.Errorf("port map: fabric port %q mapped twice", fabric)
		}
		if _, dup := p.toFabric[kernel]; dup {
			return Ports{}, fmt.Errorf("port map: link %q mapped twice", kernel)
		}
		p.toKernel[fabric], p.toFabric[kernel] = kernel, fabric
	}
	return p, nil
}

// Identity tells whether fabric port names are link names.
func (p Ports) Identity() bool { return p.toKernel == nil }

// Kernel is the link of a fabric port; ok is false for an unmapped port.
func (p Ports) Kernel(fabric string) (string, bool) {
	if p.Identity() {
		return fabric, fabric != "lo" && fabric != Anchor && fabric != AnchorPeer && fabric != ""
	}
	k, ok := p.toKernel[fabric]
	return k, ok
}

// Fabric is the fabric port of a link; ok is false for links that are not ports.
func (p Ports) Fabric(kernel string) (string, bool) {
	if p.Identity() {
		return kernel, kernel != "lo" && kernel != Anchor && kernel != AnchorPeer
	}
	f, ok := p.toFabric[kernel]
	return f, ok
}

// Mapped lists the fabric ports of an explicit map, sorted; nil for identity.
func (p Ports) Mapped() []string {
	out := make([]string, 0, len(p.toKernel))
	for f := range p.toKernel {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}
