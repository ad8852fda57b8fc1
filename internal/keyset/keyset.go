package keyset

import "hash/maphash"

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

// Table maps hashes to an int each (a line, a position).
type Table struct {
	keys []Hash
	vals []int // the value plus one; 0: the slot is free
	n    int
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
	old, oldVals := t.keys, t.vals
	t.keys, t.vals = make([]Hash, p), make([]int, p)
	for i, v := range oldVals {
		if v != 0 {
			t.put(old[i], v)
		}
	}
}

// put stores a hash known to be absent (v already plus one).
func (t *Table) put(k Hash, v int) {
	mask := uint64(len(t.keys) - 1)
	for i := k[0] & mask; ; i = (i + 1) & mask {
		if t.vals[i] == 0 {
			t.keys[i], t.vals[i] = k, v
			return
		}
	}
}

// Get returns the value of a hash, if it is there.
func (t *Table) Get(k Hash) (int, bool) {
	if t.keys == nil {
		return 0, false
	}
	mask := uint64(len(t.keys) - 1)
	for i := k[0] & mask; ; i = (i + 1) & mask {
		switch {
		case t.vals[i] == 0:
			return 0, false
		case t.keys[i] == k:
			return t.vals[i] - 1, true
		}
	}
}

// Add records a hash with a value unless it is there already; it returns
// the value it has (the first one given) and whether it was there.
func (t *Table) Add(k Hash, v int) (int, bool) {
	if t.keys == nil {
		t.resize(16)
	}
	mask := uint64(len(t.keys) - 1)
	for i := k[0] & mask; ; i = (i + 1) & mask {
		switch {
		case t.vals[i] == 0:
			t.keys[i], t.vals[i] = k, v+1
			t.n++
			if t.n*2 > len(t.keys) {
				t.resize(len(t.keys) * 2)
			}
			return v, false
		case t.keys[i] == k:
			return t.vals[i] - 1, true
		}
	}
}

// Len is how many hashes the table holds.
func (t *Table) Len() int { return t.n }
