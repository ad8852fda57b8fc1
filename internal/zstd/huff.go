package zstd

import "math/bits"

// maxHuffBits is the longest Huffman code (RFC 8878 §4.2.1).
const maxHuffBits = 11

// huffTable decodes literals: entry i, for the next maxBits bits i of the
// stream, is the symbol<<8 | the code's length.
type huffTable struct {
	e       [1 << maxHuffBits]uint16
	maxBits uint8
	valid   bool
}

// readHuffTree reads a Huffman tree description (RFC 8878 §4.2.1) into
// z.huff and returns the bytes it took.
func (z *Reader) readHuffTree(in []byte) (int, error) {
	if len(in) < 1 {
		return 0, errorf("truncated Huffman tree description")
	}
	var w [256]uint8
	var nw, n int
	hdr := int(in[0])
	if hdr < 128 {
		if 1+hdr > len(in) {
			return 0, errorf("truncated Huffman tree description")
		}
		var err error
		if nw, err = z.huffWeightsFSE(in[1:1+hdr], &w); err != nil {
			return 0, err
		}
		n = 1 + hdr
	} else {
		nw = hdr - 127
		n = 1 + (nw+1)/2
		if n > len(in) {
			return 0, errorf("truncated Huffman tree description")
		}
		for i := 0; i < nw; i++ {
			b := in[1+i/2]
			if i&1 == 0 {
				w[i] = b >> 4
			} else {
				w[i] = b & 15
			}
		}
	}
	if nw > 255 {
		return 0, errorf("Huffman tree: more than 256 symbols")
	}
	// The last symbol's weight makes the total a power of two.
	var total uint32
	var rank [maxHuffBits + 2]uint32
	for i := 0; i < nw; i++ {
		if w[i] > maxHuffBits {
			return 0, errorf("Huffman tree: weight %d above %d", w[i], maxHuffBits)
		}
		rank[w[i]]++
		if w[i] > 0 {
			total += 1 << (w[i] - 1)
		}
	}
	if total == 0 {
		return 0, errorf("Huffman tree: all weights zero")
	}
	maxBits := uint(bits.Len32(total))
	if maxBits > maxHuffBits {
		return 0, errorf("Huffman tree: codes longer than %d bits", maxHuffBits)
	}
	rest := uint32(1)<<maxBits - total
	if rest&(rest-1) != 0 {
		return 0, errorf("Huffman tree: weights do not complete a tree")
	}
	last := uint8(bits.Len32(rest))
	w[nw] = last
	rank[last]++
	nsym := nw + 1
	// Codes by weight, lowest first, then by symbol: each symbol of
	// weight k fills 1<<(k-1) consecutive entries.
	var start [maxHuffBits + 2]uint32
	pos := uint32(0)
	for k := 1; k <= maxHuffBits; k++ {
		start[k] = pos
		pos += rank[k] << (k - 1)
	}
	t := &z.huff
	for s := 0; s < nsym; s++ {
		k := w[s]
		if k == 0 {
			continue
		}
		e := uint16(s)<<8 | uint16(maxBits+1-uint(k))
		p := start[k]
		for i := p; i < p+1<<(k-1); i++ {
			t.e[i] = e
		}
		start[k] = p + 1<<(k-1)
	}
	t.maxBits = uint8(maxBits)
	t.valid = true
	return n, nil
}

// huffWeightsFSE decodes FSE-compressed Huffman weights: two interleaved
// states over one backward stream, until the stream runs out.
func (z *Reader) huffWeightsFSE(in []byte, w *[256]uint8) (int, error) {
	var norm [13]int16
	nsym, log, n, err := readNCount(in, 12, 6, norm[:])
	if err != nil {
		return 0, err
	}
	tab := z.wtab[:]
	if err := buildFSE(tab, norm[:nsym], log); err != nil {
		return 0, err
	}
	var br revReader
	if err := br.init(in[n:]); err != nil {
		return 0, err
	}
	mask := uint32(len(tab) - 1)
	s1 := br.get(uint8(log)) & mask
	s2 := br.get(uint8(log)) & mask
	count := 0
	for {
		if count >= 254 {
			return 0, errorf("Huffman tree: too many weights")
		}
		e := tab[s1]
		w[count] = e.sym
		count++
		br.reload()
		s1 = (uint32(e.base) + br.get(e.nb)) & mask
		if br.overflow() {
			w[count] = tab[s2].sym
			count++
			break
		}
		e = tab[s2]
		w[count] = e.sym
		count++
		br.reload()
		s2 = (uint32(e.base) + br.get(e.nb)) & mask
		if br.overflow() {
			w[count] = tab[s1].sym
			count++
			break
		}
	}
	return count, nil
}

// decodeHuff decodes len(dst) symbols from one Huffman stream.
func (z *Reader) decodeHuff(dst []byte, in []byte) error {
	var br revReader
	if err := br.init(in); err != nil {
		return err
	}
	t := &z.huff.e
	shift := 64 - uint(z.huff.maxBits)
	value, consumed, ptr := br.value, br.consumed, br.ptr
	i := 0
	for ; i+4 <= len(dst); i += 4 {
		if consumed >= 8 && ptr > 0 {
			n := int(consumed >> 3)
			if n > ptr {
				n = ptr
			}
			ptr -= n
			consumed -= uint(n) * 8
			value = le64(in[ptr:])
		}
		d := dst[i : i+4 : i+4]
		e := t[(value<<consumed)>>shift&(1<<maxHuffBits-1)]
		consumed += uint(e & 15)
		d[0] = byte(e >> 8)
		e = t[(value<<consumed)>>shift&(1<<maxHuffBits-1)]
		consumed += uint(e & 15)
		d[1] = byte(e >> 8)
		e = t[(value<<consumed)>>shift&(1<<maxHuffBits-1)]
		consumed += uint(e & 15)
		d[2] = byte(e >> 8)
		e = t[(value<<consumed)>>shift&(1<<maxHuffBits-1)]
		consumed += uint(e & 15)
		d[3] = byte(e >> 8)
	}
	br.value, br.consumed, br.ptr = value, consumed, ptr
	for ; i < len(dst); i++ {
		br.reload()
		e := t[(br.value<<br.consumed)>>shift&(1<<maxHuffBits-1)]
		br.consumed += uint(e & 15)
		dst[i] = byte(e >> 8)
	}
	if !br.finished() {
		return errorf("Huffman stream does not end where its literals do")
	}
	return nil
}
