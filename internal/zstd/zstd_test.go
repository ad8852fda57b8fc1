package zstd

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	kzstd "github.com/klauspost/compress/zstd"

	"github.com/smtarena/smtarena/internal/testenv"
)

// decode decompresses all of src with our decoder.
func decode(src []byte) ([]byte, error) {
	return io.ReadAll(NewReader(bytes.NewReader(src)))
}

// encode compresses src with klauspost's encoder.
func encode(t testing.TB, src []byte, opts ...kzstd.EOption) []byte {
	t.Helper()
	return testenv.Encode(t, src, func(w io.Writer) (*kzstd.Encoder, error) { return kzstd.NewWriter(w, opts...) })
}

func checkRoundTrip(t *testing.T, name string, comp, want []byte) {
	t.Helper()
	got, err := decode(comp)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: decoded %d bytes, want %d (first difference at %d)", name, len(got), len(want), firstDiff(got, want))
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// smtText generates SMT-LIB-like text: repetitive but not trivially so.
func smtText(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	var b bytes.Buffer
	b.WriteString("(set-info :smt-lib-version 2.6)\n(set-logic QF_LIA)\n")
	for i := 0; b.Len() < n; i++ {
		switch r.IntN(4) {
		case 0:
			fmt.Fprintf(&b, "(declare-fun x%d () Int)\n", i)
		case 1:
			fmt.Fprintf(&b, "(assert (<= (+ x%d (* %d x%d)) %d))\n", r.IntN(i+1), r.IntN(100)-50, r.IntN(i+1), r.IntN(100000))
		case 2:
			fmt.Fprintf(&b, "(assert (or (not (= x%d x%d)) (>= x%d %d)))\n", r.IntN(i+1), r.IntN(i+1), r.IntN(i+1), r.IntN(1000))
		default:
			fmt.Fprintf(&b, "(assert (let ((?v%d (- x%d x%d))) (and (< ?v%d %d) (> ?v%d (- %d)))))\n", i, r.IntN(i+1), r.IntN(i+1), i, r.IntN(50), i, r.IntN(50))
		}
	}
	return b.Bytes()[:n]
}

func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// inputs are the data the differential tests compress.
func inputs() map[string][]byte {
	m := map[string][]byte{
		"empty":       {},
		"one-byte":    {'x'},
		"zeros-1M":    make([]byte, 1<<20),
		"text-3M":     smtText(3<<20, 1),
		"random-300K": randomBytes(300<<10, 3),
		"mixed":       append(append(smtText(200<<10, 4), randomBytes(100<<10, 5)...), smtText(200<<10, 4)...),
	}
	for _, n := range []int{128<<10 - 1, 128 << 10, 128<<10 + 1, 256 << 10} {
		m[fmt.Sprintf("text-%d", n)] = smtText(n, uint64(n))
	}
	var rep bytes.Buffer
	for rep.Len() < 500<<10 {
		rep.WriteString("abcabcabd")
	}
	m["repetitive"] = rep.Bytes()
	return m
}

func TestKlauspostLevels(t *testing.T) {
	levels := []kzstd.EncoderLevel{kzstd.SpeedFastest, kzstd.SpeedDefault, kzstd.SpeedBetterCompression, kzstd.SpeedBestCompression}
	for name, src := range inputs() {
		for _, lvl := range levels {
			for _, crc := range []bool{true, false} {
				for _, conc := range []int{1, 4} {
					label := fmt.Sprintf("%s/%v/crc=%v/conc=%d", name, lvl, crc, conc)
					comp := encode(t, src, kzstd.WithEncoderLevel(lvl), kzstd.WithEncoderCRC(crc), kzstd.WithEncoderConcurrency(conc))
					checkRoundTrip(t, label, comp, src)
				}
			}
		}
	}
}

func TestKlauspostWindows(t *testing.T) {
	src := append(smtText(1<<20, 7), smtText(1<<20, 7)...) // the second half repeats the first, 1 MiB back
	for _, w := range []int{1 << 10, 32 << 10, 1 << 20, 8 << 20} {
		for _, lvl := range []kzstd.EncoderLevel{kzstd.SpeedFastest, kzstd.SpeedBestCompression} {
			comp := encode(t, src, kzstd.WithWindowSize(w), kzstd.WithEncoderLevel(lvl))
			checkRoundTrip(t, fmt.Sprintf("window=%d/%v", w, lvl), comp, src)
		}
	}
	// EncodeAll writes single-segment frames with the content size.
	enc, _ := kzstd.NewWriter(nil, kzstd.WithEncoderLevel(kzstd.SpeedBetterCompression))
	comp := enc.EncodeAll(src, nil)
	checkRoundTrip(t, "EncodeAll", comp, src)
}
