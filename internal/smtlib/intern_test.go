package smtlib

import "testing"

// TestPack checks the one-load packing of short names against the byte loop,
// with and without bytes after the name in its array.
func TestPack(t *testing.T) {
	src := []byte("abcdefghijklmnop")
	for i := 0; i <= 8; i++ {
		for n := 0; n <= 7 && i+n <= len(src); n++ {
			b := src[i : i+n]
			want := uint64(n) << 56
			for k, c := range b {
				want |= uint64(c) << (8 * k)
			}
			if got := pack(b); got != want {
				t.Fatalf("%q: %x %x", b, got, want)
			}
			c := append([]byte(nil), b...)
			if got := pack(c[:n:n]); got != want {
				t.Fatalf("copy %q", b)
			}
		}
	}
}
