package smtlib

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// estimateRef is estimate a byte at a time.
func estimateRef(src []byte) (parens, atoms int) {
	parens = bytes.Count(src, []byte{'('})
	prev := uint8(0)
	for _, c := range src {
		cur := atomChar[c]
		atoms += int(cur &^ prev)
		prev = cur
	}
	return
}

// TestEstimate checks that estimate, eight bytes at a time, counts as the
// byte loop does, on random texts of atoms, parentheses, literals and lines.
func TestEstimate(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		b := make([]byte, r.IntN(70))
		for i := range b {
			b[i] = "(a) 1#|:\"\n;x"[r.IntN(12)]
		}
		p1, a1 := estimate(b)
		p2, a2 := estimateRef(b)
		if p1 != p2 || a1 != a2 {
			t.Fatalf("%q: %d %d, want %d %d", b, p1, a1, p2, a2)
		}
	}
}
