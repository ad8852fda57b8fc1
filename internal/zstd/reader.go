package zstd

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

const (
	// MaxWindowSize is the largest window a frame may ask for: 2 GiB, what
	// `zstd --long=31` uses. The history kept grows with the data, up to
	// the window, and is never allocated up front.
	MaxWindowSize = 1 << 31

	maxBlockSize = 128 << 10
	// slack is room past the end of the literals and the output, so that
	// short copies can move 16 bytes at a time.
	slack = 64

	frameMagic     = 0xFD2FB528
	skippableMagic = 0x184D2A50 // to 0x184D2A5F
)

var (
	// ErrDictionary is the error for a frame that needs a dictionary.
	ErrDictionary = errors.New("dictionaries not supported")
	// ErrWindowTooLarge is the error for a frame whose window is above
	// MaxWindowSize.
	ErrWindowTooLarge = errors.New("window too large")
	// ErrChecksum is the error for content that does not match its
	// frame's checksum.
	ErrChecksum = errors.New("content checksum mismatch")
)

// Error is a decoding error at an offset of the compressed stream.
type Error struct {
	Offset int64 // where in the compressed stream: the frame or block concerned
	Err    error
}

func (e *Error) Error() string {
	return fmt.Sprintf("zstd: at compressed byte %d: %v", e.Offset, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// errorf makes a corruption error, given its offset by the caller.
func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// Reader decompresses a Zstandard stream: any number of frames, skippable
// frames among them.
type Reader struct {
	in  *bufio.Reader
	off int64 // bytes of the compressed stream consumed
	err error // sticky: io.EOF at the end of the stream

	inFrame  bool
	last     bool   // the frame's last block was read
	window   uint64 // the frame's window size
	maxCap   int    // the history's largest capacity for this window
	checksum bool
	size     int64 // the frame's content size, or -1
	produced int64
	xx       xxhash64

	hist     []byte // history then the output not yet read
	rd       int    // hist[rd:] is not read yet
	blockEnd int    // where the current block's output must end

	lits   [maxBlockSize + slack]byte
	nlits  int
	huff   huffTable
	wtab   [64]fseEntry
	ftab   [512]fseEntry
	own    [3]seqTable // the tables in use, in the order of kindLL, kindOF, kindML
	have   [3]bool     // whether own[k] holds a table to repeat
	predef [3]*seqTable
	rep    [3]uint32
	block  []byte
	seqs   []sequence
}

// NewReader returns a Reader that decompresses r. It reads r through a
// buffer of its own, so it may read past the end of the Zstandard data.
func NewReader(r io.Reader) *Reader {
	z := new(Reader)
	z.Reset(r)
	return z
}

// Reset makes z decompress r from its start, keeping z's buffers.
func (z *Reader) Reset(r io.Reader) {
	if z.in == nil {
		z.in = bufio.NewReaderSize(r, 256<<10)
	} else {
		z.in.Reset(r)
	}
	z.off = 0
	z.err = nil
	z.inFrame = false
	z.hist = z.hist[:0]
	z.rd = 0
}

// Close releases z's history; z can be Reset and used again.
func (z *Reader) Close() error {
	z.hist = nil
	z.rd = 0
	if z.err == nil {
		z.err = errors.New("zstd: read after Close")
	}
	return nil
}

// Read reads decompressed bytes.
func (z *Reader) Read(p []byte) (int, error) {
	for {
		if z.rd < len(z.hist) {
			n := copy(p, z.hist[z.rd:])
			z.rd += n
			return n, nil
		}
		if z.err != nil {
			return 0, z.err
		}
		if len(p) == 0 {
			return 0, nil
		}
		z.err = z.step()
	}
}

// WriteTo writes all the decompressed bytes to w.
func (z *Reader) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for {
		if z.rd < len(z.hist) {
			n, err := w.Write(z.hist[z.rd:])
			z.rd += n
			total += int64(n)
			if err != nil {
				return total, err
			}
			continue
		}
		if z.err != nil {
			if z.err == io.EOF {
				return total, nil
			}
			return total, z.err
		}
		z.err = z.step()
	}
}

// fail wraps a corruption error with its offset.
func (z *Reader) fail(at int64, err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return &Error{Offset: at, Err: err}
}

// readFull reads exactly len(p) bytes of the compressed stream.
func (z *Reader) readFull(p []byte) error {
	n, err := io.ReadFull(z.in, p)
	z.off += int64(n)
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return err
}

// step decodes the next block, frame header or skippable frame.
func (z *Reader) step() error {
	if !z.inFrame {
		return z.frameHeader()
	}
	if z.last {
		return z.frameEnd()
	}
	return z.nextBlock()
}

func (z *Reader) frameHeader() error {
	at := z.off
	var b [14]byte
	n, err := io.ReadFull(z.in, b[:4])
	z.off += int64(n)
	if err == io.EOF {
		return io.EOF
	}
	if err != nil {
		return z.fail(at, fmt.Errorf("frame magic number: %w", err))
	}
	magic := binary.LittleEndian.Uint32(b[:4])
	if magic&^0xF == skippableMagic {
		if err := z.readFull(b[:4]); err != nil {
			return z.fail(at, fmt.Errorf("skippable frame: %w", err))
		}
		size := int64(binary.LittleEndian.Uint32(b[:4]))
		d, err := z.in.Discard(int(size))
		z.off += int64(d)
		if err != nil {
			return z.fail(at, fmt.Errorf("skippable frame of %d bytes: %w", size, io.ErrUnexpectedEOF))
		}
		return nil
	}
	if magic != frameMagic {
		return z.fail(at, fmt.Errorf("not a Zstandard frame (magic number %#08x)", magic))
	}
	if err := z.readFull(b[:1]); err != nil {
		return z.fail(at, fmt.Errorf("frame header: %w", err))
	}
	fhd := b[0]
	fcsFlag := fhd >> 6
	single := fhd&0x20 != 0
	if fhd&0x08 != 0 {
		return z.fail(at, errors.New("frame header: reserved bit set"))
	}
	didSize := [4]int{0, 1, 2, 4}[fhd&3]
	fcsSize := [4]int{0, 2, 4, 8}[fcsFlag]
	if fcsFlag == 0 && single {
		fcsSize = 1
	}
	wdSize := 1
	if single {
		wdSize = 0
	}
	h := b[:wdSize+didSize+fcsSize]
	if err := z.readFull(h); err != nil {
		return z.fail(at, fmt.Errorf("frame header: %w", err))
	}
	var window uint64
	if !single {
		exp, mant := uint64(h[0]>>3), uint64(h[0]&7)
		base := uint64(1) << (10 + exp)
		window = base + base/8*mant
		h = h[1:]
	}
	var did uint32
	for i := didSize - 1; i >= 0; i-- {
		did = did<<8 | uint32(h[i])
	}
	h = h[didSize:]
	if did != 0 {
		return z.fail(at, fmt.Errorf("frame needs dictionary %d: %w", did, ErrDictionary))
	}
	z.size = -1
	if fcsSize > 0 {
		var fcs uint64
		for i := fcsSize - 1; i >= 0; i-- {
			fcs = fcs<<8 | uint64(h[i])
		}
		if fcsSize == 2 {
			fcs += 256
		}
		if fcs > 1<<62 {
			return z.fail(at, fmt.Errorf("frame content size %d", fcs))
		}
		z.size = int64(fcs)
		if single {
			window = fcs
		}
	}
	if window > MaxWindowSize {
		return z.fail(at, fmt.Errorf("window of %d bytes, above %d: %w", window, MaxWindowSize, ErrWindowTooLarge))
	}
	z.window = window
	extra := max(window/4, min(window, 64<<20), 1<<20)
	z.maxCap = int(window+extra) + maxBlockSize + slack
	z.checksum = fhd&0x04 != 0
	if z.checksum {
		z.xx.reset()
	}
	z.inFrame = true
	z.last = false
	z.produced = 0
	z.hist = z.hist[:0]
	z.rd = 0
	z.huff.valid = false
	z.have = [3]bool{}
	z.rep = [3]uint32{1, 4, 8}
	return nil
}

// frameEnd checks the content size and checksum of the frame just read.
func (z *Reader) frameEnd() error {
	at := z.off
	if z.size >= 0 && z.produced != z.size {
		return z.fail(at, fmt.Errorf("frame has %d bytes of content, its header says %d", z.produced, z.size))
	}
	if z.checksum {
		var b [4]byte
		if err := z.readFull(b[:]); err != nil {
			return z.fail(at, fmt.Errorf("content checksum: %w", err))
		}
		if got, want := uint32(z.xx.sum()), binary.LittleEndian.Uint32(b[:]); got != want {
			return z.fail(at, fmt.Errorf("%w: %08x, frame says %08x", ErrChecksum, got, want))
		}
	}
	z.inFrame = false
	return nil
}

// makeRoom makes room in the history for one more block, dropping what
// is both read and out of the window.
func (z *Reader) makeRoom() {
	const room = maxBlockSize + slack
	if cap(z.hist)-len(z.hist) >= room {
		return
	}
	keep := len(z.hist)
	if uint64(keep) > z.window {
		keep = int(z.window)
	}
	drop := len(z.hist) - keep
	if drop > 0 && cap(z.hist) >= z.maxCap {
		n := copy(z.hist[:keep], z.hist[drop:])
		z.hist = z.hist[:n]
		z.rd = n
		return
	}
	c := cap(z.hist)
	if c < 64<<20 {
		c *= 2
	} else {
		c += c / 4
	}
	c = max(c, keep+room, 256<<10)
	if c > z.maxCap {
		c = max(z.maxCap, keep+room)
	}
	h := make([]byte, keep, c)
	copy(h, z.hist[drop:])
	z.hist = h
	z.rd = keep
}

func (z *Reader) nextBlock() error {
	at := z.off
	var b [3]byte
	if err := z.readFull(b[:]); err != nil {
		return z.fail(at, fmt.Errorf("block header: %w", err))
	}
	h := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16
	z.last = h&1 != 0
	typ := (h >> 1) & 3
	size := int(h >> 3)
	z.makeRoom()
	start := len(z.hist)
	z.blockEnd = start + maxBlockSize
	switch typ {
	case 0: // raw
		if size > maxBlockSize {
			return z.fail(at, fmt.Errorf("raw block of %d bytes, above %d", size, maxBlockSize))
		}
		z.hist = z.hist[:start+size]
		if err := z.readFull(z.hist[start:]); err != nil {
			z.hist = z.hist[:start]
			return z.fail(at, fmt.Errorf("raw block: %w", err))
		}
	case 1: // RLE
		if size > maxBlockSize {
			return z.fail(at, fmt.Errorf("RLE block of %d bytes, above %d", size, maxBlockSize))
		}
		if err := z.readFull(b[:1]); err != nil {
			return z.fail(at, fmt.Errorf("RLE block: %w", err))
		}
		z.hist = z.hist[:start+size]
		out := z.hist[start:]
		for i := range out {
			out[i] = b[0]
		}
	case 2: // compressed
		if size > maxBlockSize {
			return z.fail(at, fmt.Errorf("compressed block of %d bytes, above %d", size, maxBlockSize))
		}
		if cap(z.block) < size {
			z.block = make([]byte, maxBlockSize)
		}
		in := z.block[:size]
		if err := z.readFull(in); err != nil {
			return z.fail(at, fmt.Errorf("compressed block: %w", err))
		}
		if err := z.compressed(in); err != nil {
			z.hist = z.hist[:start]
			return z.fail(at, fmt.Errorf("compressed block: %w", err))
		}
	default:
		return z.fail(at, errors.New("reserved block type"))
	}
	out := z.hist[start:]
	z.produced += int64(len(out))
	if z.size >= 0 && z.produced > z.size {
		z.hist = z.hist[:start]
		return z.fail(at, fmt.Errorf("frame content beyond the %d bytes its header says", z.size))
	}
	if z.checksum {
		z.xx.write(out)
	}
	return nil
}

// compressed decodes a compressed block.
func (z *Reader) compressed(in []byte) error {
	n, err := z.readLiterals(in)
	if err != nil {
		return fmt.Errorf("literals: %w", err)
	}
	if err := z.readSequences(in[n:]); err != nil {
		return fmt.Errorf("sequences: %w", err)
	}
	return nil
}
