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
	symOut []string // symbol -> how it prints as a name
	spOut  []string // the same after a space
	tabs   [4][]string
	slots  [4][]outSlot
	byID   []uint32 // declaration id -> where its symbols start in idSyms
	idSyms []uint32
	named  int  // the last smtcompN given to an assert
	sink   byte // keeps the reads of touch
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
// before its end are renamed. symOut holds the printed form of every symbol
// as a name; it changes for the names declared since the previous segment.
func (pr *printer) segment(seg segment) {
	t := pr.p.syms
	if pr.tabs[0] == nil {
		pr.tabs[0] = t.text
		pr.tabs[2] = make([]string, len(t.text))
		for s, x := range t.text {
			pr.tabs[2][s] = " " + x
		}
		pr.tabs[1], pr.tabs[3] = pr.tabs[0], pr.tabs[2]
		for k := range pr.tabs {
			pr.setSlots(k)
		}
	}
	if !pr.p.scramble {
		return
	}
	if pr.symOut == nil {
		pr.symOut = append([]string(nil), t.text...)
		pr.spOut = append([]string(nil), pr.tabs[2]...)
		pr.tabs[1], pr.tabs[3] = pr.symOut, pr.spOut
		pr.setSlots(1)
		pr.setSlots(3)
		// the symbols of each declaration id, in a counting sort
		pr.byID = make([]uint32, t.nextID+1)
		for _, n := range t.nameOf {
			if id := t.nameID[n]; id != 0 && id < t.nextID {
				pr.byID[id+1]++
			}
		}
		for id := 1; id < len(pr.byID); id++ {
			pr.byID[id] += pr.byID[id-1]
		}
		pr.idSyms = make([]uint32, pr.byID[len(pr.byID)-1])
		fill := append([]uint32(nil), pr.byID...)
		for s, n := range t.nameOf {
			if id := t.nameID[n]; id != 0 && id < t.nextID {
				pr.idSyms[fill[id]] = uint32(s)
				fill[id]++
			}
		}
	}
	for id := pr.bound; id < seg.bound; id++ {
		if id == 0 {
			continue
		}
		name := "x" + strconv.FormatUint(uint64(pr.p.perm[id]), 10)
		for _, s := range pr.idSyms[pr.byID[id]:pr.byID[id+1]] {
			pr.symOut[s] = name
			pr.spOut[s] = " " + name
			pr.slots[1][s] = makeOutSlot(name)
			pr.slots[3][s] = makeOutSlot(" " + name)
		}
	}
	pr.bound = seg.bound
}

// bytes writes a stored command, putting in the spaces and looking up the
// printed form of names.
func (pr *printer) bytes(b []byte) {
	// slots[k] gives the printed form of symbols: k&1 for a name (renamed),
	// k&2 with the space that goes before it
	slots := &pr.slots
	buf := pr.out[:cap(pr.out)] // flushAt plus room for one token
	o := len(pr.out)
	sp := 0 // 2 when a space goes before the next token
	for i := 0; i < len(b); {
		if o >= flushAt {
			pr.out = buf[:o]
			pr.flush()
			o = 0
		}
		c := uint32(b[i])
		i++
		if c >= 0x80 {
			if i < len(b) && b[i] < 0x80 {
				c = c&0x7f | uint32(b[i])<<7
				i++
			} else {
				v, k := binary.Uvarint(b[i-1:])
				c = uint32(v)
				i += k - 1
			}
		}
		switch c {
		case tokClose:
			buf[o] = ')'
			o++
			sp = 2
		case tokOpen:
			if sp != 0 {
				buf[o] = ' '
				o++
			}
			buf[o] = '('
			o++
			sp = 0
		default:
			k := sp | int(c&1)
			e := &slots[k][(c-2)>>1]
			if e.n != slotLong {
				*(*[slotSize]byte)(buf[o:]) = e.b
				o += int(e.n)
			} else {
				pr.out = append(buf[:o], pr.tabs[k][(c-2)>>1]...)
				buf, o = pr.out[:cap(pr.out)], len(pr.out)
			}
			sp = 2
		}
	}
	pr.out = buf[:o]
}

// outSlot is the printed form of a symbol, when it is short enough, held in
// place so that the printer copies a fixed number of bytes.
type outSlot struct {
	b [slotSize]byte
	n uint8 // the length, or slotLong: look in tabs
}

const (
	slotSize = 23
	slotLong = 0xff
)

func makeOutSlot(s string) outSlot {
	if len(s) > slotSize {
		return outSlot{n: slotLong}
	}
	var e outSlot
	copy(e.b[:], s)
	e.n = uint8(len(s))
	return e
}

// setSlots fills slots[k] from tabs[k].
func (pr *printer) setSlots(k int) {
	if len(pr.slots[k]) != len(pr.tabs[k]) {
		pr.slots[k] = make([]outSlot, len(pr.tabs[k]))
	}
	for s, x := range pr.tabs[k] {
		pr.slots[k][s] = makeOutSlot(x)
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
