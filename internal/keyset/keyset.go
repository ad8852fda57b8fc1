package keyset

import (
	"hash/maphash"
	"runtime"
)

// Hash stands for a key: two independently seeded 64-bit hashes. Two
// different keys among a million are taken for one with a probability
// under 10^-26.
type Hash [2]uint64

// Hasher hashes keys with seeds of its own (made per process: hashes are
// never stored).
type Hasher struct{ a, b maphash.Seed }

// NewHasher returns a hasher with fresh seeds.
func NewHasher() Hasher { return Hasher{maphash.MakeSeed(), maphash.MakeSeed()} }

// Of hashes a key.
func (h Hasher) Of(s string) Hash { return Hash{maphash.String(h.a, s), maphash.String(h.b, s)} }

// Table maps hashes to an int each (a line, a position). A hash and its
// value share a slot, so that a probe touches one cache line: the tables
// of an import are megabytes, and their probes miss the cache. A Table is
// used through a pointer and never copied: a large one's slots are memory
// of its own (makeSlots), given back when that Table is no longer used.
type Table struct {
	slots []slot
	mem   *slotMem // the memory of slots if mapped (makeSlots)
	n     int
}

type slot struct {
	k Hash
	v int // the value plus one; 0: the slot is free
}

// New returns a table sized for about n hashes.
func New(n int) *Table {
	t := &Table{}
	t.resize(max(16, n*2))
	return t
}

func (t *Table) resize(size int) {
	p := 16
	for p < size {
		p *= 2
	}
	old := t.slots
	var oldMapped []byte
	if t.mem != nil {
		oldMapped = t.mem.b
	}
	slots, mapped := makeSlots(p)
	t.slots = slots
	for _, s := range old {
		if s.v != 0 {
			t.put(s)
		}
	}
	if oldMapped != nil {
		unmap(oldMapped)
	}
	if t.mem == nil && mapped != nil {
		// The first slots of memory of their own: given back when the
		// table is no longer used.
		t.mem = &slotMem{}
		runtime.AddCleanup(t, (*slotMem).free, t.mem)
	}
	if t.mem != nil {
		t.mem.b = mapped
	}
}

// put stores a slot whose hash is known to be absent.
func (t *Table) put(s slot) {
	mask := uint64(len(t.slots) - 1)
	for i := s.k[0] & mask; ; i = (i + 1) & mask {
		if t.slots[i].v == 0 {
			t.slots[i] = s
			return
		}
	}
}

// slotOf returns the slot that holds a hash, or the free one where it
// goes.
func (t *Table) slotOf(k Hash) *slot {
	if t.slots == nil {
		t.resize(16)
	}
	mask := uint64(len(t.slots) - 1)
	for i := k[0] & mask; ; i = (i + 1) & mask {
		if s := &t.slots[i]; s.v == 0 || s.k == k {
			return s
		}
	}
}

// Get returns the value of a hash, if it is there.
func (t *Table) Get(k Hash) (int, bool) {
	if t.slots == nil {
		return 0, false
	}
	s := t.slotOf(k)
	return s.v - 1, s.v != 0
}

// Add records a hash with a value unless it is there already; it returns
// the value it has (the first one given) and whether it was there.
func (t *Table) Add(k Hash, v int) (int, bool) {
	s := t.slotOf(k)
	if s.v != 0 {
		return s.v - 1, true
	}
	s.k, s.v = k, v+1
	t.n++
	if t.n*2 > len(t.slots) {
		t.resize(len(t.slots) * 2)
	}
	return v, false
}

// Reserve makes room for n hashes in all, so that adding them does not
// grow the table step by step (each step a table twice the last, written
// afresh).
func (t *Table) Reserve(n int) {
	if len(t.slots) < n*2 {
		t.resize(n * 2)
	}
}

// Set gives a hash a value, adding it if it is not there.
func (t *Table) Set(k Hash, v int) {
	if s := t.slotOf(k); s.v != 0 {
		s.v = v + 1
		return
	}
	t.Add(k, v)
}

// Len is how many hashes the table holds.
func (t *Table) Len() int { return t.n }
