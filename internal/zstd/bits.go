package zstd

import (
	"encoding/binary"
	"math/bits"
)

// revReader reads a backward bit stream (RFC 8878 §4.1): the stream is
// read from its last byte towards its first, most significant bits first,
// after the padding that ends at the highest set bit of the last byte.
// value holds the eight bytes at in[ptr:]; consumed counts the bits of
// value already read, from its top. Bits read past the start of the stream
// read as zeros, and overflow reports it.
type revReader struct {
	in       []byte
	ptr      int
	value    uint64
	consumed uint
}

func (b *revReader) init(in []byte) error {
	if len(in) == 0 {
		return errorf("empty bit stream")
	}
	last := in[len(in)-1]
	if last == 0 {
		return errorf("bit stream without its end mark")
	}
	pad := uint(bits.LeadingZeros8(last)) + 1
	if len(in) >= 8 {
		b.in = in
		b.ptr = len(in) - 8
		b.value = binary.LittleEndian.Uint64(in[b.ptr:])
		b.consumed = pad
		return nil
	}
	// A short stream: its bytes in the low end of value, the missing
	// ones counted as consumed.
	b.in = nil
	b.ptr = 0
	b.value = 0
	for i := len(in) - 1; i >= 0; i-- {
		b.value = b.value<<8 | uint64(in[i])
	}
	b.consumed = pad + uint(8-len(in))*8
	return nil
}

// reload makes at least 57 bits readable, unless the start of the stream
// is near.
func (b *revReader) reload() {
	if b.consumed < 8 || b.ptr == 0 {
		return
	}
	n := int(b.consumed >> 3)
	if n > b.ptr {
		n = b.ptr
	}
	b.ptr -= n
	b.consumed -= uint(n) * 8
	b.value = binary.LittleEndian.Uint64(b.in[b.ptr:])
}

// get reads n bits (n < 64); zero bits read zero.
func (b *revReader) get(n uint8) uint32 {
	v := (b.value << b.consumed) >> (64 - n)
	b.consumed += uint(n)
	return uint32(v)
}

// finished tells whether the stream was read exactly to its start.
func (b *revReader) finished() bool { return b.ptr == 0 && b.consumed == 64 }

// overflow tells whether bits were read past the start of the stream.
func (b *revReader) overflow() bool { return b.ptr == 0 && b.consumed > 64 }
