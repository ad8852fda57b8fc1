package scramble

import "encoding/binary"

// Each command is written out as soon as it is parsed and its draws are
// made, into a byte store, and its tree is dropped: the arena only ever holds
// the command being read, which stays in the processor's caches, and the
// stored form is about as large as the output.
//
// What cannot be known yet is the printed form of names: the permutation is
// drawn when the segment ends, and a name may be declared after its use. So
// when the seed is not 0 a command is stored as a sequence of items, each a
// run of literal bytes (a length byte, then up to 255 bytes) followed, unless
// it ends the command, by the uvarint of the symbol of a name plus one, or 0
// for no name. The printer copies runs and looks names up, never scanning
// the bytes. With seed 0 names are printed as written and a command is
// stored as plain bytes.

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

// serializer writes trees in the official layout: tokens separated by single
// spaces, annotations kept or stripped.
type serializer struct {
	out   []byte
	stack []pframe
	keep  AnnotMode
	runs  bool // names are stored as symbols in runs (the seed is not 0)
	run   int  // where the length byte of the current run is
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
	if name && z.runs {
		z.endRun()
		if s+1 < 0x80 {
			z.out = append(z.out, byte(s+1), 0)
		} else {
			z.out = binary.AppendUvarint(z.out, uint64(s)+1)
			z.out = append(z.out, 0)
		}
		z.run = len(z.out) - 1
		return
	}
	z.out = append(z.out, z.syms.text[s]...)
}

// b writes a literal byte.
func (z *serializer) b(c byte) { z.out = append(z.out, c) }

// endRun writes the length of the current run, splitting it first into runs
// of at most 255 bytes if it is longer.
func (z *serializer) endRun() {
	n := len(z.out) - z.run - 1
	if n <= 255 {
		z.out[z.run] = byte(n)
		return
	}
	z.split(n)
}

// split rewrites a run of n > 255 bytes as full runs without names and a
// last, shorter run.
func (z *serializer) split(n int) {
	lit := append([]byte(nil), z.out[z.run+1:]...)
	z.out = z.out[:z.run]
	for len(lit) > 255 {
		z.out = append(z.out, 255)
		z.out = append(z.out, lit[:255]...)
		z.out = append(z.out, 0)
		lit = lit[255:]
	}
	z.run = len(z.out)
	z.out = append(z.out, byte(len(lit)))
	z.out = append(z.out, lit...)
}

// begin starts a command; end finishes it.
func (z *serializer) begin() {
	z.out = z.out[:0]
	if z.runs {
		z.run = 0
		z.out = append(z.out, 0)
	}
}

func (z *serializer) end() {
	if z.runs {
		z.endRun()
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
				z.b('(')
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
					z.b(' ')
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
				z.b(')')
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
	z.begin()
	z.ref(r)
	z.end()
	slab, off := p.data.commit(z.out, room)
	p.cmds = append(p.cmds, cmdRec{sym: sym, tag: tag, slab: slab, off: off, n: uint32(len(z.out))})
	z.out = nil
	p.a.reset()
}
