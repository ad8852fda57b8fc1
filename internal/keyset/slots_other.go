//go:build !unix

package keyset

// makeSlots returns n free slots, from Go's heap.
func makeSlots(n int) (slots []slot, mapped []byte) {
	s := make([]slot, n)
	clear(s) // written once at once (see slots_unix.go)
	return s, nil
}

func unmap([]byte) {}
