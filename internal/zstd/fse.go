package zstd

import "math/bits"

// fseEntry is one state of an FSE decoding table (RFC 8878 §4.1.1): the
// symbol it decodes, and how the next state is read (base + nb bits).
type fseEntry struct {
	sym  uint8
	nb   uint8
	base uint16
}

// readNCount reads an FSE table description (RFC 8878 §4.1.1) into norm:
// the normalized probability of each symbol (-1 for "less than 1"). It
// returns the number of symbols, the accuracy log and the bytes read.
func readNCount(in []byte, maxSym int, maxLog uint, norm []int16) (nsym int, log uint, n int, err error) {
	if len(in) < 1 {
		return 0, 0, 0, errorf("truncated FSE table description")
	}
	log = uint(in[0]&15) + 5
	if log > maxLog {
		return 0, 0, 0, errorf("FSE accuracy log %d above %d", log, maxLog)
	}
	// peek returns 32 bits from bit position pos, zeros past the end.
	peek := func(pos uint) uint32 {
		i := int(pos >> 3)
		var v uint64
		for k := 0; k < 5 && i+k < len(in); k++ {
			v |= uint64(in[i+k]) << (8 * k)
		}
		return uint32(v >> (pos & 7))
	}
	pos := uint(4)
	remaining := int32(1)<<log + 1
	threshold := int32(1) << log
	nbBits := log + 1
	sym := 0
	prev0 := false
	for remaining > 1 && sym <= maxSym {
		if prev0 {
			// Repeat flags: each 2-bit field adds 0 to 3 zero symbols,
			// 3 meaning another field follows.
			for {
				r := int(peek(pos) & 3)
				pos += 2
				sym += r
				if sym > maxSym+1 {
					return 0, 0, 0, errorf("FSE table description: symbol above %d", maxSym)
				}
				for i := sym - r; i < sym; i++ {
					norm[i] = 0
				}
				if r != 3 {
					break
				}
			}
			if sym > maxSym {
				return 0, 0, 0, errorf("FSE table description: symbol above %d", maxSym)
			}
		}
		v := int32(peek(pos))
		max := 2*threshold - 1 - remaining
		var count int32
		if v&(threshold-1) < max {
			count = v & (threshold - 1)
			pos += nbBits - 1
		} else {
			count = v & (2*threshold - 1)
			if count >= threshold {
				count -= max
			}
			pos += nbBits
		}
		count--
		if count < 0 {
			remaining -= -count
		} else {
			remaining -= count
		}
		norm[sym] = int16(count)
		sym++
		prev0 = count == 0
		for remaining < threshold && threshold > 1 {
			nbBits--
			threshold >>= 1
		}
	}
	if remaining != 1 {
		return 0, 0, 0, errorf("FSE table description: probabilities do not add up")
	}
	n = int((pos + 7) >> 3)
	if n > len(in) {
		return 0, 0, 0, errorf("truncated FSE table description")
	}
	return sym, log, n, nil
}

// buildFSE builds the decoding table of 1<<log states for norm.
func buildFSE(dst []fseEntry, norm []int16, log uint) error {
	size := 1 << log
	dst = dst[:size]
	high := size - 1
	var next [256]uint16
	for s, c := range norm {
		if c == -1 {
			if high < 0 {
				return errorf("FSE table: too many symbols")
			}
			dst[high].sym = uint8(s)
			high--
			next[s] = 1
		} else {
			next[s] = uint16(c)
		}
	}
	pos, step, mask := 0, size>>1+size>>3+3, size-1
	for s, c := range norm {
		for i := int16(0); i < c; i++ {
			dst[pos].sym = uint8(s)
			pos = (pos + step) & mask
			for pos > high {
				pos = (pos + step) & mask
			}
		}
	}
	if pos != 0 {
		return errorf("FSE table: probabilities do not fill the table")
	}
	for i := range dst {
		s := dst[i].sym
		ns := next[s]
		next[s]++
		if ns == 0 {
			return errorf("FSE table: bad state")
		}
		nb := log - uint(bits.Len16(ns)-1)
		dst[i].nb = uint8(nb)
		dst[i].base = uint16(uint(ns)<<nb - uint(size))
	}
	return nil
}
