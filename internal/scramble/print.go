package scramble

import (
	"io"
	"strconv"
)

// printer writes the parsed script in the official scrambler's layout: one
// command per line, tokens separated by single spaces, nothing else.
type printer struct {
	p     *parser
	w     io.Writer
	out   []byte
	err   error
	bound uint32 // names with declaration ids below it are renamed
	keep  AnnotMode
	named int // the last smtcompN given to an assert
	stack []pframe
}

type pframe struct {
	kids  []uint32
	i     int
	sep   bool // a space goes before the first child too
	paren bool
}

const flushAt = 64 << 10

func (pr *printer) flush() {
	if pr.err == nil && len(pr.out) > 0 {
		_, pr.err = pr.w.Write(pr.out)
	}
	pr.out = pr.out[:0]
}

func (pr *printer) str(s string) {
	pr.out = append(pr.out, s...)
	if len(pr.out) >= flushAt {
		pr.flush()
	}
}

// sym writes symbol s; name says whether it is subject to renaming.
func (pr *printer) sym(s uint32, name bool) {
	if name && pr.p.scramble {
		t := pr.p.syms
		if id := t.nameID[t.nameOf[s]]; id != 0 && id < pr.bound {
			pr.out = append(pr.out, 'x')
			pr.out = strconv.AppendUint(pr.out, uint64(pr.p.perm[id]), 10)
			return
		}
	}
	pr.out = append(pr.out, pr.p.syms.text[s]...)
}

// keepAnnot says whether the annotation node r is printed, or only its term.
func (pr *printer) keepAnnot(r uint32) bool {
	switch pr.keep {
	case AnnotAll:
		return true
	case AnnotNone:
		return false
	}
	kids := pr.p.a.children(r)
	return len(kids) == 2 && pr.p.a.headSym(kids[1]) == symPattern
}

// term writes the tree at r.
func (pr *printer) term(r uint32) {
	a := &pr.p.a
	base := len(pr.stack)
	for {
		// write the beginning of r
		if r&refLeaf != 0 {
			pr.sym(r&symMask, r&refName != 0)
		} else {
			h := a.nodes[r].head
			s := h & symMask
			if s == symBang && !pr.keepAnnot(r) {
				r = a.children(r)[0]
				continue
			}
			if h&refParen != 0 {
				pr.out = append(pr.out, '(')
			}
			if s != symNone {
				pr.sym(s, h&refName != 0)
			}
			pr.stack = append(pr.stack, pframe{kids: a.children(r), sep: s != symNone, paren: h&refParen != 0})
		}
		if len(pr.out) >= flushAt {
			pr.flush()
		}
		// find the next child to write, closing finished nodes
		for {
			if len(pr.stack) == base {
				return
			}
			f := &pr.stack[len(pr.stack)-1]
			if f.i < len(f.kids) {
				if f.i > 0 || f.sep {
					pr.out = append(pr.out, ' ')
				}
				r = f.kids[f.i]
				f.i++
				break
			}
			if f.paren {
				pr.out = append(pr.out, ')')
			}
			pr.stack = pr.stack[:len(pr.stack)-1]
		}
	}
}

// command writes one command and its line break.
func (pr *printer) command(c uint32) {
	o := pr.p.opts
	switch pr.p.a.headSym(c) {
	case symAssert:
		if o.Track == UnsatCore {
			pr.named++
			pr.str("(assert (! ")
			pr.term(pr.p.a.children(c)[0])
			pr.str(" :named smtcomp")
			pr.out = strconv.AppendInt(pr.out, int64(pr.named), 10)
			pr.str("))\n")
			return
		}
	case symCheckSat:
		pr.str("(check-sat)")
		switch o.Track {
		case UnsatCore:
			pr.str("\n(get-unsat-core)")
		case ModelValidation:
			pr.str("\n(get-model)")
		case Proof:
			pr.str("\n(get-proof)")
		}
		pr.str("\n")
		return
	}
	pr.term(c)
	pr.str("\n")
}
