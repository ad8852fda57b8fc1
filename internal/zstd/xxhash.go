package zstd

import (
	"encoding/binary"
	"math/bits"
)

// The primes of XXH64.
const (
	prime1 uint64 = 11400714785074694791
	prime2 uint64 = 14029467366897019727
	prime3 uint64 = 1609587929392839161
	prime4 uint64 = 9650029242287828579
	prime5 uint64 = 2870177450012600261
)

// xxhash64 is a streaming XXH64 with seed 0: what a frame's content
// checksum is computed with (RFC 8878 §3.1.1: its low 32 bits).
type xxhash64 struct {
	v     [4]uint64
	buf   [32]byte
	n     int // bytes in buf
	total uint64
}

func (h *xxhash64) reset() {
	p1 := prime1 // wraps around, as XXH64 means
	h.v = [4]uint64{p1 + prime2, prime2, 0, -p1}
	h.n = 0
	h.total = 0
}

func xxRound(acc, in uint64) uint64 {
	acc += in * prime2
	acc = bits.RotateLeft64(acc, 31)
	return acc * prime1
}

func xxMerge(acc, v uint64) uint64 {
	acc ^= xxRound(0, v)
	return acc*prime1 + prime4
}

func (h *xxhash64) write(p []byte) {
	h.total += uint64(len(p))
	if h.n > 0 {
		k := copy(h.buf[h.n:], p)
		h.n += k
		p = p[k:]
		if h.n < 32 {
			return
		}
		h.stripes(h.buf[:])
		h.n = 0
	}
	if len(p) >= 32 {
		m := len(p) &^ 31
		h.stripes(p[:m])
		p = p[m:]
	}
	h.n = copy(h.buf[:], p)
}

// stripes consumes a multiple of 32 bytes.
func (h *xxhash64) stripes(p []byte) {
	v1, v2, v3, v4 := h.v[0], h.v[1], h.v[2], h.v[3]
	for ; len(p) >= 32; p = p[32:] {
		v1 = xxRound(v1, binary.LittleEndian.Uint64(p[0:8]))
		v2 = xxRound(v2, binary.LittleEndian.Uint64(p[8:16]))
		v3 = xxRound(v3, binary.LittleEndian.Uint64(p[16:24]))
		v4 = xxRound(v4, binary.LittleEndian.Uint64(p[24:32]))
	}
	h.v[0], h.v[1], h.v[2], h.v[3] = v1, v2, v3, v4
}

func (h *xxhash64) sum() uint64 {
	var acc uint64
	if h.total >= 32 {
		v1, v2, v3, v4 := h.v[0], h.v[1], h.v[2], h.v[3]
		acc = bits.RotateLeft64(v1, 1) + bits.RotateLeft64(v2, 7) + bits.RotateLeft64(v3, 12) + bits.RotateLeft64(v4, 18)
		acc = xxMerge(acc, v1)
		acc = xxMerge(acc, v2)
		acc = xxMerge(acc, v3)
		acc = xxMerge(acc, v4)
	} else {
		acc = prime5
	}
	acc += h.total
	p := h.buf[:h.n]
	for ; len(p) >= 8; p = p[8:] {
		acc ^= xxRound(0, binary.LittleEndian.Uint64(p))
		acc = bits.RotateLeft64(acc, 27)*prime1 + prime4
	}
	if len(p) >= 4 {
		acc ^= uint64(binary.LittleEndian.Uint32(p)) * prime1
		acc = bits.RotateLeft64(acc, 23)*prime2 + prime3
		p = p[4:]
	}
	for _, b := range p {
		acc ^= uint64(b) * prime5
		acc = bits.RotateLeft64(acc, 11) * prime1
	}
	acc ^= acc >> 33
	acc *= prime2
	acc ^= acc >> 29
	acc *= prime3
	acc ^= acc >> 32
	return acc
}
