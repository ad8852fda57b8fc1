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
	var st [2]uint32 // the two states, which take turns
	st[0] = br.get(uint8(log)) & mask
	st[1] = br.get(uint8(log)) & mask
	count := 0
	for k := 0; ; k ^= 1 {
		if count >= 254 {
			return 0, errorf("Huffman tree: too many weights")
		}
		e := tab[st[k]]
		w[count] = e.sym
		count++
		br.reload()
		st[k] = (uint32(e.base) + br.get(e.nb)) & mask
		if br.overflow() {
			// The other state's symbol is the last.
			w[count] = tab[st[k^1]].sym
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
	n := z.huffPair(dst, dst[:0], &br, &br)
	return z.huffEnd(dst[n:], &br)
}

// decodeHuff4 decodes the 4 streams of in into the 4 parts of dst, two at
// a time: interleaved, the table look-ups of two streams overlap.
func (z *Reader) decodeHuff4(dst [4][]byte, in [4][]byte) error {
	var br [4]revReader
	for k := range br {
		if err := br[k].init(in[k]); err != nil {
			return err
		}
	}
	for k := 0; k < 4; k += 2 {
		n := z.huffPair(dst[k], dst[k+1], &br[k], &br[k+1])
		if err := z.huffEnd(dst[k][n:], &br[k]); err != nil {
			return err
		}
		if err := z.huffEnd(dst[k+1][min(n, len(dst[k+1])):], &br[k+1]); err != nil {
			return err
		}
	}
	return nil
}

// huffPair decodes symbols from two streams at once, 4 from each per
// round, while both have room; d1 may be empty (one stream). It returns
// how many symbols of each it decoded. Bits read past the start of a
// stream are garbage, caught by huffEnd.
func (z *Reader) huffPair(d0, d1 []byte, b0, b1 *revReader) int {
	t := &z.huff.e
	shift := (64 - uint(z.huff.maxBits)) & 63
	v0, c0, p0, in0 := b0.value, b0.consumed, b0.ptr, b0.in
	v1, c1, p1, in1 := b1.value, b1.consumed, b1.ptr, b1.in
	n := len(d0)
	if len(d1) > 0 {
		n = min(n, len(d1))
	}
	i := 0
	for ; i+4 <= n; i += 4 {
		if p0 >= 8 {
			p0, c0, v0 = advance(in0, p0, c0)
		} else {
			p0, c0, v0 = refill(in0, p0, c0, v0)
		}
		c0 = huff4(t, d0[i:i+4:i+4], v0, c0, shift)
		if len(d1) == 0 {
			continue
		}
		if p1 >= 8 {
			p1, c1, v1 = advance(in1, p1, c1)
		} else {
			p1, c1, v1 = refill(in1, p1, c1, v1)
		}
		c1 = huff4(t, d1[i:i+4:i+4], v1, c1, shift)
	}
	b0.value, b0.consumed, b0.ptr = v0, c0, p0
	if len(d1) > 0 {
		b1.value, b1.consumed, b1.ptr = v1, c1, p1
	}
	return i
}

// huff4 decodes 4 symbols into d from the stream value read up to
// consumed, and returns the new consumed.
func huff4(t *[1 << maxHuffBits]uint16, d []byte, value uint64, consumed, shift uint) uint {
	d = d[:4]
	for k := range d {
		e := t[value<<(consumed&63)>>shift&(1<<maxHuffBits-1)]
		consumed += uint(e & 15)
		d[k] = byte(e >> 8)
	}
	return consumed
}

// huffEnd decodes the last symbols of a stream, one at a time, and checks
// that the stream ends with them.
func (z *Reader) huffEnd(dst []byte, br *revReader) error {
	t := &z.huff.e
	shift := (64 - uint(z.huff.maxBits)) & 63
	for i := range dst {
		br.reload()
		e := t[br.value<<(br.consumed&63)>>shift&(1<<maxHuffBits-1)]
		br.consumed += uint(e & 15)
		dst[i] = byte(e >> 8)
	}
	if !br.finished() {
		return errorf("Huffman stream does not end where its literals do")
	}
	return nil
}
