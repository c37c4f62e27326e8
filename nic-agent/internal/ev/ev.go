// Package ev encodes and decodes Weft entropy values (EVs).
//
// An EV is 16 bits carried as the RoCEv2 UDP source port: EV1 is the high byte, EV2 the low
// byte. A switch whose EV table has n members (member order fixed and published by the
// controller) picks member EVbyte mod n, so the first hop reads EV1 and the second EV2. The
// rules are shared by every Weft component and tested against contracts/vectors/ev.json.
package ev

import (
	"errors"
	"fmt"
)

// MaxTableSize is the largest EV table: one byte of entropy selects among at most 256 members.
const MaxTableSize = 256

// rocePortHigh is the first EV1 byte tried: RoCEv2 source ports live in 0xC000-0xFFFF by
// convention, so an EV that lands there looks like any other RoCEv2 flow.
const rocePortHigh = 0xC0

// Sentinel errors; their text is the error code used by the shared vectors.
var (
	ErrIndexOutOfRange = errors.New("index-out-of-range")
	ErrTableSize       = errors.New("table-size")
	ErrNotEncodable    = errors.New("not-encodable")
)

// Choice names one member of an EV table: Index of Size members.
type Choice struct {
	Size  int
	Index int
}

// FirstHopOnly is the second-hop choice to use when only the first hop matters.
var FirstHopOnly = Choice{Size: 1, Index: 0}

// check validates a pair of choices: both table sizes first, then both indices, so every
// implementation reports the same error for the same bad input.
func check(hop1, hop2 Choice) error {
	for _, c := range []struct {
		field string
		c     Choice
	}{{"n1", hop1}, {"n2", hop2}} {
		if c.c.Size < 1 || c.c.Size > MaxTableSize {
			return fmt.Errorf("%s: table size %d is outside 1..%d: %w", c.field, c.c.Size, MaxTableSize, ErrTableSize)
		}
	}
	for _, c := range []struct {
		field string
		c     Choice
	}{{"i1", hop1}, {"i2", hop2}} {
		if c.c.Index < 0 || c.c.Index >= c.c.Size {
			return fmt.Errorf("%s: index %d is outside 0..%d: %w", c.field, c.c.Index, c.c.Size-1, ErrIndexOutOfRange)
		}
	}
	return nil
}

// Encode returns the EV that makes a first-hop switch pick hop1 and a second-hop switch pick
// hop2. It never returns 0 (not a valid UDP port).
func Encode(hop1, hop2 Choice) (uint16, error) {
	if err := check(hop1, hop2); err != nil {
		return 0, err
	}
	ev1 := highByte(hop1)
	ev2 := hop2.Index
	if ev1 == 0 && ev2 == 0 {
		// n2 mod n2 = 0 picks the same member as 0 but keeps the port non-zero.
		if hop2.Size == MaxTableSize {
			return 0, fmt.Errorf("n1=%d i1=%d n2=%d i2=%d: every encoding is port 0: %w",
				hop1.Size, hop1.Index, hop2.Size, hop2.Index, ErrNotEncodable)
		}
		ev2 = hop2.Size
	}
	return uint16(ev1)<<8 | uint16(ev2), nil
}

// highByte is the smallest byte in the RoCEv2 range, else the smallest non-zero byte, that
// selects c.Index; 0 when only 0 does (c.Size 256, c.Index 0).
func highByte(c Choice) int {
	for _, r := range [][2]int{{rocePortHigh, 0xFF}, {0x01, rocePortHigh - 1}} {
		// The smallest b >= lo with b mod n = i.
		b := r[0] + ((c.Index-r[0])%c.Size+c.Size)%c.Size
		if b <= r[1] {
			return b
		}
	}
	return 0
}

// Decode returns the members an EV selects in tables of n1 and n2 members.
func Decode(ev uint16, n1, n2 int) (hop1, hop2 Choice, err error) {
	for _, t := range []struct {
		field string
		n     int
	}{{"n1", n1}, {"n2", n2}} {
		if t.n < 1 || t.n > MaxTableSize {
			return Choice{}, Choice{}, fmt.Errorf("%s: table size %d is outside 1..%d: %w", t.field, t.n, MaxTableSize, ErrTableSize)
		}
	}
	return Choice{Size: n1, Index: int(ev>>8) % n1}, Choice{Size: n2, Index: int(ev&0xFF) % n2}, nil
}
