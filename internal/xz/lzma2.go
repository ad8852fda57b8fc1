package xz

import (
	"errors"
	"fmt"
)

// dict is the LZMA history: a ring that grows with the data up to the
// declared dictionary size. Bytes [rd, pos) are decoded but not yet read.
type dict struct {
	buf  []byte
	size int // declared dictionary size
	pos  int // write position in buf
	rd   int // read position in buf
	full int // bytes of history since the last reset, at most size
	base int // pos at the last reset, modulo 16
}

func (d *dict) reset() {
	d.pos, d.rd, d.full, d.base = 0, 0, 0, 0
}

// room makes space after pos and returns how much there is, 0 if the
// unread bytes must be read first.
func (d *dict) room() int {
	if d.pos == len(d.buf) {
		if len(d.buf) < d.size {
			n := min(d.size, max(2*len(d.buf), 64<<10))
			nb := make([]byte, n)
			copy(nb, d.buf)
			d.buf = nb
		} else if d.rd == d.pos {
			d.pos, d.rd = 0, 0
		} else {
			return 0
		}
	}
	return len(d.buf) - d.pos
}

// lzma2 decodes the LZMA2 chunks of one block.
type lzma2 struct {
	in         *input
	d          dict
	lz         lzmaDecoder
	comp       []byte // the packed data of the current LZMA chunk
	left       int    // unpacked bytes of the current chunk still to decode
	lzmaChunk  bool   // the current chunk is LZMA (not uncompressed)
	needReset  bool   // the next chunk must reset the dictionary
	needProps  bool   // the next LZMA chunk must set properties
	chunkStart int64
	end        bool
}

func (l *lzma2) reset(in *input, size int) {
	l.in = in
	l.d.size = max(size, 4096)
	if len(l.d.buf) > l.d.size {
		l.d.buf = l.d.buf[:l.d.size]
	}
	l.d.reset()
	l.left = 0
	l.needReset, l.needProps = true, true
	l.end = false
}

// read copies decoded bytes to p; 0 with a nil error is the end of the
// block's data.
func (l *lzma2) read(p []byte) (int, error) {
	for {
		if l.d.rd < l.d.pos {
			n := copy(p, l.d.buf[l.d.rd:l.d.pos])
			l.d.rd += n
			return n, nil
		}
		if l.left == 0 {
			if l.end {
				return 0, nil
			}
			if err := l.chunkEnd(); err != nil {
				return 0, err
			}
			if err := l.chunkHeader(); err != nil {
				return 0, err
			}
			continue
		}
		room := l.d.room()
		n := min(room, l.left)
		if l.lzmaChunk {
			if err := l.lz.decode(&l.d, n, l.left); err != nil {
				return 0, fmt.Errorf("LZMA chunk at %d: %w", l.chunkStart, err)
			}
		} else {
			if err := l.in.readFull(l.d.buf[l.d.pos : l.d.pos+n]); err != nil {
				return 0, fmt.Errorf("uncompressed chunk at %d: %w", l.chunkStart, err)
			}
			l.d.pos += n
			l.d.full = min(l.d.full+n, l.d.size)
		}
		l.left -= n
	}
}

// chunkEnd checks that an LZMA chunk used exactly its packed bytes.
func (l *lzma2) chunkEnd() error {
	if !l.lzmaChunk {
		return nil
	}
	l.lzmaChunk = false
	if err := l.lz.rc.finish(); err != nil {
		return fmt.Errorf("LZMA chunk at %d: %w", l.chunkStart, err)
	}
	return nil
}

func (l *lzma2) chunkHeader() error {
	l.chunkStart = l.in.off
	c, err := l.in.readByte()
	if err != nil {
		return fmt.Errorf("LZMA2 chunk header: %w", err)
	}
	if c == 0 {
		l.end = true
		return nil
	}
	if l.needReset && c != 1 && c < 0xe0 {
		return fmt.Errorf("LZMA2 chunk at %d: first chunk does not reset the dictionary (control %#02x)", l.chunkStart, c)
	}
	if c >= 0xe0 || c == 1 {
		// A dictionary reset: the next LZMA chunk sets properties.
		l.needReset, l.needProps = false, true
		l.d.full = 0
		l.d.base = l.d.pos & 15
	}
	var h [5]byte
	if c < 0x80 {
		if c > 2 {
			return fmt.Errorf("LZMA2 chunk at %d: bad control byte %#02x", l.chunkStart, c)
		}
		if err := l.in.readFull(h[:2]); err != nil {
			return fmt.Errorf("LZMA2 chunk header: %w", err)
		}
		l.left = (int(h[0])<<8 | int(h[1])) + 1
		l.lzmaChunk = false
		return nil
	}
	n := 4
	if c >= 0xc0 {
		n = 5
	}
	if err := l.in.readFull(h[:n]); err != nil {
		return fmt.Errorf("LZMA2 chunk header: %w", err)
	}
	l.left = (int(c&0x1f)<<16 | int(h[0])<<8 | int(h[1])) + 1
	packed := (int(h[2])<<8 | int(h[3])) + 1
	switch {
	case c >= 0xc0:
		if err := l.lz.setProps(h[4]); err != nil {
			return fmt.Errorf("LZMA2 chunk at %d: %w", l.chunkStart, err)
		}
		l.needProps = false
		l.lz.resetState()
	case l.needProps:
		return fmt.Errorf("LZMA2 chunk at %d: no properties set (control %#02x)", l.chunkStart, c)
	case c >= 0xa0:
		l.lz.resetState()
	}
	if cap(l.comp) < packed {
		l.comp = make([]byte, packed, 64<<10)
	}
	l.comp = l.comp[:packed]
	if err := l.in.readFull(l.comp); err != nil {
		return fmt.Errorf("LZMA chunk at %d: %w", l.chunkStart, err)
	}
	if err := l.lz.rc.init(l.comp); err != nil {
		return fmt.Errorf("LZMA chunk at %d: %w", l.chunkStart, err)
	}
	l.lzmaChunk = true
	return nil
}

var errRange = errors.New("range coder: data past the chunk's packed size")
