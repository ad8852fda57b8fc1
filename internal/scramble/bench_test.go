//go:build unix

package scramble

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/benchgen"
)

var (
	qfliaOnce sync.Once
	qflia     []byte
	qfliaErr  error
)

// qflia100MB generates (once per test binary) the 100 MB QF_LIA benchmark.
func qflia100MB(b *testing.B) []byte {
	b.Helper()
	qfliaOnce.Do(func() {
		var buf bytes.Buffer
		buf.Grow(101 << 20)
		qfliaErr = benchgen.GenerateQFLIA(&buf, benchgen.QFLIAOptions{Seed: 1, Bytes: 100 << 20})
		qflia = buf.Bytes()
	})
	if qfliaErr != nil {
		b.Fatal(qfliaErr)
	}
	return qflia
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakHeap samples the heap in use while f runs and returns the largest
// value seen above the heap in use before f (so that the input, which the
// benchmark holds, is not counted).
func peakHeap(f func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	record := func(m *runtime.MemStats) {
		if m.HeapAlloc > base && m.HeapAlloc-base > peak.Load() {
			peak.Store(m.HeapAlloc - base)
		}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				runtime.ReadMemStats(&m)
				record(&m)
			}
		}
	}()
	f()
	runtime.ReadMemStats(&ms)
	record(&ms)
	close(done)
	wg.Wait()
	return peak.Load()
}

// BenchmarkScramble100MB scrambles a generated 100 MB QF_LIA file
// (single-query track, seed 42) on one core and reports the throughput by
// the clock and by the CPU time used (the second is steadier on a shared
// machine), and, from a separate run, the peak heap beyond the input as a
// multiple of the file size. The targets: 50 MB/s or more on one
// core, ten times the official scrambler's 5 MB/s; memory at most 4x the
// file. With SCRAMBLER_OFFICIAL set to the official binary, it is timed on
// the same file too (run with `ulimit -s unlimited`).
func BenchmarkScramble100MB(b *testing.B) {
	src := qflia100MB(b)
	opts := Options{Seed: 42, Annot: AnnotPattern}
	old := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(old)
	runtime.GC()
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	c0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if _, err := Scramble(io.Discard, bytes.NewReader(src), "qflia", opts); err != nil {
			b.Fatal(err)
		}
	}
	cpu := cpuTime() - c0
	b.StopTimer()
	mb := float64(len(src)) * float64(b.N) / 1e6
	b.ReportMetric(mb/cpu.Seconds(), "MB/cpu-s")
	peak := peakHeap(func() {
		if _, err := Scramble(io.Discard, bytes.NewReader(src), "qflia", opts); err != nil {
			b.Fatal(err)
		}
	})
	b.ReportMetric(float64(peak)/float64(len(src)), "peak-heap/file")
	if bin := os.Getenv("SCRAMBLER_OFFICIAL"); bin != "" {
		p := filepath.Join(b.TempDir(), "qflia.smt2")
		if err := os.WriteFile(p, src, 0o644); err != nil {
			b.Fatal(err)
		}
		in, err := os.Open(p)
		if err != nil {
			b.Fatal(err)
		}
		defer in.Close()
		cmd := exec.Command(bin, "-term_annot", "pattern", "-seed", "42")
		cmd.Stdin, cmd.Stdout = in, io.Discard
		t0 := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("official scrambler: %v", err)
		}
		b.ReportMetric(float64(len(src))/1e6/time.Since(t0).Seconds(), "official-MB/s")
	}
}
