package zstd

import (
	"bytes"
	"io"
	"sync"
	"testing"
	"time"

	kzstd "github.com/klauspost/compress/zstd"

	"github.com/smtarena/smtarena/internal/benchgen"
	"github.com/smtarena/smtarena/internal/testenv"
)

// zstdCLI compresses src with the zstd command-line tool and the given
// flags, skipping the test if the tool is missing.
func zstdCLI(t testing.TB, src []byte, flags ...string) []byte {
	t.Helper()
	return testenv.Filter(t, "zstd", "zstd", src, append([]string{"-q", "-c"}, flags...)...)
}

// benchInput is one compressed input of the benchmark.
type benchInput struct {
	name      string
	raw, comp []byte
}

var (
	benchOnce   sync.Once
	benchInputs []benchInput
)

func loadBenchInputs(b *testing.B) []benchInput {
	benchOnce.Do(func() {
		var qflia bytes.Buffer
		if err := benchgen.GenerateQFLIA(&qflia, benchgen.QFLIAOptions{Seed: 1, Bytes: 32 << 20}); err != nil {
			b.Fatal(err)
		}
		tarball := testenv.SharedTar(b, "benchmarks")
		for _, in := range []struct {
			name string
			raw  []byte
		}{{"shared-tar", tarball}, {"qflia-32MB", qflia.Bytes()}} {
			for _, lvl := range []string{"3", "19"} {
				benchInputs = append(benchInputs, benchInput{in.name + "-l" + lvl, in.raw, zstdCLI(b, in.raw, "-"+lvl)})
			}
		}
	})
	return benchInputs
}

// BenchmarkDecode prints decompression speed in MB/s of decompressed data
// (ns/op is the three decoders together, one run each):
// ours, klauspost's on one goroutine, and klauspost's default (as many
// goroutines as GOMAXPROCS), on a tar of ../shared/benchmarks and on a
// generated 32 MB QF_LIA benchmark, compressed by the zstd command at
// levels 3 and 19.
func BenchmarkDecode(b *testing.B) {
	inputs := loadBenchInputs(b)
	ours := NewReader(nil)
	k1, _ := kzstd.NewReader(nil, kzstd.WithDecoderConcurrency(1))
	kd, _ := kzstd.NewReader(nil)
	defer k1.Close()
	defer kd.Close()
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			// The decoders take turns, so that the machine's load weighs
			// on them alike.
			once := func(reset func(io.Reader) error, r io.Reader) time.Duration {
				start := time.Now()
				if err := reset(bytes.NewReader(in.comp)); err != nil {
					b.Fatal(err)
				}
				n, err := io.Copy(io.Discard, r)
				if err != nil || n != int64(len(in.raw)) {
					b.Fatalf("%d bytes, %v", n, err)
				}
				return time.Since(start)
			}
			var tOurs, tK1, tKd time.Duration
			for range b.N {
				tOurs += once(func(r io.Reader) error { ours.Reset(r); return nil }, ours)
				tK1 += once(k1.Reset, k1)
				tKd += once(kd.Reset, kd)
			}
			mbs := func(d time.Duration) float64 { return float64(len(in.raw)) * float64(b.N) / d.Seconds() / 1e6 }
			b.ReportMetric(mbs(tOurs), "ours-MB/s")
			b.ReportMetric(mbs(tK1), "klauspost-1-MB/s")
			b.ReportMetric(mbs(tKd), "klauspost-MB/s")
			b.ReportMetric(mbs(tOurs)/mbs(tK1), "ours/klauspost-1")
			b.ReportMetric(float64(len(in.comp))/float64(len(in.raw)), "ratio")
		})
	}
}
