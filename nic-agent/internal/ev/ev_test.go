package ev

import (
	"errors"
	"fmt"
	"testing"

	"weft.io/nic-agent/internal/vectors"
)

func TestEncode(t *testing.T) {
	tests := []struct {
		name       string
		hop1, hop2 Choice
		want       uint16
		err        error
	}{
		{"first RoCE byte that fits", Choice{4, 1}, FirstHopOnly, 0xC100, nil},
		{"index 0 of 4 is 0xC0", Choice{4, 0}, Choice{2, 1}, 0xC001, nil},
		{"table of one", Choice{1, 0}, Choice{1, 0}, 0xC000, nil},
		{"table of 64 wraps inside C0-FF", Choice{64, 0}, Choice{8, 7}, 0xC007, nil},
		{"table of 256, index in RoCE range", Choice{256, 0xC5}, Choice{256, 0xFF}, 0xC5FF, nil},
		{"table of 256, low index falls back below C0", Choice{256, 0x05}, Choice{256, 0}, 0x0500, nil},
		{"table of 200, index 10 via 0xD2", Choice{200, 10}, FirstHopOnly, 0xD200, nil},
		{"table of 200, index 100 below C0", Choice{200, 100}, FirstHopOnly, 0x6400, nil},
		{"EV1 0 and EV2 0 moves EV2 to n2", Choice{256, 0}, Choice{4, 0}, 0x0004, nil},
		{"EV1 0 with non-zero EV2 is kept", Choice{256, 0}, Choice{4, 3}, 0x0003, nil},
		{"port 0 is not encodable", Choice{256, 0}, Choice{256, 0}, 0, ErrNotEncodable},
		{"index equal to size", Choice{4, 4}, FirstHopOnly, 0, ErrIndexOutOfRange},
		{"negative index", Choice{4, -1}, FirstHopOnly, 0, ErrIndexOutOfRange},
		{"second index out of range", Choice{4, 0}, Choice{2, 2}, 0, ErrIndexOutOfRange},
		{"table of 0", Choice{0, 0}, FirstHopOnly, 0, ErrTableSize},
		{"table of 257", Choice{4, 0}, Choice{257, 0}, 0, ErrTableSize},
		{"table sizes are checked before indices", Choice{4, 4}, Choice{257, 0}, 0, ErrTableSize},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Encode(tt.hop1, tt.hop2)
			if !errors.Is(err, tt.err) {
				t.Fatalf("Encode(%v, %v) error = %v, want %v", tt.hop1, tt.hop2, err, tt.err)
			}
			if got != tt.want {
				t.Fatalf("Encode(%v, %v) = %#04x, want %#04x", tt.hop1, tt.hop2, got, tt.want)
			}
		})
	}
}

// TestEncodeIsDecodedBack checks every (n, i) pair: the EV selects the asked members, is never
// port 0, and EV1 sits in the RoCEv2 range 0xC0-0xFF whenever some byte there selects i1.
func TestEncodeIsDecodedBack(t *testing.T) {
	for n1 := 1; n1 <= MaxTableSize; n1++ {
		for i1 := 0; i1 < n1; i1++ {
			for _, hop2 := range []Choice{FirstHopOnly, {Size: 3, Index: 0}, {Size: n1, Index: n1 - 1}} {
				hop1 := Choice{Size: n1, Index: i1}
				ev, err := Encode(hop1, hop2)
				if err != nil {
					t.Fatalf("Encode(%v, %v): %v", hop1, hop2, err)
				}
				if ev == 0 {
					t.Fatalf("Encode(%v, %v) = 0", hop1, hop2)
				}
				d1, d2, err := Decode(ev, hop1.Size, hop2.Size)
				if err != nil || d1 != hop1 || d2 != hop2 {
					t.Fatalf("Decode(%#04x) = %v, %v, %v; want %v, %v", ev, d1, d2, err, hop1, hop2)
				}
				roceFits := false
				for b := 0xC0; b <= 0xFF; b++ {
					roceFits = roceFits || b%n1 == i1
				}
				if hi := ev >> 8; roceFits && hi < 0xC0 {
					t.Fatalf("Encode(%v, %v) = %#04x: EV1 outside 0xC0-0xFF though one fits", hop1, hop2, ev)
				}
			}
		}
	}
}

func TestDecodeRejectsTableSize(t *testing.T) {
	for _, n := range [][2]int{{0, 1}, {1, 0}, {257, 1}, {1, -3}} {
		if _, _, err := Decode(0xC000, n[0], n[1]); !errors.Is(err, ErrTableSize) {
			t.Errorf("Decode(n1=%d, n2=%d) error = %v, want %v", n[0], n[1], err, ErrTableSize)
		}
	}
}

var codes = map[string]error{
	"index-out-of-range": ErrIndexOutOfRange,
	"table-size":         ErrTableSize,
	"not-encodable":      ErrNotEncodable,
}

func TestSharedVectors(t *testing.T) {
	encode, decode, err := vectors.EV()
	if err != nil {
		t.Fatal(err)
	}
	if len(encode) == 0 || len(decode) == 0 {
		t.Fatalf("ev.json has %d encode and %d decode cases, want some of each", len(encode), len(decode))
	}
	for _, c := range encode {
		t.Run("encode/"+c.Name, func(t *testing.T) {
			got, err := Encode(Choice{c.N1, c.I1}, Choice{c.N2, c.I2})
			if c.Error != "" {
				want, known := codes[c.Error]
				if !known {
					t.Fatalf("vector uses unknown error code %q", c.Error)
				}
				if !errors.Is(err, want) {
					t.Fatalf("Encode = %#04x, %v; want error %s", got, err, c.Error)
				}
				return
			}
			if err != nil {
				t.Fatalf("Encode: %v", err)
			}
			if int(got) != c.EV || int(got>>8) != c.EV1 || int(got&0xFF) != c.EV2 {
				t.Fatalf("Encode = %#04x (%#02x, %#02x), want %#04x (%#02x, %#02x)",
					got, got>>8, got&0xFF, c.EV, c.EV1, c.EV2)
			}
		})
	}
	for i, c := range decode {
		name := c.Name
		if name == "" {
			name = fmt.Sprintf("%d/ev=%#04x", i, c.EV)
		}
		t.Run("decode/"+name, func(t *testing.T) {
			if c.EV < 0 || c.EV > 0xFFFF {
				t.Fatalf("vector ev %d is not 16 bits", c.EV)
			}
			h1, h2, err := Decode(uint16(c.EV), c.N1, c.N2)
			if err != nil {
				t.Fatalf("Decode(%#04x, %d, %d): %v", c.EV, c.N1, c.N2, err)
			}
			if h1.Index != c.I1 || h2.Index != c.I2 {
				t.Fatalf("Decode(%#04x, %d, %d) = %d, %d; want %d, %d", c.EV, c.N1, c.N2, h1.Index, h2.Index, c.I1, c.I2)
			}
		})
	}
}
