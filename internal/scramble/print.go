package scramble

import (
	"encoding/binary"
	"io"
	"math/bits"
	"strconv"
)

// printer writes the stored commands, renaming names as it goes.
type printer struct {
	p      *parser
	w      io.Writer
	out    []byte
	err    error
	bound  uint32   // names with declaration ids below it are renamed
	decl   []uint32 // symbol -> declaration id of its name
	idText []string // declaration id -> printed name
	named  int      // the last smtcompN given to an assert
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

// segment prepares the printing of the commands of seg: names declared
// before its end are renamed.
func (pr *printer) segment(seg segment) {
	pr.bound = seg.bound
	if !pr.p.scramble {
		return
	}
	if pr.decl == nil {
		t := pr.p.syms
		pr.decl = make([]uint32, len(t.text))
		for s, n := range t.nameOf {
			pr.decl[s] = t.nameID[n]
		}
		pr.idText = make([]string, 1, len(pr.p.perm))
	}
	for id := uint32(len(pr.idText)); id < seg.bound; id++ {
		pr.idText = append(pr.idText, "x"+strconv.FormatUint(uint64(pr.p.perm[id]), 10))
	}
}

// bytes writes stored bytes, resolving the marks of names.
func (pr *printer) bytes(b []byte) {
	if !pr.p.scramble {
		pr.out = append(pr.out, b...)
		return
	}
	text := pr.p.syms.text
	for {
		i := markIndex(b)
		if i < 0 {
			pr.out = append(pr.out, b...)
			return
		}
		pr.out = append(pr.out, b[:i]...)
		v, n := binary.Uvarint(b[i+1:])
		b = b[i+1+n:]
		if v == 0 {
			pr.out = append(pr.out, nameMark)
			continue
		}
		s := uint32(v - 1)
		if id := pr.decl[s]; id != 0 && id < pr.bound {
			pr.out = append(pr.out, pr.idText[id]...)
		} else {
			pr.out = append(pr.out, text[s]...)
		}
	}
}

// command writes one command and its line break.
func (pr *printer) command(c cmdRec) {
	b := pr.p.data.get(c)
	switch c.sym {
	case symAssert:
		if pr.p.opts.Track == UnsatCore {
			pr.named++
			pr.str("(assert (! ")
			pr.bytes(b)
			pr.str(" :named smtcomp")
			pr.out = strconv.AppendInt(pr.out, int64(pr.named), 10)
			pr.str("))\n")
			return
		}
		pr.str("(assert ")
		pr.bytes(b)
		pr.str(")\n")
		return
	case symCheckSat:
		pr.str("(check-sat)")
		switch pr.p.opts.Track {
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
	pr.bytes(b)
	pr.str("\n")
}

// markIndex returns the index of the first nameMark in b, or -1. It looks
// at eight bytes at a time: the runs between names are short, and a
// byte-by-byte loop mispredicts its exit.
func markIndex(b []byte) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := ^binary.LittleEndian.Uint64(b[i:])
		if m := (x - ones) & ^x & highs; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(b); i++ {
		if b[i] == nameMark {
			return i
		}
	}
	return -1
}
