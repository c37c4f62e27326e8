package ev

// SpraySlots is how finely a port list expresses weights: 16 slots carry a multipath job's 1/8
// and 1/16 shares exactly and stay within the 32 source ports HCCL takes per (src, dst) pair.
const SpraySlots = 16

// Slots apportions SpraySlots among weights (all > 0) by largest remainder, ties to the earlier
// weight; a weight left with no slot gets one (an entry in use must carry traffic); the counts are
// then divided by their greatest common divisor, so equal weights give one slot each. The rule is
// shared with the Java side and pinned by contracts/vectors/ev-ports.json.
func Slots(weights []int) []int {
	total := int64(0)
	for _, w := range weights {
		total += int64(w)
	}
	slots := make([]int, len(weights))
	if total <= 0 {
		return slots
	}
	rem := make([]int64, len(weights))
	given := 0
	for i, w := range weights {
		scaled := int64(w) * SpraySlots
		slots[i] = int(scaled / total)
		rem[i] = scaled % total
		given += slots[i]
	}
	for ; given < SpraySlots; given++ {
		best := 0
		for i := range rem {
			if rem[i] > rem[best] {
				best = i
			}
		}
		slots[best]++
		rem[best] = -1
	}
	g := 0
	for i := range slots {
		slots[i] = max(1, slots[i])
		g = gcd(g, slots[i])
	}
	for i := range slots {
		slots[i] /= g
	}
	return slots
}

// Spray lists ports, each as many times as its slots say, in smooth weighted round-robin order:
// at each step every port's credit grows by its slots and the port with the most credit (the
// earlier on ties) is taken and pays the total. The heaviest port comes first, and every prefix
// of the list is as close to the weights as a prefix can be, so a stack that uses only the first
// few ports still spreads roughly by weight.
func Spray(ports []int, slots []int) []int {
	total := 0
	for _, s := range slots {
		total += s
	}
	out := make([]int, 0, total)
	credit := make([]int, len(slots))
	for range total {
		best := 0
		for i, s := range slots {
			credit[i] += s
			if credit[i] > credit[best] {
				best = i
			}
		}
		credit[best] -= total
		out = append(out, ports[best])
	}
	return out
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
