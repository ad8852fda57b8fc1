package zstd

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	kzstd "github.com/klauspost/compress/zstd"
)

// TestCLI decodes what the zstd command writes, at the levels and window
// sizes SMT-LIB archives may come with.
func TestCLI(t *testing.T) {
	text := smtText(1<<20, 11)
	for _, c := range []struct {
		name  string
		src   []byte
		flags []string
	}{
		{"l1", text, []string{"-1"}},
		{"l3", text, []string{"-3"}},
		{"l19", text, []string{"-19"}},
		{"ultra22", text, []string{"--ultra", "-22"}},
		{"long27", append(append(smtText(600<<10, 12), randomBytes(300<<10, 13)...), smtText(600<<10, 12)...), []string{"-3", "--long=27"}},
		{"no-check", text, []string{"-3", "--no-check"}},
		{"empty", nil, []string{"-3"}},
		{"one-byte", []byte{'('}, []string{"-3"}},
		{"random", randomBytes(400<<10, 14), []string{"-3"}},
		{"zeros", make([]byte, 3<<20), []string{"-19"}},
		{"block-1", text[:128<<10-1], []string{"-3"}},
		{"block", text[:128<<10], []string{"-3"}},
		{"block+1", text[:128<<10+1], []string{"-3"}},
		{"stream", text[:300<<10], []string{"-3", "--no-content-size"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkRoundTrip(t, c.name, zstdCLI(t, c.src, c.flags...), c.src)
		})
	}
}

// TestFrames decodes concatenated frames and skippable frames.
func TestFrames(t *testing.T) {
	a, b := smtText(200<<10, 21), smtText(50<<10, 22)
	za, zb := zstdCLI(t, a, "-3"), zstdCLI(t, b, "-19")
	skip := func(n int) []byte {
		f := binary.LittleEndian.AppendUint32(nil, skippableMagic+7)
		f = binary.LittleEndian.AppendUint32(f, uint32(n))
		return append(f, bytes.Repeat([]byte{0xAB}, n)...)
	}
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	checkRoundTrip(t, "two frames", cat(za, zb), cat(a, b))
	checkRoundTrip(t, "skippable between", cat(za, skip(100), zb), cat(a, b))
	checkRoundTrip(t, "skippable only", skip(0), nil)
	checkRoundTrip(t, "skippable first and last", cat(skip(5), za, skip(70000)), a)
	checkRoundTrip(t, "empty input", nil, nil)
	if _, err := decode(cat(za, skip(3)[:6])); err == nil {
		t.Error("truncated skippable frame: no error")
	}
}

// TestHeaderErrors checks the errors for what we do not decode.
func TestHeaderErrors(t *testing.T) {
	frame := func(fhd byte, rest ...byte) []byte {
		f := binary.LittleEndian.AppendUint32(nil, frameMagic)
		return append(append(f, fhd), rest...)
	}
	for _, c := range []struct {
		name string
		in   []byte
		want string
		is   error
	}{
		{"dictionary", frame(0x01, 0x58, 0x2A, 1, 0, 0), "dictionaries not supported", ErrDictionary},
		{"window 4 GiB", frame(0x00, (32-10)<<3, 1, 0, 0), "window", ErrWindowTooLarge},
		{"reserved bit", frame(0x08, 0x58), "reserved bit", nil},
		{"bad magic", []byte("not zstd at all"), "not a Zstandard frame", nil},
		{"short magic", []byte{0x28, 0xB5}, "magic number", io.ErrUnexpectedEOF},
		{"no blocks", frame(0x00, 0x58), "block header", io.ErrUnexpectedEOF},
		{"reserved block", frame(0x00, 0x58, 0x07, 0, 0), "reserved block type", nil},
		{"raw block cut", frame(0x00, 0x58, 0x01|10<<3, 0, 0, 'a', 'b'), "raw block", io.ErrUnexpectedEOF},
		{"content size", frame(0x20, 3, 0x01|2<<3, 0, 0, 'a', 'b'), "content", nil},
		{"checksum", frame(0x04, 0x58, 0x01|2<<3, 0, 0, 'a', 'b', 1, 2, 3, 4), "checksum", ErrChecksum},
	} {
		_, err := decode(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) || (c.is != nil && !errors.Is(err, c.is)) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
		var ze *Error
		if err != nil && !errors.As(err, &ze) {
			t.Errorf("%s: %v is not a *zstd.Error", c.name, err)
		}
	}
	// A 2 GiB window is accepted (zstd --long=31), and nothing of that
	// size is allocated for a small frame.
	in := frame(0x00, (31-10)<<3, 0x01|2<<3, 0, 0, 'a', 'b')
	if got, err := decode(in); err != nil || string(got) != "ab" {
		t.Errorf("2 GiB window: %q %v", got, err)
	}
}

// TestCorrupt flips, cuts and zeroes compressed data: each gives an error
// or, where the damage escapes the format's checks, the checksum catches
// it; never a panic, never wrong output without an error.
func TestCorrupt(t *testing.T) {
	src := smtText(400<<10, 31)
	for _, comp := range [][]byte{zstdCLI(t, src, "-3"), zstdCLI(t, src, "-19"), encode(t, src, kzstd.WithEncoderLevel(kzstd.SpeedFastest))} {
		for cut := 0; cut < len(comp); cut += 1 + len(comp)/97 {
			if _, err := decode(comp[:cut]); err == nil && cut > 0 {
				t.Fatalf("cut at %d of %d: no error", cut, len(comp))
			}
		}
		for i := 0; i < 600; i++ {
			bad := bytes.Clone(comp)
			pos := (i*7919 + 13) % len(bad)
			bad[pos] ^= byte(1 << (i % 8))
			got, err := decode(bad)
			if err == nil && !bytes.Equal(got, src) {
				t.Fatalf("bit flipped at %d: wrong output and no error", pos)
			}
		}
	}
}

// TestErrorOffset checks that a corrupt block is reported at its offset.
func TestErrorOffset(t *testing.T) {
	comp := zstdCLI(t, smtText(300<<10, 41), "-3", "--no-check")
	// Find the second block header and give it a reserved type.
	pos := 4 + 1 + 1 + 4 // magic, descriptor, window, 4-byte content size
	if comp[4]>>6 != 2 {
		t.Skipf("unexpected frame header %#x", comp[4])
	}
	h := int(comp[pos]) | int(comp[pos+1])<<8 | int(comp[pos+2])<<16
	second := pos + 3 + h>>3
	comp[second] |= 0x06
	_, err := decode(comp)
	var ze *Error
	if !errors.As(err, &ze) || ze.Offset != int64(second) {
		t.Fatalf("got %v, want an error at offset %d", err, second)
	}
	if !strings.Contains(err.Error(), fmt.Sprintf("at compressed byte %d", second)) {
		t.Errorf("message %q lacks the offset", err)
	}
}

// TestXXHash checks XXH64 against published values.
func TestXXHash(t *testing.T) {
	for _, c := range []struct {
		in   string
		want uint64
	}{
		{"", 0xef46db3751d8e999},
		{"a", 0xd24ec4f1a98c6e5b},
		{"abc", 0x44bc2cf5ad770999},
		{"Nobody inspects the spammish repetition", 0xfbcea83c8a378bf1},
	} {
		var h xxhash64
		h.reset()
		h.write([]byte(c.in))
		if got := h.sum(); got != c.want {
			t.Errorf("XXH64(%q) = %#x, want %#x", c.in, got, c.want)
		}
	}
	// Written in pieces or at once, the same.
	data := randomBytes(1000, 9)
	var one, parts xxhash64
	one.reset()
	one.write(data)
	parts.reset()
	for i := 0; i < len(data); i += 37 {
		parts.write(data[i:min(i+37, len(data))])
	}
	if one.sum() != parts.sum() {
		t.Error("XXH64 differs when written in pieces")
	}
}

// TestPredefinedTables checks the predefined tables against the decoding
// tables of RFC 8878 Appendix A (first states of each).
func TestPredefinedTables(t *testing.T) {
	var z Reader
	for _, c := range []struct {
		k    int
		want [][4]int // state: symbol's base value, extra bits, nb, next
	}{
		{kindLL, [][4]int{{0, 0, 4, 0}, {0, 0, 4, 16}, {1, 0, 5, 32}, {3, 0, 5, 0}, {4, 0, 5, 0}, {6, 0, 5, 0}}},
		{kindML, [][4]int{{3, 0, 6, 0}, {4, 0, 4, 0}, {5, 0, 5, 32}, {6, 0, 5, 0}, {8, 0, 5, 0}}},
		{kindOF, [][4]int{{1 << 0, 0, 5, 0}, {1 << 6, 6, 4, 0}, {1 << 9, 9, 5, 0}, {1 << 15, 15, 5, 0}}},
	} {
		if _, err := z.readSeqTable(c.k, 0, nil); err != nil {
			t.Fatal(err)
		}
		for s, w := range c.want {
			e := z.own[c.k].e[s]
			if got := [4]int{int(e.base), int(e.extra), int(e.nb), int(e.next)}; got != w {
				t.Errorf("%s state %d: %v, want %v", seqName[c.k], s, got, w)
			}
		}
	}
}

// TestMemory checks that the history grows with the data, not with the
// window a frame declares: zstd --long=27 declares 128 MiB.
func TestMemory(t *testing.T) {
	src := append(smtText(1<<20, 51), smtText(1<<20, 51)...)
	comp := zstdCLI(t, src, "-3", "--long=27", "--no-content-size")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	checkRoundTrip(t, "long=27", comp, src)
	runtime.ReadMemStats(&after)
	t.Logf("decoding %d bytes (window 128 MiB) allocated %d bytes", len(src), after.TotalAlloc-before.TotalAlloc)
	if got := after.TotalAlloc - before.TotalAlloc; got > 24<<20 {
		t.Errorf("decoding %d bytes allocated %d bytes", len(src), got)
	}
}

// TestSmallReads reads the input a byte at a time and the output in
// small pieces.
func TestSmallReads(t *testing.T) {
	src := smtText(300<<10, 61)
	comp := zstdCLI(t, src, "-19")
	z := NewReader(iotest.OneByteReader(bytes.NewReader(comp)))
	var got bytes.Buffer
	buf := make([]byte, 7)
	for {
		n, err := z.Read(buf)
		got.Write(buf[:n])
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(got.Bytes(), src) {
		t.Fatal("wrong output")
	}
	// Reset reuses the reader for another stream.
	z.Reset(bytes.NewReader(comp))
	if all, err := io.ReadAll(z); err != nil || !bytes.Equal(all, src) {
		t.Fatalf("after Reset: %d bytes, %v", len(all), err)
	}
	if err := iotest.TestReader(NewReader(bytes.NewReader(comp)), src); err != nil {
		t.Error(err)
	}
}
