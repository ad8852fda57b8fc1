package zstd

import "encoding/binary"

// seqEntry is one state of a sequence decoding table: the value it
// decodes (base plus extra bits) and how the next state is read (next
// plus nb bits).
type seqEntry struct {
	base  uint32
	next  uint16
	nb    uint8
	extra uint8
	// 63-nb and 63-extra: how far the bits, moved to the top, are
	// shifted down after a shift by 1.
	nbShift, extraShift uint8
	_                   [4]byte // 16 bytes: an entry's fields are then one address away
}

// seqTable is the decoding table of literal lengths, match lengths or
// offsets.
type seqTable struct {
	e   [1 << 9]seqEntry
	log uint8
}

// The kinds of sequence symbols, in the order of their tables.
const (
	kindLL = iota
	kindOF
	kindML
)

// The limits of each kind: largest symbol and accuracy log
// (RFC 8878 §3.1.1.3.2.1).
var (
	seqMaxSym = [3]int{35, 31, 52}
	seqMaxLog = [3]uint{9, 8, 9}
	seqName   = [3]string{"literal lengths", "offsets", "match lengths"}
)

// Literal length and match length codes: the value's base and extra bits
// (RFC 8878 §3.1.1.3.2.1.1).
var (
	llBase = [36]uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
		16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096,
		8192, 16384, 32768, 65536}
	llBits = [36]uint8{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12,
		13, 14, 15, 16}
	mlBase = [53]uint32{3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
		19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34,
		35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051,
		4099, 8195, 16387, 32771, 65539}
	mlBits = [53]uint8{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11,
		12, 13, 14, 15, 16}
)

// The predefined distributions (RFC 8878 §3.1.1.3.2.2) and their
// accuracy logs.
var (
	predefNorm = [3][]int16{
		{4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1},
		{1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1},
		{1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1},
	}
	predefLog = [3]uint{6, 5, 6}
)

// fill sets e's value from the symbol of kind k.
func (e *seqEntry) fill(k int, sym uint8) {
	switch k {
	case kindLL:
		e.base, e.extra = llBase[sym], llBits[sym]
	case kindML:
		e.base, e.extra = mlBase[sym], mlBits[sym]
	default:
		e.base, e.extra = 1<<sym, sym
	}
	e.extraShift = 63 - e.extra
}

// buildSeq builds the table of kind k from a distribution.
func (z *Reader) buildSeq(t *seqTable, k int, norm []int16, log uint) error {
	tmp := z.ftab[:1<<log]
	if err := buildFSE(tmp, norm, log); err != nil {
		return err
	}
	for i, f := range tmp {
		e := &t.e[i]
		e.fill(k, f.sym)
		e.nb, e.next = f.nb, f.base
		e.nbShift = 63 - f.nb
	}
	t.log = uint8(log)
	return nil
}

// readSeqTable reads the table of kind k in the given mode and returns the
// bytes it took.
func (z *Reader) readSeqTable(k int, mode byte, in []byte) (int, error) {
	switch mode {
	case 0: // predefined
		if z.predef[k] == nil {
			t := new(seqTable)
			if err := z.buildSeq(t, k, predefNorm[k], predefLog[k]); err != nil {
				return 0, err
			}
			z.predef[k] = t
		}
		z.own[k] = *z.predef[k]
		z.have[k] = true
		return 0, nil
	case 1: // RLE
		if len(in) < 1 {
			return 0, errorf("truncated RLE %s", seqName[k])
		}
		if int(in[0]) > seqMaxSym[k] {
			return 0, errorf("%s symbol %d above %d", seqName[k], in[0], seqMaxSym[k])
		}
		t := &z.own[k]
		t.e[0] = seqEntry{nbShift: 63}
		t.e[0].fill(k, in[0])
		t.log = 0
		z.have[k] = true
		return 1, nil
	case 2: // FSE-compressed
		var norm [53]int16
		nsym, log, n, err := readNCount(in, seqMaxSym[k], seqMaxLog[k], norm[:])
		if err != nil {
			return 0, err
		}
		t := &z.own[k]
		if err := z.buildSeq(t, k, norm[:nsym], log); err != nil {
			return 0, err
		}
		z.have[k] = true
		return n, nil
	default: // repeat
		if !z.have[k] {
			return 0, errorf("repeated %s table without a previous one", seqName[k])
		}
		return 0, nil
	}
}

// readSequences decodes the sequences section of a block (RFC 8878
// §3.1.1.3.2) and executes it: literals and matches appended to z.hist.
func (z *Reader) readSequences(in []byte) error {
	if len(in) < 1 {
		return errorf("truncated sequences section")
	}
	nseq := int(in[0])
	switch {
	case nseq == 0:
		if len(in) != 1 {
			return errorf("data after an empty sequences section")
		}
		return z.appendLiterals(0)
	case nseq < 128:
		in = in[1:]
	case nseq < 255:
		if len(in) < 2 {
			return errorf("truncated sequences section")
		}
		nseq = (nseq-128)<<8 | int(in[1])
		in = in[2:]
	default:
		if len(in) < 3 {
			return errorf("truncated sequences section")
		}
		nseq = int(in[1]) | int(in[2])<<8 + 0x7f00
		in = in[3:]
	}
	if len(in) < 1 {
		return errorf("truncated sequences section")
	}
	modes := in[0]
	if modes&3 != 0 {
		return errorf("reserved bits set in the sequences' compression modes")
	}
	in = in[1:]
	for k, shift := range [3]uint{6, 4, 2} {
		n, err := z.readSeqTable(k, modes>>shift&3, in)
		if err != nil {
			return err
		}
		in = in[n:]
	}
	return z.execSequences(nseq, in)
}

// appendLiterals appends the literals from lp on to the output.
func (z *Reader) appendLiterals(lp int) error {
	if len(z.hist)+z.nlits-lp > z.blockEnd {
		return errorf("block decompresses to more than %d bytes", maxBlockSize)
	}
	z.hist = append(z.hist, z.lits[lp:z.nlits]...)
	return nil
}

// execSequences decodes nseq sequences from the bit stream in and executes
// them. The bit reader lives in local variables (see revReader) so that
// they stay in registers; bits read past the start of the stream are
// garbage, caught by the final check.
func (z *Reader) execSequences(nseq int, in []byte) error {
	var br revReader
	if err := br.init(in); err != nil {
		return err
	}
	llT, ofT, mlT := &z.own[kindLL], &z.own[kindOF], &z.own[kindML]
	llS := br.get(llT.log)
	ofS := br.get(ofT.log)
	mlS := br.get(mlT.log)
	br.reload()
	value, consumed, ptr, src := br.value, br.consumed, br.ptr, br.in
	if cap(z.seqs) < nseq {
		z.seqs = make([]sequence, nseq)
	}
	seqs := z.seqs[:nseq]
	var last uint
	for i := range seqs {
		// Reload: 57 bits or more are readable, unless the start is near.
		if ptr >= 8 {
			ptr, consumed, value = advance(src, ptr, consumed)
		} else {
			ptr, consumed, value = refill(src, ptr, consumed, value)
		}
		ofe := &ofT.e[ofS&511]
		mle := &mlT.e[mlS&511]
		lle := &llT.e[llS&511]
		// Up to 31 bits of offset, then 16 and 16 of the lengths, then
		// 9+9+8 of the next states: 57 bits do unless the lengths take
		// more than 31 bits, which is rare.
		t := value << (consumed & 63)
		ofv := ofe.base + uint32(t>>1>>(ofe.extraShift&63))
		consumed += uint(ofe.extra)
		if ofe.extra+mle.extra+lle.extra > 31 {
			ptr, consumed, value = refill(src, ptr, consumed, value)
			t = value << (consumed & 63)
		} else {
			t <<= ofe.extra & 63
		}
		ml := int(mle.base + uint32(t>>1>>(mle.extraShift&63)))
		t <<= mle.extra & 63
		ll := int(lle.base + uint32(t>>1>>(lle.extraShift&63)))
		consumed += uint(mle.extra) + uint(lle.extra)
		if consumed > 64-26 {
			ptr, consumed, value = refill(src, ptr, consumed, value)
		}
		seqs[i] = sequence{uint32(ll), uint32(ml), ofv}
		// At most 9+9+8 bits of next states. After the last sequence
		// there are none: what this reads then is given back below.
		t = value << (consumed & 63)
		llS = uint32(lle.next) + uint32(t>>1>>(lle.nbShift&63))
		t <<= lle.nb & 63
		mlS = uint32(mle.next) + uint32(t>>1>>(mle.nbShift&63))
		t <<= mle.nb & 63
		ofS = uint32(ofe.next) + uint32(t>>1>>(ofe.nbShift&63))
		last = uint(lle.nb) + uint(mle.nb) + uint(ofe.nb)
		consumed += last
	}
	br.value, br.consumed, br.ptr = value, consumed-last, ptr
	if !br.finished() {
		return errorf("sequences bit stream does not end with the last sequence")
	}
	if err := z.offsets(seqs); err != nil {
		return err
	}
	return z.execute(seqs)
}

// advance moves a backward bit reader's window down by the whole bytes
// consumed, when at least 8 bytes are left below it: the common case of
// refill, small enough to be inlined.
func advance(src []byte, ptr int, consumed uint) (int, uint, uint64) {
	ptr -= int(consumed >> 3)
	return ptr, consumed & 7, binary.LittleEndian.Uint64(src[ptr : ptr+8])
}

// refill moves a backward bit reader's window down the stream as far as
// it can: see revReader.reload.
func refill(src []byte, ptr int, consumed uint, value uint64) (int, uint, uint64) {
	if consumed < 8 || ptr == 0 {
		return ptr, consumed, value
	}
	n := min(int(consumed>>3), ptr)
	ptr -= n
	return ptr, consumed - uint(n)*8, binary.LittleEndian.Uint64(src[ptr : ptr+8])
}

// offsets turns the offset values of seqs into offsets: values above 3
// are new offsets, the others pick one of the repeated offsets (RFC 8878
// §3.1.1.5), which each sequence updates. It also checks the sequences
// against the literals, the block size and the history, so that execute
// need not.
func (z *Reader) offsets(seqs []sequence) error {
	rep0, rep1, rep2 := z.rep[0], z.rep[1], z.rep[2]
	pos := uint64(len(z.hist)) // where the sequence's match starts
	nlits := uint64(0)
	window := z.window
	for i := range seqs {
		s := &seqs[i]
		nlits += uint64(s.ll)
		pos += uint64(s.ll)
		// Without branches, which repeated offsets make unpredictable:
		// idx 0 to 2 pick a repeated offset, 3 the first one less 1,
		// and a value above 3 is a new offset, placed like idx 3's.
		v := s.off
		idx := v - 1
		if s.ll == 0 {
			idx++
		}
		off := rep0
		if idx == 1 {
			off = rep1
		}
		if idx == 2 {
			off = rep2
		}
		if idx == 3 {
			off = rep0 - 1
		}
		if v > 3 {
			off = v - 3
			idx = 3
		}
		r1 := rep0
		if idx == 0 {
			r1 = rep1
		}
		r2 := rep1
		if idx <= 1 {
			r2 = rep2
		}
		if off == 0 {
			return errorf("offset 0")
		}
		rep0, rep1, rep2 = off, r1, r2
		s.off = rep0
		if uint64(rep0) > pos || uint64(rep0) > window {
			return errorf("match offset %d beyond the %d bytes of history", rep0, min(pos, window))
		}
		pos += uint64(s.ml)
	}
	if nlits > uint64(z.nlits) {
		return errorf("sequences take %d literals, the block has %d", nlits, z.nlits)
	}
	if pos+uint64(z.nlits)-nlits > uint64(z.blockEnd) {
		return errorf("block decompresses to more than %d bytes", maxBlockSize)
	}
	z.rep = [3]uint32{rep0, rep1, rep2}
	return nil
}

// execute appends the literals and matches of seqs to the output; offsets
// has checked them.
func (z *Reader) execute(seqs []sequence) error {
	buf := z.hist[:cap(z.hist)]
	op := len(z.hist)
	lits := z.lits[:]
	lp := 0
	for _, s := range seqs {
		ll, ml, off := int(s.ll), int(s.ml), int(s.off)
		// Copies move 8 or 16 bytes at a time and may write past their
		// end, into room the output and literals keep for that; the first
		// 16 bytes are copied whatever the length, which spares a
		// mispredicted branch on most sequences. No call to memmove, so
		// that the loop keeps its variables in registers.
		copy16(buf[op:op+16], lits[lp:lp+16])
		for j := 16; j < ll; j += 16 {
			copy16(buf[op+j:op+j+16], lits[lp+j:lp+j+16])
		}
		op += ll
		lp += ll
		from := op - off
		switch {
		case off >= 16:
			copy16(buf[op:op+16], buf[from:from+16])
			for j := 16; j < ml; j += 16 {
				copy16(buf[op+j:op+j+16], buf[from+j:from+j+16])
			}
		case off >= 8:
			for j := 0; j < ml; j += 8 {
				binary.LittleEndian.PutUint64(buf[op+j:op+j+8], binary.LittleEndian.Uint64(buf[from+j:from+j+8]))
			}
		default:
			// A period below 8: bytes one by one up to a multiple of the
			// period of at least 8, then 8 bytes at a time from that far
			// back.
			far := off * ((8 + off - 1) / off)
			j := 0
			for ; j < ml && j < far; j++ {
				buf[op+j] = buf[from+j]
			}
			for ; j < ml; j += 8 {
				binary.LittleEndian.PutUint64(buf[op+j:op+j+8], binary.LittleEndian.Uint64(buf[op+j-far:op+j-far+8]))
			}
		}
		op += ml
	}
	z.hist = buf[:op]
	return z.appendLiterals(lp)
}

// copy16 copies 16 bytes, as two 8-byte moves.
func copy16(d, s []byte) {
	d, s = d[:16], s[:16]
	binary.LittleEndian.PutUint64(d[:8], binary.LittleEndian.Uint64(s[:8]))
	binary.LittleEndian.PutUint64(d[8:], binary.LittleEndian.Uint64(s[8:]))
}

// sequence is a decoded sequence: literals to copy, then a match.
type sequence struct {
	ll, ml, off uint32
}
