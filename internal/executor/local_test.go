package executor

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

func TestMain(m *testing.M) {
	if db := os.Getenv("EXECUTOR_TEST_WORKER"); db != "" {
		os.Exit(worker(db))
	}
	if dsn := os.Getenv("EXECUTOR_TEST_PGWORKER"); dsn != "" {
		os.Exit(pgWorker(dsn))
	}
	code := m.Run()
	testenv.StopPostgres()
	os.Exit(code)
}

// worker is a separate worker process of the multi-process test.
func worker(db string) int {
	st, err := store.OpenSQLite(context.Background(), db)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer st.Close()
	job := Job{Store: st, Competition: "c", Workers: 2, RunPair: fakeRun(nil)}
	if err := (&Local{}).Run(context.Background(), job); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func fakeRun(count *atomic.Int64) RunFunc {
	return func(ctx context.Context, slot int, p store.Pair) (store.Result, error) {
		select {
		case <-time.After(2 * time.Millisecond):
		case <-ctx.Done():
			return store.Result{}, ctx.Err()
		}
		if count != nil {
			count.Add(1)
		}
		return store.Result{Competition: p.Competition, Track: p.Track, Solver: p.Solver, BenchmarkPath: p.BenchmarkPath,
			Status: "complete", Answer: "sat", Extra: fmt.Sprintf(`{"slot":%d}`, slot)}, nil
	}
}

func setup(t *testing.T, n int) (string, store.Store) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "s.db")
	st, err := store.OpenSQLite(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ctx := context.Background()
	var in []store.Indexed
	for i := 0; i < n; i++ {
		in = append(in, store.Indexed{Benchmark: benchmark.Benchmark{Path: fmt.Sprintf("non-incremental/QF_UF/f/%03d.smt2", i), Logic: "QF_UF"}})
	}
	if err := st.UpsertBenchmarks(ctx, in); err != nil {
		t.Fatal(err)
	}
	bs, _ := st.Benchmarks(ctx, store.Filter{})
	var ps []store.Pair
	for i, b := range bs {
		for j, s := range []string{"a", "b"} {
			ps = append(ps, store.Pair{Competition: "c", Track: "single-query", Logic: "QF_UF", Solver: s, Configuration: "default",
				BenchmarkID: b.ID, BenchmarkPath: b.Path, Seq: int64(2*i + j)})
		}
	}
	if _, err := st.PlanPairs(ctx, ps); err != nil {
		t.Fatal(err)
	}
	return db, st
}

func checkOnce(t *testing.T, st store.Store, want int) {
	t.Helper()
	rs, err := st.Results(context.Background(), store.ResultFilter{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range rs {
		seen[r.SourceKey]++
	}
	if len(rs) != want || len(seen) != want {
		t.Errorf("%d results for %d distinct pairs, want %d", len(rs), len(seen), want)
	}
	counts, _ := st.PairCounts(context.Background(), "c")
	if counts["single-query"][store.PairDone] != want {
		t.Errorf("pair states %v", counts)
	}
}

func TestLocal(t *testing.T) {
	_, st := setup(t, 50)
	var n atomic.Int64
	job := Job{Store: st, Competition: "c", Workers: 3, RunPair: fakeRun(&n)}
	if err := (&Local{}).Run(context.Background(), job); err != nil {
		t.Fatal(err)
	}
	checkOnce(t, st, 100)
	if n.Load() != 100 {
		t.Errorf("ran %d pairs", n.Load())
	}
}

// TestResume cancels a run part way and runs again in the same process
// with another owner name, as a restarted coordinator would.
func TestResume(t *testing.T) {
	_, st := setup(t, 50)
	ctx, cancel := context.WithCancel(context.Background())
	var n atomic.Int64
	job := Job{Store: st, Competition: "c", Workers: 3, RunPair: fakeRun(&n),
		OnDone: func(store.Pair, store.Result) {
			if n.Load() >= 30 {
				cancel()
			}
		}}
	_ = (&Local{Owner: "gone/1/1"}).Run(ctx, job)
	// The first owner is dead: release its pairs as a restart on its host
	// would (its name is not a live process), then finish.
	if _, err := st.ReleaseOwner(context.Background(), "c", "gone/1/1"); err != nil {
		t.Fatal(err)
	}
	job.OnDone = nil
	if err := (&Local{}).Run(context.Background(), job); err != nil {
		t.Fatal(err)
	}
	checkOnce(t, st, 100)
}

// TestWorkerProcesses runs one competition with three worker processes
// sharing the store.
func TestWorkerProcesses(t *testing.T) {
	db, st := setup(t, 100)
	exe, _ := os.Executable()
	var cmds []*exec.Cmd
	for i := 0; i < 3; i++ {
		c := exec.Command(exe, "-test.run=^$")
		c.Env = append(os.Environ(), "EXECUTOR_TEST_WORKER="+db)
		c.Stderr = os.Stderr
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("worker: %v", err)
		}
	}
	checkOnce(t, st, 200)
}

// TestKillResume kills a worker process with SIGKILL part way, starts a
// new one, and checks that every pair is recorded exactly once.
func TestKillResume(t *testing.T) {
	db, st := setup(t, 100)
	exe, _ := os.Executable()
	for cycle := 0; cycle < 5; cycle++ {
		c := exec.Command(exe, "-test.run=^$")
		c.Env = append(os.Environ(), "EXECUTOR_TEST_WORKER="+db)
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(40 * time.Millisecond)
		_ = c.Process.Kill()
		_ = c.Wait()
	}
	job := Job{Store: st, Competition: "c", Workers: 2, RunPair: fakeRun(nil)}
	if err := (&Local{}).Run(context.Background(), job); err != nil {
		t.Fatal(err)
	}
	checkOnce(t, st, 200)
}

// TestMemoryBudget: with room for two pairs' memory, no more than two run at
// once, whatever the number of workers; a pair larger than the budget is an
// error.
func TestMemoryBudget(t *testing.T) {
	_, st := setup(t, 10)
	var running, most atomic.Int64
	l := &Local{MemoryBudget: 2<<30 + 1}
	job := Job{Store: st, Competition: "c", Workers: 4, MemoryPerPair: 1 << 30,
		RunPair: func(ctx context.Context, slot int, p store.Pair) (store.Result, error) {
			n := running.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			time.Sleep(20 * time.Millisecond)
			running.Add(-1)
			return store.Result{Competition: p.Competition, Track: p.Track, Solver: p.Solver, BenchmarkPath: p.BenchmarkPath,
				Status: "complete", Extra: "{}"}, nil
		}}
	if err := l.Run(context.Background(), job); err != nil {
		t.Fatal(err)
	}
	checkOnce(t, st, 20)
	if most.Load() != 2 {
		t.Errorf("%d pairs ran at once, want 2", most.Load())
	}
	big := Job{Store: st, Competition: "c", Workers: 1, MemoryPerPair: 3 << 30, RunPair: fakeRun(nil)}
	if err := (&Local{MemoryBudget: 2 << 30}).Run(context.Background(), big); err == nil || !strings.Contains(err.Error(), "memory budget") {
		t.Errorf("a pair over the budget: %v", err)
	}
	if machineMemory() < 1<<20 {
		t.Errorf("machine memory %d", machineMemory())
	}
}
