package scramble

import "encoding/binary"

// Each command is written out as soon as it is parsed and its draws are
// made, into a byte store, and its tree is dropped: the arena only ever holds
// the command being read, which stays in the processor's caches.
//
// What cannot be known yet is the printed form of names: the permutation is
// drawn when the segment ends, and a name may be declared after its use. So
// a command is stored as a stream of tokens, each the uvarint of a code:
// tokOpen, tokClose, or 2 + 2*symbol + 1 if the symbol is a name (renamed
// when printed) or + 0 if not. The official layout puts a single space
// between two tokens except after '(' and before ')', so spaces need not be
// stored. The stream is smaller than the text it prints.
const (
	tokOpen  = 0
	tokClose = 1
)

// cmdRec is a stored command: its symbol (assert, declare-fun, ...) and
// bytes. An assert's bytes are those of its term, which the printer wraps.
type cmdRec struct {
	sym  uint32
	tag  uint32 // an assert's position among the asserts of the input
	slab uint32
	off  uint32
	n    uint32
}

// store keeps the bytes of the commands in slabs, so that it grows without
// copying.
type store struct {
	slabs [][]byte
}

const slabSize = 1 << 20

// space returns the free end of the last slab, where a command is written
// in place, making a new slab when less than min bytes are free.
func (s *store) space(min int) []byte {
	if len(s.slabs) == 0 || cap(s.slabs[len(s.slabs)-1])-len(s.slabs[len(s.slabs)-1]) < min {
		size := slabSize
		if len(s.slabs) < 4 {
			size = 4096 << (2 * len(s.slabs)) // small inputs take little memory
		}
		s.slabs = append(s.slabs, make([]byte, 0, size))
	}
	last := s.slabs[len(s.slabs)-1]
	return last[len(last):len(last):cap(last)]
}

// commit files b, which space returned and the command extended, and returns
// where it is. If b outgrew the space, its new array becomes a slab of its own.
func (s *store) commit(b []byte, room int) (slab, off uint32) {
	i := len(s.slabs) - 1
	if len(b) <= room {
		off = uint32(len(s.slabs[i]))
		s.slabs[i] = s.slabs[i][:len(s.slabs[i])+len(b)]
		return uint32(i), off
	}
	s.slabs = append(s.slabs, b)
	return uint32(i + 1), 0
}

func (s *store) get(c cmdRec) []byte { return s.slabs[c.slab][c.off : c.off+c.n] }

// serializer writes trees as token streams, keeping or stripping
// annotations.
type serializer struct {
	out   []byte
	stack []pframe
	keep  AnnotMode
	syms  *symtab
	a     *arena
}

type pframe struct {
	kids  []uint32
	i     int
	paren bool
}

// sym writes symbol s; name says whether it is subject to renaming.
func (z *serializer) sym(s uint32, name bool) {
	c := uint64(s)<<1 + 2
	if name {
		c++
	}
	z.out = appendCode(z.out, c)
}

// appendCode appends token code c.
func appendCode(b []byte, c uint64) []byte {
	if c < 0x80 {
		return append(b, byte(c))
	}
	if c < 0x4000 {
		return append(b, byte(c)|0x80, byte(c>>7))
	}
	return binary.AppendUvarint(b, c)
}

// keepAnnot says whether the annotation node r is written, or only its term.
func (z *serializer) keepAnnot(r uint32) bool {
	switch z.keep {
	case AnnotAll:
		return true
	case AnnotNone:
		return false
	}
	kids := z.a.children(r)
	return len(kids) == 2 && z.a.headSym(kids[1]) == symPattern
}

// ref writes the tree at r. Only nodes with a compound child after the one
// being written take a frame on the stack.
func (z *serializer) ref(r uint32) {
	if r&refLeaf != 0 {
		z.sym(r&symMask, r&refName != 0)
		return
	}
	if r&refBlob != 0 {
		z.out = append(z.out, z.a.blobBytes(r)...)
		return
	}
	a := z.a
	base := len(z.stack)
	var kids []uint32
	var i int
	var sep, paren bool
outer:
	for {
		// open node r
		h := a.node(r).head
		s := h & symMask
		if s == symBang && !z.keepAnnot(r) {
			r = a.children(r)[0]
			switch {
			case r&refLeaf != 0:
				z.sym(r&symMask, r&refName != 0)
			case r&refBlob != 0:
				z.out = append(z.out, a.blobBytes(r)...)
			default:
				continue
			}
			kids, paren = nil, false
		} else {
			paren = h&refParen != 0
			if paren {
				z.out = append(z.out, tokOpen)
			}
			sep = s != symNone
			if sep {
				z.sym(s, h&refName != 0)
			}
			kids, i = a.children(r), 0
		}
		for {
			for i < len(kids) {
				c := kids[i]
				i++
				if c&refLeaf != 0 {
					z.sym(c&symMask, c&refName != 0)
					continue
				}
				if c&refBlob != 0 {
					z.out = append(z.out, a.blobBytes(c)...)
					continue
				}
				z.stack = append(z.stack, pframe{kids: kids, i: i, paren: paren})
				r = c
				continue outer
			}
			if paren {
				z.out = append(z.out, tokClose)
			}
			if len(z.stack) == base {
				return
			}
			f := &z.stack[len(z.stack)-1]
			kids, i, paren, sep = f.kids, f.i, f.paren, true
			z.stack = z.stack[:len(z.stack)-1]
		}
	}
}

// store writes out command r (with symbol sym), files it in the current
// segment, and empties the arena. Under -core, asserts named outside the core
// are dropped here (the official scrambler drops them before it shuffles).
func (p *parser) store(sym, r uint32) {
	var tag uint32
	if sym == symAssert {
		tag = uint32(p.nAsserts)
		p.nAsserts++
	}
	if p.opts.CountAsserts {
		p.a.reset()
		return
	}
	if sym == symAssert {
		if p.opts.Core != nil {
			if n := p.namedAnnot(r); n != "" && !p.opts.Core[n] {
				p.a.reset()
				return
			}
		}
		r = p.a.children(r)[0]
	}
	z := &p.ser
	z.out = p.data.space(256)
	room := cap(z.out)
	z.ref(r)
	slab, off := p.data.commit(z.out, room)
	p.cmds = append(p.cmds, cmdRec{sym: sym, tag: tag, slab: slab, off: off, n: uint32(len(z.out))})
	z.out = nil
	p.a.reset()
}

// forNames calls f with the symbol of every name in token stream b.
func forNames(b []byte, f func(s uint32)) {
	for i := 0; i < len(b); {
		v, k := binary.Uvarint(b[i:])
		i += k
		if v >= 2 && v&1 != 0 {
			f(uint32((v - 2) >> 1))
		}
	}
}
