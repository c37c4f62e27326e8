package ev

import (
	"slices"
	"testing"

	"weft.io/nic-agent/internal/vectors"
)

// TestSprayVectors: slots and the port list of every case of contracts/vectors/ev-ports.json,
// the rule the Java side holds to the same file.
func TestSprayVectors(t *testing.T) {
	cases, err := vectors.EVPorts()
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 5 {
		t.Fatalf("only %d ev-ports vectors", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			var ports, weights []int
			for _, e := range c.Entries {
				ports = append(ports, e.Port)
				weights = append(weights, e.Weight)
			}
			slots := Slots(weights)
			if !slices.Equal(slots, c.Slots) {
				t.Fatalf("Slots(%v) = %v, want %v", weights, slots, c.Slots)
			}
			if got := Spray(ports, slots); !slices.Equal(got, c.Ports) {
				t.Fatalf("Spray = %v, want %v", got, c.Ports)
			}
		})
	}
}

// TestSprayListsEachPortBySlotsAndPrefixesStayNearTheWeights: for many weight sets, each port
// appears exactly its slots times, and in every prefix of the list no port is more than one
// ahead of or behind its share (what smooth weighted round robin guarantees).
func TestSprayListsEachPortBySlotsAndPrefixesStayNearTheWeights(t *testing.T) {
	for _, slots := range [][]int{{1}, {4, 3, 1}, {5, 11}, {1, 1, 1, 1, 4}, {16, 1}, {2, 7, 3, 4}} {
		ports := make([]int, len(slots))
		total := 0
		for i, s := range slots {
			ports[i] = 50000 + i
			total += s
		}
		list := Spray(ports, slots)
		if len(list) != total {
			t.Fatalf("%v: %d ports listed, want %d", slots, len(list), total)
		}
		seen := make([]int, len(slots))
		for n, p := range list {
			seen[p-50000]++
			for i, s := range slots {
				want := float64(s) * float64(n+1) / float64(total)
				if d := float64(seen[i]) - want; d > 1 || d < -1 {
					t.Fatalf("%v: after %d ports, port %d listed %d times, share %.2f", slots, n+1, i, seen[i], want)
				}
			}
		}
	}
}

// TestSlotsOfSharesAtAJobsGranularityAreTheShares: a multipath flow's shares in eighths or
// sixteenths, written as Mbit/s of any demand, come back as those eighths or sixteenths (reduced).
func TestSlotsOfSharesAtAJobsGranularityAreTheShares(t *testing.T) {
	for _, demandMbps := range []int{1000, 25000, 100000, 400000, 800000} {
		for _, units := range [][]int{{8, 5, 3}, {4, 4, 4, 4}, {1, 15}, {13, 2, 1}, {6, 10}} {
			weights := make([]int, len(units))
			for i, u := range units {
				weights[i] = (demandMbps*u + 8) / 16 // whole Mbit/s, as scheduler-api writes them
			}
			g := 0
			for _, u := range units {
				g = gcd(g, u)
			}
			want := make([]int, len(units))
			for i, u := range units {
				want[i] = u / g
			}
			if got := Slots(weights); !slices.Equal(got, want) {
				t.Fatalf("demand %d Mbit/s, sixteenths %v (weights %v): slots %v, want %v", demandMbps, units, weights, got, want)
			}
		}
	}
}
