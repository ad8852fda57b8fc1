package model

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestParseBits compares the reading of #x and #b digits with strconv on
// random digit strings, bad digits included.
func TestParseBits(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		bits := uint(1 + 3*r.IntN(2))
		n := r.IntN(int(64/bits) + 1)
		b := make([]byte, n)
		for i := range b {
			b[i] = "0123456789abcdefABCDEFxg_:@`G{\xc1/ "[r.IntN(33)]
			if r.IntN(10) != 0 {
				if bits == 1 {
					b[i] = "01"[r.IntN(2)]
				} else {
					b[i] = "0123456789abcdefABCDEF"[r.IntN(22)]
				}
			}
		}
		got, ok := parseBits(string(b), bits)
		base := 16
		if bits == 1 {
			base = 2
		}
		want, err := strconv.ParseUint(string(b), base, 64)
		if ok != (err == nil) || got != want {
			t.Fatalf("%q %d: %x %v, want %x %v", b, bits, got, ok, want, err)
		}
	}
}
