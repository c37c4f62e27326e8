package kernel

import "weft.io/switch-agent/internal/model"

// orderLikeRunning puts each protocol's static routes in the order the last Set listed them
// (routes it did not list follow, by prefix). OpenConfig lists are keyed and their order carries
// nothing, but a client that confirms a Set by comparing the read-back byte for byte (canonical
// JSON, as the controller's provisioner does) would otherwise never see its intent confirmed and
// push it again forever.
func orderLikeRunning(c *model.Config, running *model.Config) {
	if running == nil {
		return
	}
	for name, inst := range c.Instances {
		want, ok := running.Instances[name]
		if !ok {
			continue
		}
		rank := map[string]map[string]int{} // protocol name -> prefix -> position in the Set
		for _, p := range want.Protocols.Protocol {
			m := map[string]int{}
			for i, s := range p.StaticRoutes.Static {
				m[s.Prefix] = i
			}
			rank[p.Name] = m
		}
		for _, p := range inst.Protocols.Protocol {
			m := rank[p.Name]
			if m == nil {
				continue
			}
			rs := p.StaticRoutes.Static
			ordered := make([]model.Static, 0, len(rs))
			size := 0
			for _, pos := range m {
				size = max(size, pos+1)
			}
			placed := make([]*model.Static, size)
			for i := range rs {
				if pos, ok := m[rs[i].Prefix]; ok && placed[pos] == nil {
					placed[pos] = &rs[i]
				}
			}
			for _, s := range placed {
				if s != nil {
					ordered = append(ordered, *s)
				}
			}
			for i := range rs {
				if pos, ok := m[rs[i].Prefix]; !ok || placed[pos] != &rs[i] {
					ordered = append(ordered, rs[i])
				}
			}
			copy(rs, ordered)
		}
		c.Instances[name] = inst
	}
}
