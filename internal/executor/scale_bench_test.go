package executor

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// BenchmarkMillionPairs: planning 1,000,000 pairs (500,000 benchmarks x 2
// solvers) in PostgreSQL, then claims per second with 8 workers, each a
// store of its own (as 8 worker processes would be) that claims one pair,
// records its result and claims the next for 5 s, with 1,000,000 pairs
// planned.
func BenchmarkMillionPairs(b *testing.B) {
	dsn := testenv.Postgres(b)
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	const n = 1_000_000
	ps := make([]store.Pair, n)
	for i := range ps {
		ps[i] = store.Pair{Competition: "big", Track: "single-query", Division: "QF_LIA", Logic: "QF_LIA",
			Solver: []string{"a", "b"}[i%2], Configuration: "default", BenchmarkID: int64(i/2 + 1),
			BenchmarkPath: fmt.Sprintf("non-incremental/QF_LIA/f/%07d.smt2", i/2), Input: fmt.Sprintf("/work/inputs/%d.smt2", i/2),
			Expected: "sat", Seq: int64(i)}
	}
	b.ResetTimer()
	start := time.Now()
	got, err := st.PlanPairs(ctx, ps)
	if err != nil || got != n {
		b.Fatalf("planned %d: %v", got, err)
	}
	plan := time.Since(start)
	const workers = 8
	stores := make([]store.Store, workers)
	for i := range stores {
		if stores[i], err = store.Open(ctx, dsn); err != nil {
			b.Fatal(err)
		}
		defer stores[i].Close()
	}
	var claims atomic.Int64
	var wg sync.WaitGroup
	deadline := time.Now().Add(5 * time.Second)
	start = time.Now()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			owner := fmt.Sprintf("w%d/1/1", w)
			for time.Now().Before(deadline) {
				got, err := stores[w].ClaimPairs(ctx, "big", owner, 1, time.Minute)
				if err != nil || len(got) != 1 {
					b.Errorf("claim: %v %d", err, len(got))
					return
				}
				r := store.Result{Competition: "big", Track: "single-query", Solver: got[0].Solver, BenchmarkPath: got[0].BenchmarkPath,
					Status: "complete", Answer: "sat", Extra: "{}"}
				if err := stores[w].CompletePair(ctx, got[0], r); err != nil {
					b.Error(err)
					return
				}
				claims.Add(1)
			}
		}(w)
	}
	wg.Wait()
	took := time.Since(start)
	b.ReportMetric(plan.Seconds(), "s-plan-1M")
	b.ReportMetric(float64(n)/plan.Seconds(), "pairs/s-plan")
	b.ReportMetric(float64(claims.Load())/took.Seconds(), "claims/s-8-workers")
}
