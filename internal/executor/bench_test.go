package executor

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/sandbox"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// BenchmarkSchedulerOverhead: the time one worker spends between pairs
// (claiming, recording the result, starting the next), with pairs that do
// nothing; the median gap is the scheduler's overhead per pair.
func BenchmarkSchedulerOverhead(b *testing.B) {
	t := &testing.T{}
	_, st := setup(t, 100)
	defer st.Close()
	var mu sync.Mutex
	var starts, ends []time.Time
	job := Job{Store: st, Competition: "c", Workers: 1, RunPair: func(ctx context.Context, slot int, p store.Pair) (store.Result, error) {
		mu.Lock()
		starts = append(starts, time.Now())
		mu.Unlock()
		defer func() { mu.Lock(); ends = append(ends, time.Now()); mu.Unlock() }()
		return store.Result{Competition: "c", Track: p.Track, Solver: p.Solver, BenchmarkPath: p.BenchmarkPath, Status: "complete", Extra: "{}"}, nil
	}}
	b.ResetTimer()
	if err := (&Local{}).Run(context.Background(), job); err != nil {
		b.Fatal(err)
	}
	var gaps []time.Duration
	for i := 1; i < len(starts); i++ {
		gaps = append(gaps, starts[i].Sub(ends[i-1]))
	}
	b.ReportMetric(float64(testenv.Median(gaps))/1e6, "ms-overhead/pair")
}

// BenchmarkUtilisation: two workers running 1 s CPU burners in the sandbox;
// the share of the wall time the two cores spend on solver work.
func BenchmarkUtilisation(b *testing.B) {
	if os.Geteuid() != 0 {
		b.Skip("needs root for the sandbox")
	}
	t := &testing.T{}
	_, st := setup(t, 6) // 12 pairs
	defer st.Close()
	var mu sync.Mutex
	var cpu time.Duration
	job := Job{Store: st, Competition: "c", Workers: 2, RunPair: func(ctx context.Context, slot int, p store.Pair) (store.Result, error) {
		res, err := sandbox.Run(ctx, sandbox.Spec{Args: []string{"sh", "-c", "while :; do :; done"},
			Limits: sandbox.Limits{CPU: time.Second, Cores: []int{slot}}})
		if err != nil {
			return store.Result{}, err
		}
		mu.Lock()
		cpu += res.CPU
		mu.Unlock()
		return store.Result{Competition: "c", Track: p.Track, Solver: p.Solver, BenchmarkPath: p.BenchmarkPath, Status: "timeout", Extra: "{}"}, nil
	}}
	start := time.Now()
	if err := (&Local{}).Run(context.Background(), job); err != nil {
		b.Fatal(err)
	}
	wall := time.Since(start)
	b.ReportMetric(100*cpu.Seconds()/(2*wall.Seconds()), "%-busy")
}
