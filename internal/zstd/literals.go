package zstd

// readLiterals decodes the literals section of a compressed block (RFC
// 8878 §3.1.1.3.1) into z.lits and returns the bytes it took.
func (z *Reader) readLiterals(in []byte) (int, error) {
	if len(in) < 1 {
		return 0, errorf("truncated literals section")
	}
	typ := in[0] & 3
	format := (in[0] >> 2) & 3
	var regen, csize, hdr int
	switch typ {
	case 0, 1: // raw, RLE
		switch format {
		case 0, 2:
			regen, hdr = int(in[0]>>3), 1
		case 1:
			if len(in) < 2 {
				return 0, errorf("truncated literals section header")
			}
			regen, hdr = int(in[0]>>4)|int(in[1])<<4, 2
		case 3:
			if len(in) < 3 {
				return 0, errorf("truncated literals section header")
			}
			regen, hdr = int(in[0]>>4)|int(in[1])<<4|int(in[2])<<12, 3
		}
	default: // Huffman-compressed, with a tree or the previous one
		hdr = [4]int{3, 3, 4, 5}[format]
		if len(in) < hdr {
			return 0, errorf("truncated literals section header")
		}
		var v uint64
		for i := hdr - 1; i >= 0; i-- {
			v = v<<8 | uint64(in[i])
		}
		v >>= 4
		bits := [4]uint{10, 10, 14, 18}[format]
		regen = int(v & (1<<bits - 1))
		csize = int(v >> bits & (1<<bits - 1))
	}
	if regen > maxBlockSize {
		return 0, errorf("literals of %d bytes, above the block maximum", regen)
	}
	lits := z.lits[:regen]
	z.nlits = regen
	switch typ {
	case 0:
		if hdr+regen > len(in) {
			return 0, errorf("truncated raw literals")
		}
		copy(lits, in[hdr:hdr+regen])
		return hdr + regen, nil
	case 1:
		if hdr+1 > len(in) {
			return 0, errorf("truncated RLE literals")
		}
		b := in[hdr]
		for i := range lits {
			lits[i] = b
		}
		return hdr + 1, nil
	}
	if hdr+csize > len(in) {
		return 0, errorf("truncated compressed literals")
	}
	src := in[hdr : hdr+csize]
	if typ == 2 {
		n, err := z.readHuffTree(src)
		if err != nil {
			return 0, err
		}
		src = src[n:]
	} else if !z.huff.valid {
		return 0, errorf("treeless literals without a previous Huffman table")
	}
	if format == 0 {
		if err := z.decodeHuff(lits, src); err != nil {
			return 0, err
		}
		return hdr + csize, nil
	}
	if len(src) < 6 {
		return 0, errorf("truncated jump table of 4 Huffman streams")
	}
	s1, s2, s3 := int(src[0])|int(src[1])<<8, int(src[2])|int(src[3])<<8, int(src[4])|int(src[5])<<8
	src = src[6:]
	if s1+s2+s3 > len(src) {
		return 0, errorf("jump table beyond the compressed literals")
	}
	seg := (regen + 3) / 4
	if 3*seg > regen {
		return 0, errorf("4 Huffman streams for %d literals", regen)
	}
	dst := [4][]byte{lits[:seg], lits[seg : 2*seg], lits[2*seg : 3*seg], lits[3*seg:]}
	streams := [4][]byte{src[:s1], src[s1 : s1+s2], src[s1+s2 : s1+s2+s3], src[s1+s2+s3:]}
	if err := z.decodeHuff4(dst, streams); err != nil {
		return 0, err
	}
	return hdr + csize, nil
}
