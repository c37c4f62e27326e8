// Package counters reads how much this host sent to each peer from kernel counters: one
// nftables rule per peer address in an output chain of the agent's own table.
//
// The kernel keeps no per-route counters for IPv6, and the encapsulated packet passes the
// netfilter hooks only when the global sysctl net.netfilter.nf_hooks_lwtunnel is on (which
// cannot be turned off again), so the agent counts inner packets by destination, before
// encapsulation. Traffic to one peer spread over several entries is one count.
package counters

import (
	"fmt"
	"net"
	"sync"

	"github.com/google/nftables"
	"github.com/google/nftables/expr"
	"github.com/vishvananda/netns"
)

// TableName is the agent's nftables table (family ip6); nothing else of the host's ruleset is touched.
const TableName = "weft_agent"

// Count is what the kernel counted towards one peer since its rule was added.
type Count struct {
	Bytes   uint64
	Packets uint64
}

// NFT counts per destination address with nftables in one network namespace.
type NFT struct {
	mu    sync.Mutex
	conn  *nftables.Conn
	table *nftables.Table
	chain *nftables.Chain
}

// NewNFT opens nftables in the namespace netnsName ("" = the agent's own) and makes sure the
// agent's table and chain exist; existing rules (and their counts) are kept across restarts.
func NewNFT(netnsName string) (*NFT, error) {
	var opts []nftables.ConnOption
	if netnsName != "" {
		ns, err := netns.GetFromName(netnsName)
		if err != nil {
			return nil, fmt.Errorf("netns: %q: %w", netnsName, err)
		}
		// The conn keeps using the fd for every request, so it stays open for the agent's life.
		opts = append(opts, nftables.WithNetNSFd(int(ns)))
	}
	conn, err := nftables.New(opts...)
	if err != nil {
		return nil, fmt.Errorf("nftables: %w", err)
	}
	n := &NFT{conn: conn}
	n.table = conn.AddTable(&nftables.Table{Family: nftables.TableFamilyIPv6, Name: TableName})
	policy := nftables.ChainPolicyAccept
	n.chain = conn.AddChain(&nftables.Chain{Name: "out", Table: n.table, Type: nftables.ChainTypeFilter,
		Hooknum: nftables.ChainHookOutput, Priority: nftables.ChainPriorityFilter, Policy: &policy})
	if err := conn.Flush(); err != nil {
		return nil, fmt.Errorf("nftables: creating table %s: %w", TableName, err)
	}
	return n, nil
}

// Track makes the counted destinations exactly dsts: rules for new ones are added, rules for
// gone ones deleted, the others left alone so their counts keep growing.
func (n *NFT) Track(dsts []string) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	rules, err := n.conn.GetRules(n.table, n.chain)
	if err != nil {
		return fmt.Errorf("nftables: listing rules: %w", err)
	}
	want := map[string]bool{}
	for _, d := range dsts {
		ip := net.ParseIP(d)
		if ip == nil || ip.To4() != nil {
			return fmt.Errorf("dst: %q is not an IPv6 address", d)
		}
		want[ip.String()] = true
	}
	have := map[string]bool{}
	for _, r := range rules {
		d := string(r.UserData)
		if want[d] && !have[d] {
			have[d] = true
			continue
		}
		if err := n.conn.DelRule(r); err != nil {
			return fmt.Errorf("nftables: deleting the rule for %s: %w", d, err)
		}
	}
	for d := range want {
		if have[d] {
			continue
		}
		n.conn.AddRule(&nftables.Rule{Table: n.table, Chain: n.chain, UserData: []byte(d), Exprs: []expr.Any{
			// ip6 daddr (offset 24, 16 bytes into the IPv6 header) == d: counter
			&expr.Payload{DestRegister: 1, Base: expr.PayloadBaseNetworkHeader, Offset: 24, Len: 16},
			&expr.Cmp{Op: expr.CmpOpEq, Register: 1, Data: net.ParseIP(d).To16()},
			&expr.Counter{},
		}})
	}
	if err := n.conn.Flush(); err != nil {
		return fmt.Errorf("nftables: updating rules: %w", err)
	}
	return nil
}

// Read returns the counts by destination address (canonical text).
func (n *NFT) Read() (map[string]Count, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	rules, err := n.conn.GetRules(n.table, n.chain)
	if err != nil {
		return nil, fmt.Errorf("nftables: reading counters: %w", err)
	}
	out := make(map[string]Count, len(rules))
	for _, r := range rules {
		for _, e := range r.Exprs {
			if c, ok := e.(*expr.Counter); ok {
				out[string(r.UserData)] = Count{Bytes: c.Bytes, Packets: c.Packets}
			}
		}
	}
	return out, nil
}
