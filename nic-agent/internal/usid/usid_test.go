package usid

import (
	"errors"
	"slices"
	"testing"

	"weft.io/nic-agent/internal/vectors"
)

const block = "fcbb:bb00::/32"

func TestEncode(t *testing.T) {
	tests := []struct {
		name  string
		block string
		usids []int
		want  []string
		err   error
	}{
		{"one carrier, zeros compressed", block, []int{1, 0x12, 2, 0xe000}, []string{"fcbb:bb00:1:12:2:e000::"}, nil},
		{"single uSID", block, []int{0x100}, []string{"fcbb:bb00:100::"}, nil},
		{"six uSIDs fill the carrier, no ::", block, []int{1, 2, 3, 4, 5, 6}, []string{"fcbb:bb00:1:2:3:4:5:6"}, nil},
		{"seven need a second carrier", block, []int{1, 2, 3, 4, 5, 6, 7}, []string{"fcbb:bb00:1:2:3:4:5:6", "fcbb:bb00:7::"}, nil},
		{"twelve make two full carriers", block, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
			[]string{"fcbb:bb00:1:2:3:4:5:6", "fcbb:bb00:7:8:9:a:b:c"}, nil},
		{"max value, lowercase hex", block, []int{0xFFFF, 0xABCD}, []string{"fcbb:bb00:ffff:abcd::"}, nil},
		{"zero block compresses at the front", "::/32", []int{1, 2}, []string{"0:0:1:2::"}, nil},
		{"block with zero high group", "0:bb00::/32", []int{5}, []string{"0:bb00:5::"}, nil},
		{"empty", block, nil, nil, ErrEmpty},
		{"zero uSID", block, []int{1, 0, 2}, nil, ErrUSIDZero},
		{"too large", block, []int{0x10000}, nil, ErrUSIDOutOfRange},
		{"negative", block, []int{-1}, nil, ErrUSIDOutOfRange},
		{"block /48", "fcbb:bb00:1::/48", []int{1}, nil, ErrBlockNot32},
		{"block /24", "fcbb:bb00::/24", []int{1}, nil, ErrBlockNot32},
		{"block with host bits", "fcbb:bb00:1::/32", []int{1}, nil, ErrBlockNot32},
		{"block IPv4", "10.0.0.0/32", []int{1}, nil, ErrBlockNot32},
		{"block garbage", "fcbb::bb00::/32", []int{1}, nil, ErrBlockNot32},
		{"block with spaces", " fcbb:bb00::/32", []int{1}, nil, ErrBlockNot32},
		{"block length with leading zero", "fcbb:bb00::/032", []int{1}, nil, ErrBlockNot32},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Encode(tt.block, tt.usids)
			if !errors.Is(err, tt.err) {
				t.Fatalf("Encode(%q, %v) error = %v, want %v", tt.block, tt.usids, err, tt.err)
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("Encode(%q, %v) = %q, want %q", tt.block, tt.usids, got, tt.want)
			}
		})
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	for n := 1; n <= 19; n++ {
		usids := make([]int, n)
		for i := range usids {
			usids[i] = (i*7919)%0xFFFF + 1
		}
		carriers, err := Encode(block, usids)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if want := (n + 5) / 6; len(carriers) != want {
			t.Fatalf("n=%d: %d carriers, want %d", n, len(carriers), want)
		}
		back, err := Decode(block, carriers)
		if err != nil {
			t.Fatalf("n=%d: Decode(%q): %v", n, carriers, err)
		}
		if !slices.Equal(back, usids) {
			t.Fatalf("n=%d: round trip gave %v, want %v", n, back, usids)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	tests := []struct {
		name     string
		carriers []string
		err      error
	}{
		{"no carriers", nil, ErrEmpty},
		{"not an address", []string{"fcbb:bb00:zz::"}, ErrMalformedCarrier},
		{"IPv4", []string{"10.1.2.3"}, ErrMalformedCarrier},
		{"other block", []string{"fcbb:bb01:1::"}, ErrNotInBlock},
		{"only the block", []string{"fcbb:bb00::"}, ErrMalformedCarrier},
		{"uSID after a hole", []string{"fcbb:bb00:1:0:2::"}, ErrMalformedCarrier},
		{"short carrier before another", []string{"fcbb:bb00:1::", "fcbb:bb00:2::"}, ErrMalformedCarrier},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode(block, tt.carriers)
			if !errors.Is(err, tt.err) {
				t.Fatalf("Decode(%q) = %v, %v; want error %v", tt.carriers, got, err, tt.err)
			}
		})
	}
}

// codes maps the shared vectors' error codes to this package's sentinel errors.
var codes = map[string]error{
	"block-not-32":      ErrBlockNot32,
	"usid-zero":         ErrUSIDZero,
	"usid-out-of-range": ErrUSIDOutOfRange,
	"empty":             ErrEmpty,
}

func TestSharedVectors(t *testing.T) {
	cases, err := vectors.USIDCarriers()
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("usid-carriers.json has no cases")
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			got, err := Encode(c.Block, c.USIDs)
			if c.Error != "" {
				want, known := codes[c.Error]
				if !known {
					t.Fatalf("vector uses unknown error code %q", c.Error)
				}
				if !errors.Is(err, want) {
					t.Fatalf("Encode(%q, %v) = %q, %v; want error %s", c.Block, c.USIDs, got, err, c.Error)
				}
				return
			}
			if err != nil {
				t.Fatalf("Encode(%q, %v): %v", c.Block, c.USIDs, err)
			}
			if !slices.Equal(got, c.Carriers) {
				t.Fatalf("Encode(%q, %v) = %q, want %q", c.Block, c.USIDs, got, c.Carriers)
			}
			back, err := Decode(c.Block, got)
			if err != nil || !slices.Equal(back, c.USIDs) {
				t.Fatalf("Decode(%q) = %v, %v; want %v", got, back, err, c.USIDs)
			}
		})
	}
}
