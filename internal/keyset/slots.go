package keyset

import "sync/atomic"

// mappedSlots is the size in bytes from which a table's slots are memory
// of their own (makeSlots, Linux), not Go's heap.
const mappedSlots = 1 << 20

// heapSlots returns n free slots from Go's heap, written once at once:
// fresh memory first read (a probe) maps the system's zero page, and the
// first write then copies it, a page fault and a flush of every
// processor's mapping each (3-7 % of an import's CPU here).
func heapSlots(n int) []slot {
	s := make([]slot, n)
	clear(s)
	return s
}

// slotMem holds the mapping of a table's slots, if they are mapped, to
// give it back when the table is no longer used (a cleanup, which runs on
// a goroutine of the runtime's: freed says it has).
type slotMem struct {
	b     []byte
	freed atomic.Bool
}

// free gives the mapping back.
func (m *slotMem) free() {
	if m.b != nil {
		unmap(m.b)
		m.b = nil
	}
	m.freed.Store(true)
}
