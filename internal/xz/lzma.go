package xz

import (
	"errors"
	"fmt"
)

const (
	probInit   = 1 << 10
	numStates  = 12
	posStates  = 1 << 4
	lenLow     = 8
	lenMid     = 8
	lenHigh    = 256
	alignBits  = 4
	endPosSlot = 14
	fullDists  = 1 << (endPosSlot >> 1)
	minMatch   = 2
)

// rangeDecoder reads the range-coded bits of one LZMA chunk.
type rangeDecoder struct {
	b    []byte
	i    int
	rng  uint32
	code uint32
}

func (rc *rangeDecoder) init(b []byte) error {
	if len(b) < 5 {
		return errors.New("range coder: chunk shorter than 5 bytes")
	}
	if b[0] != 0 {
		return errors.New("range coder: first byte not zero")
	}
	rc.b = b
	rc.i = 5
	rc.rng = 0xffffffff
	rc.code = uint32(b[1])<<24 | uint32(b[2])<<16 | uint32(b[3])<<8 | uint32(b[4])
	return nil
}

// finish checks that the chunk ended exactly at its packed size.
func (rc *rangeDecoder) finish() error {
	rc.normalize()
	if rc.i != len(rc.b) {
		if rc.i > len(rc.b) {
			return errRange
		}
		return fmt.Errorf("range coder: %d packed bytes left unused", len(rc.b)-rc.i)
	}
	if rc.code != 0 {
		return errors.New("range coder: not finished cleanly")
	}
	return nil
}

// normalize takes a byte in when the range is below 2^24; bit and direct
// call it before each bit, finish once after the last.
func (rc *rangeDecoder) normalize() {
	if rc.rng < 1<<24 {
		rc.shift()
	}
}

func (rc *rangeDecoder) shift() {
	rc.rng <<= 8
	var c byte
	if rc.i < len(rc.b) {
		c = rc.b[rc.i]
	}
	rc.i++
	rc.code = rc.code<<8 | uint32(c)
}

func (rc *rangeDecoder) bit(p *uint16) uint32 {
	if rc.rng < 1<<24 {
		rc.shift()
	}
	v := uint32(*p)
	bound := (rc.rng >> 11) * v
	if rc.code < bound {
		rc.rng = bound
		*p = uint16(v + (1<<11-v)>>5)
		return 0
	}
	rc.rng -= bound
	rc.code -= bound
	*p = uint16(v - v>>5)
	return 1
}

// tree decodes n bits, high bit first, with probabilities p[1:1<<n].
func (rc *rangeDecoder) tree(p []uint16, n int) uint32 {
	m := uint32(1)
	for i := 0; i < n; i++ {
		m = m<<1 | rc.bit(&p[m])
	}
	return m - 1<<n
}

// reverse decodes n bits, low bit first, with probabilities p[:1<<n-1].
func (rc *rangeDecoder) reverse(p []uint16, n int) uint32 {
	m, v := uint32(1), uint32(0)
	for i := 0; i < n; i++ {
		b := rc.bit(&p[m-1])
		m = m<<1 | b
		v |= b << i
	}
	return v
}

func (rc *rangeDecoder) direct(n int) uint32 {
	var v uint32
	for i := 0; i < n; i++ {
		rc.normalize()
		rc.rng >>= 1
		v <<= 1
		if rc.code >= rc.rng {
			rc.code -= rc.rng
			v |= 1
		}
	}
	return v
}

type lenDecoder struct {
	choice  uint16
	choice2 uint16
	low     [posStates][lenLow]uint16
	mid     [posStates][lenMid]uint16
	high    [lenHigh]uint16
}

func (ld *lenDecoder) reset() {
	ld.choice, ld.choice2 = probInit, probInit
	fill(ld.low[:])
	fill(ld.mid[:])
	fillOne(ld.high[:])
}

// decode returns the match length minus minMatch.
func (ld *lenDecoder) decode(rc *rangeDecoder, ps uint32) uint32 {
	if rc.bit(&ld.choice) == 0 {
		return rc.tree(ld.low[ps][:], 3)
	}
	if rc.bit(&ld.choice2) == 0 {
		return lenLow + rc.tree(ld.mid[ps][:], 3)
	}
	return lenLow + lenMid + rc.tree(ld.high[:], 8)
}

func fill[T ~[8]uint16](a []T) {
	for i := range a {
		fillOne(a[i][:])
	}
}

func fillOne(a []uint16) {
	for i := range a {
		a[i] = probInit
	}
}

// lzmaDecoder is the LZMA state that persists across LZMA2 chunks.
type lzmaDecoder struct {
	rc         rangeDecoder
	lc, lp, pb uint
	state      uint32
	rep        [4]uint32
	pending    int // bytes of a match still to copy
	literal    []uint16
	isMatch    [numStates << 4]uint16
	isRep      [numStates]uint16
	isRepG0    [numStates]uint16
	isRepG1    [numStates]uint16
	isRepG2    [numStates]uint16
	isRep0Long [numStates << 4]uint16
	posSlot    [4][1 << 6]uint16
	specPos    [fullDists - endPosSlot]uint16
	align      [1 << alignBits]uint16
	matchLen   lenDecoder
	repLen     lenDecoder
}

func (z *lzmaDecoder) setProps(p byte) error {
	if p >= 9*5*5 {
		return fmt.Errorf("bad LZMA properties byte %#02x", p)
	}
	lc, lp, pb := uint(p%9), uint(p/9%5), uint(p/45)
	if lc+lp > 4 {
		return fmt.Errorf("LZMA properties lc=%d lp=%d: lc+lp above 4", lc, lp)
	}
	z.lc, z.lp, z.pb = lc, lp, pb
	n := 0x300 << (lc + lp)
	if cap(z.literal) < n {
		z.literal = make([]uint16, n)
	}
	z.literal = z.literal[:n]
	return nil
}

func (z *lzmaDecoder) resetState() {
	z.state = 0
	z.rep = [4]uint32{}
	z.pending = 0
	fillOne(z.literal)
	fillOne(z.isMatch[:])
	fillOne(z.isRep[:])
	fillOne(z.isRepG0[:])
	fillOne(z.isRepG1[:])
	fillOne(z.isRepG2[:])
	fillOne(z.isRep0Long[:])
	for i := range z.posSlot {
		fillOne(z.posSlot[i][:])
	}
	fillOne(z.specPos[:])
	fillOne(z.align[:])
	z.matchLen.reset()
	z.repLen.reset()
}

var errDistance = errors.New("match distance beyond the data decoded")

// decode appends n bytes to d; left is what the chunk still holds (n ≤
// left). A match may run past n (it is finished by the next call) but
// not past left.
func (z *lzmaDecoder) decode(d *dict, n, left int) error {
	rc := &z.rc
	buf := d.buf
	pos := d.pos
	end := pos + n
	full := d.full
	defer func() {
		d.pos = pos
		d.full = full
	}()
	copyMatch := func(l int) {
		dist := int(z.rep[0]) + 1
		k := min(l, end-pos)
		z.pending = l - k
		src := pos - dist
		if src < 0 {
			src += len(buf)
		}
		if src+k <= pos || (src > pos && src+k <= len(buf)) {
			if dist >= k {
				copy(buf[pos:pos+k], buf[src:src+k])
			} else {
				for i := 0; i < k; i++ {
					buf[pos+i] = buf[src+i]
				}
			}
		} else {
			for i := 0; i < k; i++ {
				buf[pos+i] = buf[src]
				src++
				if src == len(buf) {
					src = 0
				}
			}
		}
		pos += k
		full = min(full+k, d.size)
	}
	if z.pending > 0 {
		copyMatch(z.pending)
	}
	pbMask := uint32(1)<<z.pb - 1
	lpMask := uint32(1)<<z.lp - 1
	for pos < end {
		// The position since the dictionary reset, modulo 16: the ring
		// grows in multiples of 64 KiB and wraps at the dictionary size,
		// multiples of 16.
		p := uint32(pos - d.base)
		ps := p & pbMask
		if rc.bit(&z.isMatch[z.state<<4|ps]) == 0 {
			var prev uint32
			if full > 0 {
				i := pos - 1
				if i < 0 {
					i += len(buf)
				}
				prev = uint32(buf[i])
			}
			probs := z.literal[0x300*((p&lpMask)<<z.lc+prev>>(8-z.lc)):]
			sym := uint32(1)
			if z.state >= 7 {
				i := pos - int(z.rep[0]) - 1
				if i < 0 {
					i += len(buf)
				}
				match := uint32(buf[i])
				for sym < 0x100 {
					mb := match >> 7 & 1
					match <<= 1
					b := rc.bit(&probs[(1+mb)<<8+sym])
					sym = sym<<1 | b
					if b != mb {
						break
					}
				}
			}
			for sym < 0x100 {
				sym = sym<<1 | rc.bit(&probs[sym])
			}
			buf[pos] = byte(sym)
			pos++
			full = min(full+1, d.size)
			switch {
			case z.state < 4:
				z.state = 0
			case z.state < 10:
				z.state -= 3
			default:
				z.state -= 6
			}
			continue
		}
		var l uint32
		if rc.bit(&z.isRep[z.state]) == 0 {
			l = z.matchLen.decode(rc, ps)
			if z.state < 7 {
				z.state = 7
			} else {
				z.state = 10
			}
			dist, err := z.distance(l)
			if err != nil {
				return err
			}
			z.rep[3], z.rep[2], z.rep[1], z.rep[0] = z.rep[2], z.rep[1], z.rep[0], dist
		} else {
			if full == 0 {
				return errDistance
			}
			if rc.bit(&z.isRepG0[z.state]) == 0 {
				if rc.bit(&z.isRep0Long[z.state<<4|ps]) == 0 {
					if z.state < 7 {
						z.state = 9
					} else {
						z.state = 11
					}
					if int(z.rep[0]) >= full {
						return errDistance
					}
					copyMatch(1)
					continue
				}
			} else {
				var dist uint32
				if rc.bit(&z.isRepG1[z.state]) == 0 {
					dist = z.rep[1]
				} else {
					if rc.bit(&z.isRepG2[z.state]) == 0 {
						dist = z.rep[2]
					} else {
						dist = z.rep[3]
						z.rep[3] = z.rep[2]
					}
					z.rep[2] = z.rep[1]
				}
				z.rep[1] = z.rep[0]
				z.rep[0] = dist
			}
			l = z.repLen.decode(rc, ps)
			if z.state < 7 {
				z.state = 8
			} else {
				z.state = 11
			}
		}
		if int(z.rep[0]) >= full {
			return errDistance
		}
		ml := int(l) + minMatch
		if ml > left-(pos-d.pos) {
			return fmt.Errorf("match of %d bytes past the chunk's end", ml)
		}
		copyMatch(ml)
	}
	if rc.i > len(rc.b) {
		return errRange
	}
	return nil
}

// distance decodes the distance of a match of length l+minMatch.
func (z *lzmaDecoder) distance(l uint32) (uint32, error) {
	rc := &z.rc
	slot := rc.tree(z.posSlot[min(l, 3)][:], 6)
	if slot < 4 {
		return slot, nil
	}
	bits := int(slot>>1) - 1
	dist := (2 | slot&1) << bits
	if slot < endPosSlot {
		return dist + rc.reverse(z.specPos[dist-slot:], bits), nil
	}
	dist += rc.direct(bits-alignBits) << alignBits
	dist += rc.reverse(z.align[:], alignBits)
	if dist == 0xffffffff {
		return 0, errors.New("end marker inside an LZMA2 chunk")
	}
	return dist, nil
}
