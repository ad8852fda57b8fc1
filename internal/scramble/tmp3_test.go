package scramble

import (
	"bytes"
	"io"
	"os"
	"testing"
)

func BenchmarkTmp3(b *testing.B) {
	src, _ := os.ReadFile("/tmp/q10.smt2")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Scramble(io.Discard, bytes.NewReader(src), "q", Options{Seed: 42, Annot: AnnotPattern})
	}
}
