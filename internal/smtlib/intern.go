package smtlib

import (
	"encoding/binary"
	"hash/maphash"
	"strings"
)

// interner maps byte strings to dense indices. It is an open-addressing
// table that stores each entry's hash next to its index, so a lookup costs
// one hash of the bytes and usually one comparison; with Go maps interning
// was a third of the parse time.
type interner struct {
	seed  maphash.Seed
	table []uint64 // hash<<32 | index+1; 0 is empty
	names []string
	// packed holds, for each name of at most 7 bytes, its bytes and its
	// length in the top byte (see pack), so that a short name, most of a
	// script, is compared as one integer; longLen for longer names.
	packed []uint64
	// text holds the bytes of the names, many to a block, so that a new
	// name costs no allocation of its own (a model of a thousand
	// constants has a thousand names). A block is only appended to:
	// the strings taken from it never change.
	text strings.Builder
}

// maxBlock is the size of text's blocks once grown; longer names get
// strings of their own.
const maxBlock = 8 << 10

// longLen is packed's entry for a name longer than 7 bytes: no short
// name packs to it (their top byte is at most 7).
const longLen = ^uint64(0)

// pack returns the bytes of b (at most 7) and its length in one word.
func pack(b []byte) uint64 {
	x := uint64(len(b)) << 56
	if cap(b) >= 8 {
		// One load when the array goes on (b is a token in its source):
		// the bytes past b are masked off.
		return x | binary.LittleEndian.Uint64(b[:8])&(1<<(8*uint(len(b)))-1)
	}
	for i, c := range b {
		x |= uint64(c) << (8 * i)
	}
	return x
}

// mixShort hashes a packed short name.
func mixShort(x uint64) uint32 {
	x *= 0x9E3779B97F4A7C15
	return uint32(x>>32) ^ uint32(x)
}

func newInterner() *interner {
	return &interner{seed: maphash.MakeSeed(), table: make([]uint64, 64)}
}

// newInternerFor returns an interner with room for about n names (and a
// few more), so that it need not grow on the way.
func newInternerFor(n int) *interner {
	n += 32
	size := 64
	for size < 2*n {
		size *= 2
	}
	return &interner{seed: maphash.MakeSeed(), table: make([]uint64, size),
		names: make([]string, 0, n), packed: make([]uint64, 0, n)}
}

// intern returns the index of b, adding it if it is new.
func (in *interner) intern(b []byte) uint32 {
	if len(b) <= 7 {
		return in.internShort(b)
	}
	h := in.hash(b)
	mask := uint32(len(in.table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := in.table[i]
		if e == 0 {
			return in.add(b, longLen, h, i)
		}
		if uint32(e>>32) == h {
			idx := uint32(e) - 1
			if in.names[idx] == string(b) {
				return idx
			}
		}
	}
}

// internShort is intern for a name of at most 7 bytes.
func (in *interner) internShort(b []byte) uint32 {
	x := pack(b)
	h := mixShort(x)
	mask := uint32(len(in.table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := in.table[i]
		if e == 0 {
			return in.add(b, x, h, i)
		}
		if uint32(e>>32) == h && in.packed[uint32(e)-1] == x {
			return uint32(e) - 1
		}
	}
}

// add enters b (packed as x, hash h) at the empty table slot i.
func (in *interner) add(b []byte, x uint64, h, i uint32) uint32 {
	idx := uint32(len(in.names))
	push(&in.names, in.str(b))
	push(&in.packed, x)
	in.table[i] = uint64(h)<<32 | uint64(idx+1)
	if len(in.names)*2 > len(in.table) {
		in.grow()
	}
	return idx
}

// str returns b as a string stored in the current text block.
func (in *interner) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if in.text.Cap()-in.text.Len() < len(b) {
		if len(b) > maxBlock/8 {
			return string(b)
		}
		// A new block: the old one stays, held by its names.
		n := min(max(2*in.text.Cap(), 256), maxBlock)
		in.text.Reset()
		in.text.Grow(n)
	}
	start := in.text.Len()
	in.text.Write(b)
	return in.text.String()[start:]
}

// has reports whether s has been interned, without adding it.
func (in *interner) has(s string) bool {
	h := in.hash([]byte(s))
	mask := uint32(len(in.table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := in.table[i]
		if e == 0 {
			return false
		}
		if uint32(e>>32) == h && in.names[uint32(e)-1] == s {
			return true
		}
	}
}

func (in *interner) grow() {
	old := in.table
	in.table = make([]uint64, 2*len(old))
	mask := uint32(len(in.table) - 1)
	for _, e := range old {
		if e == 0 {
			continue
		}
		i := uint32(e>>32) & mask
		for in.table[i] != 0 {
			i = (i + 1) & mask
		}
		in.table[i] = e
	}
}

// hash is inlined for the short names that make up most of a script (a
// multiply of the packed bytes) and uses maphash for longer ones.
func (in *interner) hash(b []byte) uint32 {
	if len(b) <= 7 {
		return mixShort(pack(b))
	}
	return uint32(maphash.Bytes(in.seed, b))
}
