package scramble

import (
	"encoding/binary"
	"io"
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
	sink   byte     // keeps the reads of touch
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

// bytes writes a stored command, looking up its names.
func (pr *printer) bytes(b []byte) {
	if !pr.p.scramble {
		pr.out = append(pr.out, b...)
		return
	}
	text := pr.p.syms.text
	for {
		n := int(b[0])
		pr.out = append(pr.out, b[1:1+n]...)
		b = b[1+n:]
		if len(b) == 0 {
			return
		}
		v := uint64(b[0])
		if v < 0x80 {
			b = b[1:]
		} else {
			var k int
			v, k = binary.Uvarint(b)
			b = b[k:]
		}
		if v == 0 {
			continue
		}
		s := uint32(v - 1)
		if id := pr.decl[s]; id != 0 && id < pr.bound {
			pr.out = append(pr.out, pr.idText[id]...)
		} else {
			pr.out = append(pr.out, text[s]...)
		}
		if len(pr.out) >= flushAt {
			pr.flush()
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

// prefetch is how many commands ahead the printer touches the stored bytes:
// after shuffling, consecutive commands lie far apart in memory, and reading
// ahead lets the processor fetch them while it copies the current one.
const prefetch = 4

// touch reads the cache lines of a stored command.
func (pr *printer) touch(c cmdRec) {
	b := pr.p.data.get(c)
	var x byte
	for i := 0; i < len(b) && i < 256; i += 64 {
		x += b[i]
	}
	pr.sink += x
}
