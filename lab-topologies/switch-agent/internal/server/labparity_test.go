package server

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"weft.io/switch-agent/internal/nstest"
)

// labPorts is the lab's naming (LabLayout): a node's k-th link in fabric file order is p<k>.
func labPorts(t *testing.T, file, node string) []string {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var f fabricFile
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	var ports []string
	for _, l := range f.Links {
		if l.A.Node == node {
			ports = append(ports, l.A.Port)
		}
		if l.B.Node == node {
			ports = append(ports, l.B.Port)
		}
	}
	return ports
}

var (
	routeNoise = regexp.MustCompile(` proto \S+| metric \d+| pref medium|\s+$`)
	addrLine   = regexp.MustCompile(`^\d+: (\S+)\s+inet6 (\S+) .*`)
)

// comparable is a namespace's switch state with what legitimately differs taken out: the route
// protocol (the agent tags its routes; the lab uses the default), the kernel's own routes and
// auto-generated link-local addresses, and the order of lines.
func comparable(t *testing.T, ns string) string {
	t.Helper()
	var out []string
	var cur string
	for _, l := range strings.Split(nstest.Run(t, "ip", "-n", ns, "-6", "route", "show", "table", "all"), "\n") {
		if strings.HasPrefix(l, "\t") { // a next hop of the route above
			cur += " |" + routeNoise.ReplaceAllString(strings.TrimSpace(l), "")
			out[len(out)-1] = cur
			continue
		}
		if l == "" || strings.Contains(l, "proto kernel") || strings.HasPrefix(l, "local ") ||
			strings.HasPrefix(l, "multicast ") || strings.HasPrefix(l, "anycast ") {
			cur = ""
			out = append(out, "")
			continue
		}
		cur = "route " + routeNoise.ReplaceAllString(l, "")
		out = append(out, cur)
	}
	for _, l := range strings.Split(nstest.Run(t, "ip", "-n", ns, "-6", "rule"), "\n") {
		out = append(out, "rule "+strings.TrimSpace(l))
	}
	for _, l := range strings.Split(nstest.Run(t, "ip", "-n", ns, "-6", "-o", "addr"), "\n") {
		if m := addrLine.FindStringSubmatch(l); m != nil && (strings.Contains(l, "nodad") || m[1] == "lo") {
			out = append(out, "addr "+m[1]+" "+m[2])
		}
	}
	nft, _ := nstest.Try("ip", "netns", "exec", ns, "nft", "list", "ruleset")
	out = append(out, strings.Split(nft, "\n")...)
	sort.Strings(out)
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// The agent configured by gNMI leaves a switch namespace exactly as the namespace lab's
// LabScript programs it from the plan (testdata/ls-2x2/<switch>.lab and .nft, rendered by the
// Java lab code), apart from the route protocol tag.
func TestSameKernelStateAsTheLabScript(t *testing.T) {
	nstest.Require(t, "nft")
	const fabric = "../../../../contracts/examples/leaf-spine-2x2.json"
	for _, sw := range []string{"leaf1", "leaf2", "spine1", "spine2"} {
		t.Run(sw, func(t *testing.T) {
			ports := labPorts(t, fabric, sw)
			mk := func() string {
				ns, peer := nstest.NS(t), nstest.NS(t)
				for k := range ports {
					nstest.Veth(t, ns, fmt.Sprintf("p%d", k), peer, fmt.Sprintf("x%d", k))
				}
				return ns
			}
			lab, agent := mk(), mk()
			for _, s := range []string{"all.forwarding", "default.forwarding", "all.seg6_enabled", "default.seg6_enabled"} {
				nstest.Run(t, "ip", "netns", "exec", lab, "sysctl", "-qw", "net.ipv6.conf."+s+"=1")
			}
			nstest.Run(t, "ip", "-6", "-n", lab, "-batch", "../../testdata/ls-2x2/"+sw+".lab")
			if _, err := os.Stat("../../testdata/ls-2x2/" + sw + ".nft"); err == nil {
				nstest.Run(t, "ip", "netns", "exec", lab, "nft", "-f", "../../testdata/ls-2x2/"+sw+".nft")
			}
			var pairs []string
			for k, p := range ports {
				pairs = append(pairs, fmt.Sprintf("%s=p%d", p, k))
			}
			in := readIntent(t, "../../testdata/ls-2x2/"+sw+".json")
			c := serve(t, agent, strings.Join(pairs, ","), sw)
			if _, err := c.Set(ctx(t), setRequest(t, in)); err != nil {
				t.Fatal(err)
			}
			if got, want := comparable(t, agent), comparable(t, lab); got != want {
				t.Fatalf("agent's kernel state differs from the lab's:\nagent:\n%s\n\nlab:\n%s", got, want)
			}
		})
	}
}
