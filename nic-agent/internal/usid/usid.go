// Package usid encodes a path's uSID list into SRv6 uSID carriers and back.
//
// A carrier is one IPv6 address: the fabric's 32-bit uSID block followed by up to six 16-bit
// uSIDs, the remaining bits zero (the shape a NEXT-CSID uN node shifts through, RFC 9800). A list longer than six is split in
// order into chunks of six, one carrier each: carriers[0] becomes the packet's destination
// address, the others go to the SRH. The rules are shared by every Weft component and tested
// against contracts/vectors/usid-carriers.json.
package usid

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
)

// PerCarrier is how many 16-bit uSIDs fit after a 32-bit block in a 128-bit address.
const PerCarrier = 6

// MaxUSID is the largest 16-bit uSID value.
const MaxUSID = 0xFFFF

// Sentinel errors. The text of the first four is the error code used by the shared vectors.
var (
	ErrBlockNot32     = errors.New("block-not-32")
	ErrUSIDZero       = errors.New("usid-zero")
	ErrUSIDOutOfRange = errors.New("usid-out-of-range")
	ErrEmpty          = errors.New("empty")
	// ErrNotInBlock and ErrMalformedCarrier are only returned by Decode.
	ErrNotInBlock       = errors.New("not-in-block")
	ErrMalformedCarrier = errors.New("malformed-carrier")
)

// Block is a parsed 32-bit uSID block such as fcbb:bb00::/32.
type Block struct {
	prefix netip.Prefix
}

// ParseBlock accepts an IPv6 prefix of exactly 32 bits with no bits set after the 32nd. No
// surrounding space is trimmed: the Java and TypeScript encoders refuse it too.
func ParseBlock(s string) (Block, error) {
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return Block{}, fmt.Errorf("block %q: not an IPv6 prefix: %w", s, ErrBlockNot32)
	}
	if !p.Addr().Is6() || p.Addr().Is4In6() || p.Addr().Zone() != "" {
		return Block{}, fmt.Errorf("block %q: not an IPv6 prefix: %w", s, ErrBlockNot32)
	}
	if p.Bits() != 32 {
		return Block{}, fmt.Errorf("block %q: prefix length is %d, uSID blocks are /32: %w", s, p.Bits(), ErrBlockNot32)
	}
	if p.Masked() != p {
		return Block{}, fmt.Errorf("block %q: bits set after the first 32: %w", s, ErrBlockNot32)
	}
	return Block{prefix: p}, nil
}

// String returns the block in canonical prefix form.
func (b Block) String() string { return b.prefix.String() }

// Encode returns the carriers (RFC 5952 text) for block and usids, in path order.
func Encode(block string, usids []int) ([]string, error) {
	b, err := ParseBlock(block)
	if err != nil {
		return nil, err
	}
	return b.Encode(usids)
}

// Encode returns the carriers for usids under this block. Every uSID must be in 1..65535.
func (b Block) Encode(usids []int) ([]string, error) {
	if len(usids) == 0 {
		return nil, fmt.Errorf("usids: at least one uSID is needed: %w", ErrEmpty)
	}
	for i, u := range usids {
		switch {
		case u == 0:
			return nil, fmt.Errorf("usids[%d]: 0 is not a valid uSID: %w", i, ErrUSIDZero)
		case u < 0 || u > MaxUSID:
			return nil, fmt.Errorf("usids[%d]: %d is outside 1..%d: %w", i, u, MaxUSID, ErrUSIDOutOfRange)
		}
	}
	base := b.prefix.Addr().As16()
	carriers := make([]string, 0, (len(usids)+PerCarrier-1)/PerCarrier)
	for start := 0; start < len(usids); start += PerCarrier {
		end := min(start+PerCarrier, len(usids))
		a := base
		for k, u := range usids[start:end] {
			a[4+2*k] = byte(u >> 8)
			a[5+2*k] = byte(u)
		}
		// netip prints IPv6 in RFC 5952 form; the first uSID is never 0, so the address can
		// never take the IPv4-mapped "::ffff:a.b.c.d" shape.
		carriers = append(carriers, netip.AddrFrom16(a).String())
	}
	return carriers, nil
}

// Decode is the inverse of Encode: it reads the uSIDs out of carriers written under block.
// Every carrier but the last must be full (six uSIDs); within a carrier the uSIDs end at the
// first zero group and everything after it must be zero too.
func Decode(block string, carriers []string) ([]int, error) {
	b, err := ParseBlock(block)
	if err != nil {
		return nil, err
	}
	if len(carriers) == 0 {
		return nil, fmt.Errorf("carriers: at least one carrier is needed: %w", ErrEmpty)
	}
	var usids []int
	for i, c := range carriers {
		a, err := netip.ParseAddr(strings.TrimSpace(c))
		if err != nil || !a.Is6() || a.Zone() != "" {
			return nil, fmt.Errorf("carriers[%d]: %q is not an IPv6 address: %w", i, c, ErrMalformedCarrier)
		}
		if !b.prefix.Contains(a) {
			return nil, fmt.Errorf("carriers[%d]: %s is outside block %s: %w", i, c, b, ErrNotInBlock)
		}
		raw := a.As16()
		n := 0
		for k := range PerCarrier {
			u := int(raw[4+2*k])<<8 | int(raw[5+2*k])
			if u == 0 {
				break
			}
			usids = append(usids, u)
			n++
		}
		for k := n; k < PerCarrier; k++ {
			if raw[4+2*k] != 0 || raw[5+2*k] != 0 {
				return nil, fmt.Errorf("carriers[%d]: %s has a uSID after a zero group: %w", i, c, ErrMalformedCarrier)
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("carriers[%d]: %s holds no uSID: %w", i, c, ErrMalformedCarrier)
		}
		if n < PerCarrier && i < len(carriers)-1 {
			return nil, fmt.Errorf("carriers[%d]: %s is not full but is not the last carrier: %w", i, c, ErrMalformedCarrier)
		}
	}
	return usids, nil
}
