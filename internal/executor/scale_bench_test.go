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
// store of its own (as 8 worker processes would be) that claims, records
// what it claimed and claims again for 5 s, with 1,000,000 pairs planned:
// one pair a claim (ClaimPairs), then one benchmark a claim
// (ClaimBenchmark, what Slurm workers do; claims one at a time).
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
	// claimRate runs the 8 workers for 5 s, each claiming with claim and
	// recording what it claimed, and returns claims and pairs per second.
	claimRate := func(claim func(st store.Store, owner string) ([]store.Pair, error)) (float64, float64) {
		var claims, pairs atomic.Int64
		var wg sync.WaitGroup
		deadline := time.Now().Add(5 * time.Second)
		start := time.Now()
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				owner := fmt.Sprintf("w%d/1/1", w)
				for time.Now().Before(deadline) {
					got, err := claim(stores[w], owner)
					if err != nil || len(got) == 0 {
						b.Errorf("claim: %v %d", err, len(got))
						return
					}
					for _, p := range got {
						r := store.Result{Competition: "big", Track: "single-query", Solver: p.Solver, BenchmarkPath: p.BenchmarkPath,
							Status: "complete", Answer: "sat", Extra: "{}"}
						if err := stores[w].CompletePair(ctx, p, r); err != nil {
							b.Error(err)
							return
						}
					}
					claims.Add(1)
					pairs.Add(int64(len(got)))
				}
			}(w)
		}
		wg.Wait()
		took := time.Since(start).Seconds()
		return float64(claims.Load()) / took, float64(pairs.Load()) / took
	}
	one, _ := claimRate(func(st store.Store, owner string) ([]store.Pair, error) {
		return st.ClaimPairs(ctx, "big", owner, 1, time.Minute)
	})
	whole, wholePairs := claimRate(func(st store.Store, owner string) ([]store.Pair, error) {
		return st.ClaimBenchmark(ctx, "big", owner, time.Minute)
	})
	b.ReportMetric(plan.Seconds(), "s-plan-1M")
	b.ReportMetric(float64(n)/plan.Seconds(), "pairs/s-plan")
	b.ReportMetric(one, "claims/s-8-workers")
	b.ReportMetric(whole, "benchmark-claims/s-8-workers")
	b.ReportMetric(wholePairs, "pairs/s-by-benchmark")
}
