package keyset

// mappedSlots is the size in bytes from which a table's slots are memory
// of their own (makeSlots), not Go's heap.
const mappedSlots = 1 << 20

// slotMem holds the mapping of a table's slots, if they are mapped, to
// give it back when the table is no longer used.
type slotMem struct{ b []byte }

// free gives the mapping back.
func (m *slotMem) free() {
	if m.b != nil {
		unmap(m.b)
		m.b = nil
	}
}
