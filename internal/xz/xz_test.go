package xz

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"strings"
	"testing"
	"testing/iotest"

	uxz "github.com/ulikunitz/xz"

	"github.com/smtarena/smtarena/internal/testenv"
)

// xzCLI compresses src with the xz command-line tool and the given flags,
// skipping the test if the tool is missing.
func xzCLI(t testing.TB, src []byte, flags ...string) []byte {
	t.Helper()
	return testenv.Filter(t, "xz", "xz-utils", src, append([]string{"-q", "-c"}, flags...)...)
}

// ulikunitz compresses src with ulikunitz's writer.
func ulikunitz(t testing.TB, src []byte, cfg uxz.WriterConfig) []byte {
	t.Helper()
	return testenv.Encode(t, src, cfg.NewWriter)
}

func decode(in []byte) ([]byte, error) {
	r, err := NewReader(bytes.NewReader(in))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

func randomBytes(n int, seed int64) []byte {
	b := make([]byte, n)
	rand.New(rand.NewSource(seed)).Read(b)
	return b
}

// smtText is SMT-LIB-like text: compressible, with long and short matches.
func smtText(n int, seed int64) []byte {
	rng := rand.New(rand.NewSource(seed))
	var b strings.Builder
	ops := []string{"bvadd", "bvmul", "and", "or", "=>", "ite", "select", "store", "bvult", "="}
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "(declare-fun x%d () (_ BitVec %d))\n", rng.Intn(1000), 1<<rng.Intn(7))
		fmt.Fprintf(&b, "(assert (%s x%d (%s x%d #x%08x)))\n", ops[rng.Intn(len(ops))], rng.Intn(1000), ops[rng.Intn(len(ops))], rng.Intn(1000), rng.Uint32())
	}
	return []byte(b.String()[:n])
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func same(t *testing.T, name string, in, want []byte) {
	t.Helper()
	got, err := decode(in)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: decoded %d bytes, want %d (first difference at %d)", name, len(got), len(want), firstDiff(got, want))
	}
}

// TestXZCommand decodes what the xz command writes at each preset, check
// type, with several blocks and threads, for inputs of many shapes.
func TestXZCommand(t *testing.T) {
	inputs := map[string][]byte{
		"empty":      nil,
		"one":        []byte("a"),
		"random":     randomBytes(300<<10, 1),
		"repetitive": bytes.Repeat([]byte("(assert true)\n"), 200<<10/14),
		"zeros":      make([]byte, 3<<20),
		"smt":        smtText(1<<20, 2),
	}
	// Sizes around the LZMA2 chunk limits: 64 KiB of uncompressed data
	// per uncompressed chunk, 2 MiB per LZMA chunk.
	for _, n := range []int{1<<16 - 1, 1 << 16, 1<<16 + 1, 2<<20 - 1, 2<<20 + 1} {
		inputs[fmt.Sprintf("random-%d", n)] = randomBytes(n, int64(n))
		inputs[fmt.Sprintf("smt-%d", n)] = smtText(n, int64(n))
	}
	flagSets := [][]string{{"-0"}, {"-1"}, {"-6"}, {"-9"}, {"-9e"},
		{"--check=none"}, {"--check=crc32"}, {"--check=crc64"}, {"--check=sha256"},
		{"-T2", "--block-size=300000"}, {"-1", "--block-size=5000"}}
	for name, src := range inputs {
		for _, flags := range flagSets {
			if len(src) > 300<<10 && flags[0] != "-0" && flags[0] != "-T2" && (name != "smt" || flags[0] != "-6") {
				continue // the large inputs at a few settings: the test stays fast
			}
			same(t, name+" "+strings.Join(flags, " "), xzCLI(t, src, flags...), src)
		}
	}
}

// TestConcatenated decodes several streams one after another, with and
// without stream padding, and as xz writes them.
func TestConcatenated(t *testing.T) {
	a, b := smtText(100<<10, 3), randomBytes(5000, 4)
	xa, xb := xzCLI(t, a, "--check=crc32"), xzCLI(t, b, "--check=sha256")
	empty := xzCLI(t, nil)
	want := append(append([]byte{}, a...), b...)
	same(t, "two streams", append(append([]byte{}, xa...), xb...), want)
	same(t, "with padding", append(append(append([]byte{}, xa...), make([]byte, 8)...), xb...), want)
	same(t, "trailing padding", append(append(append([]byte{}, xa...), xb...), make([]byte, 4)...), want)
	same(t, "empty streams", append(append(append([]byte{}, empty...), xa...), empty...), a)
	if _, err := decode(append(append([]byte{}, xa...), 0, 0)); err == nil {
		t.Error("stream padding of 2 bytes accepted")
	}
	if _, err := decode(append(append([]byte{}, xa...), 'x')); err == nil {
		t.Error("garbage after a stream accepted")
	}
}

// TestUlikunitz decodes what ulikunitz's writer writes.
func TestUlikunitz(t *testing.T) {
	for i, src := range [][]byte{nil, []byte("x"), smtText(700<<10, 5), randomBytes(200<<10, 6)} {
		for _, cfg := range []uxz.WriterConfig{{}, {CheckSum: uxz.None}, {CheckSum: uxz.CRC32}, {CheckSum: uxz.SHA256, BlockSize: 50000}, {DictCap: 1 << 16}} {
			same(t, fmt.Sprintf("input %d %+v", i, cfg), ulikunitz(t, src, cfg), src)
		}
	}
}

// TestCorrupt flips bits and truncates: always an error (the checks catch
// what decodes), never a panic or a hang.
func TestCorrupt(t *testing.T) {
	src := smtText(40<<10, 7)
	for _, check := range []string{"crc32", "crc64", "sha256"} {
		in := xzCLI(t, src, "--check="+check, "--block-size=10000")
		rng := rand.New(rand.NewSource(8))
		for i := 0; i < 300; i++ {
			bad := bytes.Clone(in)
			k := rng.Intn(len(bad))
			bad[k] ^= 1 << rng.Intn(8)
			if got, err := decode(bad); err == nil {
				t.Fatalf("%s: bit flip at %d accepted (%d bytes, equal %v)", check, k, len(got), bytes.Equal(got, src))
			}
		}
		for n := 0; n < len(in); n += 1 + n/8 {
			if _, err := decode(in[:n]); err == nil {
				t.Fatalf("%s: truncated to %d of %d bytes accepted", check, n, len(in))
			}
		}
	}
}

// TestErrors names the faults of hand-made or altered streams.
func TestErrors(t *testing.T) {
	src := smtText(10000, 9)
	in := xzCLI(t, src)
	cases := []struct {
		name string
		in   []byte
		want string
	}{
		{"not xz", []byte("hello, world"), "not an xz stream"},
		{"empty input", nil, "stream header"},
		{"delta", xzCLI(t, src, "--delta=dist=4", "--lzma2"), "filter Delta: filter not supported"},
		{"bcj", xzCLI(t, src, "--x86", "--lzma2"), "filter BCJ x86: filter not supported"},
		{"truncated", in[:len(in)-3], "unexpected EOF"},
	}
	for _, c := range cases {
		_, err := decode(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	// A flipped content byte of a block without check is caught by the
	// CRC32 of ... nothing: with a check, ErrCheck.
	withCRC := xzCLI(t, []byte(strings.Repeat("abc", 100)), "--check=crc64", "-0")
	var e *Error
	for k := 12; k < len(withCRC); k++ {
		bad := bytes.Clone(withCRC)
		bad[k] ^= 0x10
		_, err := decode(bad)
		if err == nil {
			t.Fatalf("flip at %d accepted", k)
		}
		if !errors.As(err, &e) || e.Offset < 0 || e.Offset > int64(len(bad)) {
			t.Fatalf("flip at %d: %v has no offset in the input", k, err)
		}
	}
}

// TestSmallDictionary wraps the ring many times (4 KiB dictionary), reads
// the input a byte at a time and the output in odd-sized pieces, so that
// matches stop at the ring's end and resume in the next Read.
func TestSmallDictionary(t *testing.T) {
	src := append(smtText(600<<10, 10), randomBytes(70<<10, 11)...)
	src = append(src, bytes.Repeat([]byte("(check-sat)\n"), 20000)...)
	in := xzCLI(t, src, "--lzma2=preset=6,dict=4KiB")
	r, err := NewReader(iotest.OneByteReader(bytes.NewReader(in)))
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	buf := make([]byte, 4099)
	for i := 1; ; i++ {
		n, err := r.Read(buf[:i%len(buf)+1])
		got = append(got, buf[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(got, src) {
		t.Fatalf("decoded %d bytes, want %d (first difference at %d)", len(got), len(src), firstDiff(got, src))
	}
	if len(r.lz.d.buf) != 4096 {
		t.Errorf("ring of %d bytes for a 4 KiB dictionary", len(r.lz.d.buf))
	}
}

// TestDictionaryMemory: the ring grows with the data, not to the declared
// size, and declared sizes above MaxDictSize are refused.
func TestDictionaryMemory(t *testing.T) {
	src := smtText(100<<10, 12)
	in := xzCLI(t, src, "-9e") // a 64 MiB dictionary
	r, err := NewReader(bytes.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, src) {
		t.Fatalf("%d bytes, %v", len(got), err)
	}
	if n := len(r.lz.d.buf); n > 2*len(src) || r.lz.d.size != 64<<20 {
		t.Errorf("ring of %d bytes (dictionary %d) for %d bytes of data", n, r.lz.d.size, len(src))
	}
	for _, c := range []struct {
		dictByte byte
		ok       bool
	}{{37, true}, {38, false}, {40, false}, {41, false}} {
		_, err := decode(setDictByte(t, in, c.dictByte))
		if c.ok && err != nil {
			t.Errorf("dictionary byte %d: %v", c.dictByte, err)
		}
		if !c.ok && (err == nil || (c.dictByte <= 40 && !errors.Is(err, ErrDictTooLarge))) {
			t.Errorf("dictionary byte %d: error %v", c.dictByte, err)
		}
	}
}

// setDictByte returns in with the LZMA2 dictionary byte of its first
// block header set to b (and the header's CRC32 fixed).
func setDictByte(t *testing.T, in []byte, b byte) []byte {
	out := bytes.Clone(in)
	size := (int(out[12]) + 1) * 4
	h := out[12 : 12+size]
	k := bytes.Index(h[2:], []byte{0x21, 1})
	if k < 0 {
		t.Fatal("no LZMA2 filter flags in the first block header")
	}
	h[2+k+2] = b
	binary.LittleEndian.PutUint32(h[size-4:], crc32.ChecksumIEEE(h[:size-4]))
	return out
}

// TestSharedArchives decodes every .xz file of the shared data (the
// official results archives, among them 2020's Job_infos.tar.xz) and
// compares with what `xz -dc` writes.
func TestSharedArchives(t *testing.T) {
	root := testenv.Shared(t, "official-results")
	files := testenv.Files(t, root, ".xz")
	if len(files) == 0 {
		t.Fatalf("no .xz files under %s", root)
	}
	xzCLI(t, nil) // skips without the xz command
	t.Logf("%d .xz files", len(files))
	for _, f := range files {
		want := sha256.New()
		cmd := exec.Command("xz", "-dc", f)
		cmd.Stdout = want
		if err := cmd.Run(); err != nil {
			t.Fatalf("xz -dc %s: %v", f, err)
		}
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		got := sha256.New()
		r, err := NewReader(fh)
		if err == nil {
			_, err = io.Copy(got, r)
		}
		fh.Close()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !bytes.Equal(got.Sum(nil), want.Sum(nil)) {
			t.Errorf("%s: content differs from xz -dc", f)
		}
	}
}

// TestSizesVerified alters the sizes an index or a block header gives
// (their CRC32 fixed), which the decoder checks against the data.
func TestSizesVerified(t *testing.T) {
	src := smtText(50000, 13)
	in := xzCLI(t, src, "-T2", "--block-size=20000") // block headers with both sizes
	// The index: the footer's backward size says where it starts.
	bad := bytes.Clone(in)
	back := (int(binary.LittleEndian.Uint32(bad[len(bad)-8:])) + 1) * 4
	idx := bad[len(bad)-12-back : len(bad)-12]
	_, n, err := uvarint(idx[1:]) // number of records
	if err != nil {
		t.Fatal(err)
	}
	_, m, err := uvarint(idx[1+n:]) // unpadded size of block 0
	if err != nil {
		t.Fatal(err)
	}
	idx[1+n+m] ^= 1 // uncompressed size of block 0
	binary.LittleEndian.PutUint32(idx[len(idx)-4:], crc32.ChecksumIEEE(idx[:len(idx)-4]))
	if _, err := decode(bad); err == nil || !strings.Contains(err.Error(), "index: block 0 has sizes") {
		t.Errorf("altered index: error %v", err)
	}
	// The first block header: flags 0xc0 (both sizes) then the
	// compressed size, then the uncompressed size.
	for _, field := range []int{0, 1} {
		bad := bytes.Clone(in)
		size := (int(bad[12]) + 1) * 4
		h := bad[12 : 12+size]
		if h[1]&0xc0 != 0xc0 {
			t.Fatalf("block header flags %#x: no sizes", h[1])
		}
		k := 2
		if field == 1 {
			_, n, err := uvarint(h[2:])
			if err != nil {
				t.Fatal(err)
			}
			k += n
		}
		h[k] ^= 1
		binary.LittleEndian.PutUint32(h[size-4:], crc32.ChecksumIEEE(h[:size-4]))
		if _, err := decode(bad); err == nil || !strings.Contains(err.Error(), "its header says") {
			t.Errorf("altered size %d in the block header: error %v", field, err)
		}
	}
}
