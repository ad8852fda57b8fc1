//go:build !linux

package keyset

// makeSlots returns n free slots, from Go's heap (the mapping of
// slots_linux.go needs MAP_POPULATE).
func makeSlots(n int) (slots []slot, mapped []byte) { return heapSlots(n), nil }

func unmap([]byte) {}
