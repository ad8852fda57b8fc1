package scramble

import (
	"bytes"
	"io"
	"runtime"
	"syscall"
	"testing"
	"time"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkTmp(b *testing.B) {
	src := qflia100MB(b)
	runtime.GOMAXPROCS(1)
	for i := 0; i < 6; i++ {
		runtime.GC()
		t0, c0 := time.Now(), cpuTime()
		Scramble(io.Discard, bytes.NewReader(src), "q", Options{Seed: 42, Annot: AnnotPattern})
		w, c := time.Since(t0), cpuTime()-c0
		b.Logf("wall %v cpu %v: %.1f MB/s wall %.1f MB/s cpu", w, c, float64(len(src))/w.Seconds()/1e6, float64(len(src))/c.Seconds()/1e6)
	}
}
