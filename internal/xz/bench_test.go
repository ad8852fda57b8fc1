package xz

import (
	"bytes"
	"io"
	"sync"
	"testing"
	"time"

	uxz "github.com/ulikunitz/xz"

	"github.com/smtarena/smtarena/internal/testenv"
)

var (
	benchOnce      sync.Once
	benchRaw       []byte
	benchCompAtSix []byte
)

// BenchmarkDecode prints decompression speed in MB/s of decompressed data
// (ns/op is both decoders together, one run each): ours and ulikunitz's,
// on a tar of ../shared/benchmarks compressed by `xz -6`.
func BenchmarkDecode(b *testing.B) {
	benchOnce.Do(func() {
		benchRaw = testenv.SharedTar(b, "benchmarks")
		benchCompAtSix = xzCLI(b, benchRaw, "-6")
	})
	raw, comp := benchRaw, benchCompAtSix
	if comp == nil {
		b.Skip("no input")
	}
	once := func(open func(io.Reader) (io.Reader, error)) time.Duration {
		start := time.Now()
		r, err := open(bytes.NewReader(comp))
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.Copy(io.Discard, r)
		if err != nil || n != int64(len(raw)) {
			b.Fatalf("%d bytes, %v", n, err)
		}
		return time.Since(start)
	}
	// The decoders take turns, so that the machine's load weighs on them
	// alike.
	var tOurs, tU time.Duration
	for range b.N {
		tOurs += once(func(r io.Reader) (io.Reader, error) { return NewReader(r) })
		tU += once(func(r io.Reader) (io.Reader, error) { return uxz.NewReader(r) })
	}
	mbs := func(d time.Duration) float64 { return float64(len(raw)) * float64(b.N) / d.Seconds() / 1e6 }
	b.ReportMetric(mbs(tOurs), "ours-MB/s")
	b.ReportMetric(mbs(tU), "ulikunitz-MB/s")
	b.ReportMetric(mbs(tOurs)/mbs(tU), "ours/ulikunitz")
	b.ReportMetric(float64(len(comp))/float64(len(raw)), "ratio")
}
