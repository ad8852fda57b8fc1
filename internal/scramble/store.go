package scramble

import "encoding/binary"

// Each command is written out as soon as it is parsed and its draws are
// made, into a byte store, and its tree is dropped: the arena only ever holds
// the command being read, which stays in the processor's caches, and the
// stored form is about as large as the output. What cannot be known yet is
// the printed form of names (the permutation is drawn when the segment
// ends, and a name may be declared after its use), so a name is stored as
// nameMark followed by the uvarint of its symbol plus one; a literal
// nameMark byte is stored as nameMark 0.
const nameMark = 0xff

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

// put copies b into the store and returns where it is.
func (s *store) put(b []byte) (slab, off uint32) {
	if len(s.slabs) == 0 || cap(s.slabs[len(s.slabs)-1])-len(s.slabs[len(s.slabs)-1]) < len(b) {
		size := slabSize
		if len(s.slabs) < 6 {
			size = 16 << (2 * len(s.slabs)) << 4 // small inputs take little memory
		}
		s.slabs = append(s.slabs, make([]byte, 0, max(size, len(b))))
	}
	i := len(s.slabs) - 1
	off = uint32(len(s.slabs[i]))
	s.slabs[i] = append(s.slabs[i], b...)
	return uint32(i), off
}

func (s *store) get(c cmdRec) []byte { return s.slabs[c.slab][c.off : c.off+c.n] }

// serializer writes trees in the official layout: tokens separated by single
// spaces, annotations kept or stripped.
type serializer struct {
	out    []byte
	stack  []pframe
	keep   AnnotMode
	marks  bool // names are written as marks (the seed is not 0)
	syms   *symtab
	a      *arena
	numBuf [binary.MaxVarintLen32]byte
}

type pframe struct {
	kids  []uint32
	i     int
	paren bool
}

// sym writes symbol s; name says whether it is subject to renaming.
func (z *serializer) sym(s uint32, name bool) {
	if name && z.marks {
		z.out = append(z.out, nameMark)
		n := binary.PutUvarint(z.numBuf[:], uint64(s)+1)
		z.out = append(z.out, z.numBuf[:n]...)
		return
	}
	t := z.syms.text[s]
	if z.marks {
		for i := 0; i < len(t); i++ {
			if t[i] == nameMark {
				z.literal(t)
				return
			}
		}
	}
	z.out = append(z.out, t...)
}

// literal writes t, escaping the mark byte.
func (z *serializer) literal(t string) {
	for i := 0; i < len(t); i++ {
		z.out = append(z.out, t[i])
		if t[i] == nameMark {
			z.out = append(z.out, 0)
		}
	}
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
			if r&refLeaf == 0 {
				continue
			}
			z.sym(r&symMask, r&refName != 0)
			kids, paren = nil, false
		} else {
			paren = h&refParen != 0
			if paren {
				z.out = append(z.out, '(')
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
				if i > 0 || sep {
					z.out = append(z.out, ' ')
				}
				i++
				if c&refLeaf == 0 {
					z.stack = append(z.stack, pframe{kids: kids, i: i, paren: paren})
					r = c
					continue outer
				}
				z.sym(c&symMask, c&refName != 0)
			}
			if paren {
				z.out = append(z.out, ')')
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
	z.out = z.out[:0]
	z.ref(r)
	slab, off := p.data.put(z.out)
	p.cmds = append(p.cmds, cmdRec{sym: sym, tag: tag, slab: slab, off: off, n: uint32(len(z.out))})
	p.a.reset()
}
