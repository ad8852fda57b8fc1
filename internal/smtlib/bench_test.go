package smtlib_test

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"github.com/smtarena/smtarena/internal/benchgen"
	"github.com/smtarena/smtarena/internal/smtlib"
)

// The figures of issue 2, printed by `make bench`:
//   - full parse of a generated 100 MB QF_LIA benchmark, MB/s on one core
//     (the official scrambler, C++ with flex/bison, reads about 5 MB/s here);
//   - metadata scan, MB/s on one core;
//   - memory of the parsed AST per byte of input (ast-bytes/src-byte).
// SMTARENA_BENCH_MB changes the size of the generated file.

var (
	bigOnce sync.Once
	bigSrc  []byte
)

func bigQFLIA(b *testing.B) []byte {
	bigOnce.Do(func() {
		mb := 100
		if v, err := strconv.Atoi(os.Getenv("SMTARENA_BENCH_MB")); err == nil && v > 0 {
			mb = v
		}
		var buf bytes.Buffer
		buf.Grow(mb<<20 + 1<<16)
		if err := benchgen.GenerateQFLIA(&buf, benchgen.QFLIAOptions{Seed: 1, Bytes: int64(mb) << 20}); err != nil {
			panic(err)
		}
		bigSrc = buf.Bytes()
	})
	return bigSrc
}

func BenchmarkParseQFLIA(b *testing.B) {
	src := bigQFLIA(b)
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := smtlib.Parse("gen.smt2", src, 0); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	// Memory held by the AST alone: the source is allocated before the
	// first reading and stays alive across both.
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, err := smtlib.Parse("gen.smt2", src, 0)
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(s)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(len(src)), "ast-bytes/src-byte")
	b.ReportMetric(float64(len(src))/(1<<20), "src-MB")
}

func BenchmarkScanMetaQFLIA(b *testing.B) {
	src := bigQFLIA(b)
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for b.Loop() {
		m, err := smtlib.ScanMeta("gen.smt2", src)
		if err != nil || m.Logic != "QF_LIA" {
			b.Fatal(err)
		}
	}
}
