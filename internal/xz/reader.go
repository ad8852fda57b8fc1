package xz

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"hash/crc64"
	"io"
	"sync"
)

// MaxDictSize is the largest LZMA2 dictionary the decoder accepts
// (1.5 GiB); xz's presets use at most 64 MiB.
const MaxDictSize = 3 << 29

var (
	// ErrFilter reports a filter other than LZMA2 (Delta, BCJ, ...).
	ErrFilter = errors.New("filter not supported")
	// ErrDictTooLarge reports a dictionary above MaxDictSize.
	ErrDictTooLarge = errors.New("dictionary too large")
	// ErrCheck reports a block whose check does not match its content.
	ErrCheck = errors.New("check mismatch")
)

// Error is a decoding error at an offset of the compressed stream.
type Error struct {
	Offset int64 // bytes of compressed input before the fault
	Err    error
}

func (e *Error) Error() string { return fmt.Sprintf("xz: at offset %d: %v", e.Offset, e.Err) }

func (e *Error) Unwrap() error { return e.Err }

var (
	headerMagic = []byte{0xfd, '7', 'z', 'X', 'Z', 0}
	footerMagic = []byte{'Y', 'Z'}
)

// crc64Table is the CRC-64/ECMA-182 table, built on first use.
var crc64Table = sync.OnceValue(func() *crc64.Table { return crc64.MakeTable(crc64.ECMA) })

// input counts the compressed bytes read.
type input struct {
	r   *bufio.Reader
	off int64
}

func (in *input) readFull(p []byte) error {
	n, err := io.ReadFull(in.r, p)
	in.off += int64(n)
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return err
}

func (in *input) readByte() (byte, error) {
	b, err := in.r.ReadByte()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return 0, err
	}
	in.off++
	return b, nil
}

// record is one block as the index describes it.
type record struct{ unpadded, uncompressed uint64 }

// Reader decompresses an .xz stream (or several concatenated).
type Reader struct {
	in  input
	err error

	checkType byte
	flags     [2]byte
	check     hash.Hash // nil for check type None
	records   []record

	inBlock    bool
	blockStart int64  // offset of the block header
	headerSize uint64 // block header bytes
	wantComp   int64  // compressed size from the header, -1 if absent
	wantUncomp int64  // uncompressed size from the header, -1 if absent
	dataStart  int64  // offset of the block's compressed data
	produced   int64  // uncompressed bytes of the block so far
	lz         lzma2
	buf        [1024]byte // block headers (up to 1024 bytes), checks
}

// NewReader reads the first stream header of r and returns a Reader of
// its decompressed content.
func NewReader(r io.Reader) (*Reader, error) {
	z := &Reader{in: input{r: bufio.NewReaderSize(r, 64<<10)}}
	if err := z.streamHeader(); err != nil {
		return nil, err
	}
	return z, nil
}

func (z *Reader) fail(at int64, err error) error {
	z.err = &Error{Offset: at, Err: err}
	return z.err
}

// Read implements io.Reader.
func (z *Reader) Read(p []byte) (int, error) {
	for z.err == nil {
		if !z.inBlock {
			if err := z.nextBlock(); err != nil {
				return 0, err
			}
			continue
		}
		if len(p) == 0 {
			return 0, nil
		}
		n, err := z.lz.read(p)
		if err != nil {
			return 0, z.fail(z.in.off, err)
		}
		if n > 0 {
			if z.check != nil {
				z.check.Write(p[:n])
			}
			z.produced += int64(n)
			if z.wantUncomp >= 0 && z.produced > z.wantUncomp {
				return 0, z.fail(z.in.off, fmt.Errorf("block at %d has more than the %d bytes its header says", z.blockStart, z.wantUncomp))
			}
			return n, nil
		}
		if err := z.blockEnd(); err != nil {
			return 0, err
		}
	}
	return 0, z.err
}

func (z *Reader) streamHeader() error {
	at := z.in.off
	h := z.buf[:12]
	if err := z.in.readFull(h); err != nil {
		return z.fail(at, fmt.Errorf("stream header: %w", err))
	}
	if !bytes.Equal(h[:6], headerMagic) {
		return z.fail(at, errors.New("not an xz stream (bad magic bytes)"))
	}
	if crc32.ChecksumIEEE(h[6:8]) != binary.LittleEndian.Uint32(h[8:]) {
		return z.fail(at, errors.New("stream header: CRC32 mismatch"))
	}
	if h[6] != 0 || h[7]&0xf0 != 0 {
		return z.fail(at, fmt.Errorf("stream header: unsupported flags %#02x%02x", h[6], h[7]))
	}
	z.flags = [2]byte{h[6], h[7]}
	z.checkType = h[7]
	switch z.checkType {
	case 0, 1, 4, 10:
	default:
		return z.fail(at, fmt.Errorf("check type %#x not supported", z.checkType))
	}
	z.records = z.records[:0]
	return nil
}

func (z *Reader) newCheck() hash.Hash {
	switch z.checkType {
	case 1:
		return crc32.NewIEEE()
	case 4:
		return crc64.New(crc64Table())
	case 10:
		return sha256.New()
	}
	return nil
}

func checkSize(t byte) int {
	switch t {
	case 0:
		return 0
	case 1:
		return 4
	case 4:
		return 8
	}
	return 32
}

// uvarint reads a variable-length integer of a block header or the index.
func uvarint(b []byte) (uint64, int, error) {
	var v uint64
	for i := 0; i < len(b) && i < 9; i++ {
		v |= uint64(b[i]&0x7f) << (7 * i)
		if b[i]&0x80 == 0 {
			if b[i] == 0 && i > 0 {
				return 0, 0, errors.New("integer not in its shortest form")
			}
			return v, i + 1, nil
		}
	}
	return 0, 0, errors.New("bad variable-length integer")
}

// nextBlock reads a block header, or the index, footer and what follows.
func (z *Reader) nextBlock() error {
	at := z.in.off
	b, err := z.in.readByte()
	if err != nil {
		return z.fail(at, fmt.Errorf("block header: %w", err))
	}
	if b == 0 {
		return z.index(at)
	}
	size := (int(b) + 1) * 4
	h := z.buf[:size]
	h[0] = b
	if err := z.in.readFull(h[1:]); err != nil {
		return z.fail(at, fmt.Errorf("block header: %w", err))
	}
	if crc32.ChecksumIEEE(h[:size-4]) != binary.LittleEndian.Uint32(h[size-4:]) {
		return z.fail(at, errors.New("block header: CRC32 mismatch"))
	}
	flags := h[1]
	if flags&0x3c != 0 {
		return z.fail(at, fmt.Errorf("block header: reserved flags %#02x", flags))
	}
	p := h[2 : size-4]
	z.wantComp, z.wantUncomp = -1, -1
	for _, f := range []struct {
		bit  byte
		dst  *int64
		name string
	}{{0x40, &z.wantComp, "compressed size"}, {0x80, &z.wantUncomp, "uncompressed size"}} {
		if flags&f.bit == 0 {
			continue
		}
		v, n, err := uvarint(p)
		if err != nil || v > 1<<62 || (f.bit == 0x40 && v == 0) {
			return z.fail(at, fmt.Errorf("block header: bad %s", f.name))
		}
		*f.dst = int64(v)
		p = p[n:]
	}
	nfilters := int(flags&3) + 1
	var dictByte = -1
	for i := 0; i < nfilters; i++ {
		id, n, err := uvarint(p)
		if err != nil {
			return z.fail(at, fmt.Errorf("block header: filter %d: %w", i, err))
		}
		p = p[n:]
		psize, n, err := uvarint(p)
		if err != nil || psize > uint64(len(p)-n) {
			return z.fail(at, fmt.Errorf("block header: filter %d: bad properties size", i))
		}
		props := p[n : n+int(psize)]
		p = p[n+int(psize):]
		if id != 0x21 {
			return z.fail(at, fmt.Errorf("filter %s: %w", filterName(id), ErrFilter))
		}
		if i != nfilters-1 || psize != 1 {
			return z.fail(at, errors.New("block header: LZMA2 must be the last filter, with one byte of properties"))
		}
		dictByte = int(props[0])
	}
	for _, c := range p {
		if c != 0 {
			return z.fail(at, errors.New("block header: non-zero padding"))
		}
	}
	if dictByte > 40 {
		return z.fail(at, fmt.Errorf("LZMA2 dictionary byte %d above 40", dictByte))
	}
	dict := uint64(0xffffffff)
	if dictByte < 40 {
		dict = uint64(2|dictByte&1) << (dictByte/2 + 11)
	}
	if dict > MaxDictSize {
		return z.fail(at, fmt.Errorf("dictionary of %d bytes, above %d: %w", dict, MaxDictSize, ErrDictTooLarge))
	}
	z.inBlock = true
	z.blockStart = at
	z.headerSize = uint64(size)
	z.dataStart = z.in.off
	z.produced = 0
	z.check = z.newCheck()
	z.lz.reset(&z.in, int(dict))
	return nil
}

func filterName(id uint64) string {
	switch id {
	case 3:
		return "Delta"
	case 4:
		return "BCJ x86"
	case 5:
		return "BCJ PowerPC"
	case 6:
		return "BCJ IA-64"
	case 7:
		return "BCJ ARM"
	case 8:
		return "BCJ ARM-Thumb"
	case 9:
		return "BCJ SPARC"
	case 0xa:
		return "BCJ ARM64"
	case 0xb:
		return "BCJ RISC-V"
	}
	return fmt.Sprintf("%#x", id)
}

// blockEnd checks the sizes, reads the padding and verifies the check.
func (z *Reader) blockEnd() error {
	comp := z.in.off - z.dataStart
	if z.wantComp >= 0 && comp != z.wantComp {
		return z.fail(z.in.off, fmt.Errorf("block at %d has %d compressed bytes, its header says %d", z.blockStart, comp, z.wantComp))
	}
	if z.wantUncomp >= 0 && z.produced != z.wantUncomp {
		return z.fail(z.in.off, fmt.Errorf("block at %d has %d bytes, its header says %d", z.blockStart, z.produced, z.wantUncomp))
	}
	for i := comp; i%4 != 0; i++ {
		at := z.in.off
		b, err := z.in.readByte()
		if err != nil {
			return z.fail(at, fmt.Errorf("block padding: %w", err))
		}
		if b != 0 {
			return z.fail(at, errors.New("block padding: non-zero byte"))
		}
	}
	at := z.in.off
	n := checkSize(z.checkType)
	c := z.buf[:n]
	if err := z.in.readFull(c); err != nil {
		return z.fail(at, fmt.Errorf("block check: %w", err))
	}
	if z.check != nil {
		got := z.check.Sum(z.buf[n:n])
		if z.checkType != 10 { // CRC32 and CRC64 are stored little-endian
			for i, j := 0, len(got)-1; i < j; i, j = i+1, j-1 {
				got[i], got[j] = got[j], got[i]
			}
		}
		if !bytes.Equal(got, c) {
			return z.fail(at, fmt.Errorf("block at %d: %w (%x, stored %x)", z.blockStart, ErrCheck, got, c))
		}
	}
	z.records = append(z.records, record{z.headerSize + uint64(comp) + uint64(n), uint64(z.produced)})
	z.inBlock = false
	return nil
}

// index reads and verifies the index, the stream footer, stream padding
// and the next stream header if any.
func (z *Reader) index(at int64) error {
	crc := crc32.NewIEEE()
	crc.Write([]byte{0})
	var vbuf [9]byte
	readVar := func(what string) (uint64, error) {
		for i := range vbuf {
			b, err := z.in.readByte()
			if err != nil {
				return 0, z.fail(z.in.off, fmt.Errorf("index: %s: %w", what, err))
			}
			vbuf[i] = b
			if b&0x80 == 0 {
				crc.Write(vbuf[:i+1])
				v, _, err := uvarint(vbuf[:i+1])
				if err != nil {
					return 0, z.fail(z.in.off, fmt.Errorf("index: %s: %w", what, err))
				}
				return v, nil
			}
		}
		return 0, z.fail(z.in.off, fmt.Errorf("index: %s: bad variable-length integer", what))
	}
	n, err := readVar("number of records")
	if err != nil {
		return err
	}
	if n != uint64(len(z.records)) {
		return z.fail(at, fmt.Errorf("index lists %d blocks, the stream has %d", n, len(z.records)))
	}
	for i, r := range z.records {
		u, err := readVar("unpadded size")
		if err != nil {
			return err
		}
		c, err := readVar("uncompressed size")
		if err != nil {
			return err
		}
		if u != r.unpadded || c != r.uncompressed {
			return z.fail(z.in.off, fmt.Errorf("index: block %d has sizes %d/%d, the index says %d/%d", i, r.unpadded, r.uncompressed, u, c))
		}
	}
	for (z.in.off-at)%4 != 0 {
		b, err := z.in.readByte()
		if err != nil {
			return z.fail(z.in.off, fmt.Errorf("index padding: %w", err))
		}
		if b != 0 {
			return z.fail(z.in.off-1, errors.New("index padding: non-zero byte"))
		}
		crc.Write([]byte{0})
	}
	c := z.buf[:4]
	if err := z.in.readFull(c); err != nil {
		return z.fail(z.in.off, fmt.Errorf("index CRC32: %w", err))
	}
	if crc.Sum32() != binary.LittleEndian.Uint32(c) {
		return z.fail(z.in.off-4, errors.New("index: CRC32 mismatch"))
	}
	indexSize := z.in.off - at
	fat := z.in.off
	f := z.buf[:12]
	if err := z.in.readFull(f); err != nil {
		return z.fail(fat, fmt.Errorf("stream footer: %w", err))
	}
	if !bytes.Equal(f[10:], footerMagic) {
		return z.fail(fat, errors.New("stream footer: bad magic bytes"))
	}
	if crc32.ChecksumIEEE(f[4:10]) != binary.LittleEndian.Uint32(f) {
		return z.fail(fat, errors.New("stream footer: CRC32 mismatch"))
	}
	if f[8] != z.flags[0] || f[9] != z.flags[1] {
		return z.fail(fat, errors.New("stream footer: flags differ from the stream header"))
	}
	if back := (int64(binary.LittleEndian.Uint32(f[4:])) + 1) * 4; back != indexSize {
		return z.fail(fat, fmt.Errorf("stream footer: backward size %d, the index has %d bytes", back, indexSize))
	}
	// Stream padding (multiples of four zero bytes), then EOF or a stream.
	pat := z.in.off
	for {
		b, err := z.in.r.Peek(1)
		if len(b) == 0 {
			if err == io.EOF {
				if (z.in.off-pat)%4 != 0 {
					return z.fail(z.in.off, errors.New("stream padding: not a multiple of four bytes"))
				}
				z.err = io.EOF
				return io.EOF
			}
			return z.fail(z.in.off, err)
		}
		if b[0] != 0 {
			break
		}
		z.in.r.ReadByte()
		z.in.off++
	}
	if (z.in.off-pat)%4 != 0 {
		return z.fail(z.in.off, errors.New("stream padding: not a multiple of four bytes"))
	}
	return z.streamHeader()
}
