package executor

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// testLease is the lease of the worker tests: short, so that a killed
// worker's pairs run again soon.
const testLease = time.Second

// pgWorker is a worker process of the PostgreSQL tests: it runs pairs of
// 30 ms until every pair is done, as `smtarena worker` does. SIGTERM stops
// it (its pairs given back).
func pgWorker(dsn string) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer st.Close()
	run := func(ctx context.Context, slot int, p store.Pair) (store.Result, error) {
		select {
		case <-time.After(30 * time.Millisecond):
		case <-ctx.Done():
			return store.Result{}, ctx.Err()
		}
		return store.Result{Competition: p.Competition, Track: p.Track, Solver: p.Solver, BenchmarkPath: p.BenchmarkPath,
			Status: "complete", Answer: "sat", Extra: "{}"}, nil
	}
	job := Job{Store: st, Competition: "c", Workers: 2, RunPair: run}
	l := &Local{Lease: testLease, UntilDone: true, ByBenchmark: true, Owner: OwnerOn(os.Getenv("EXECUTOR_TEST_NODE"))}
	if err := l.Run(ctx, job); err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 1
	}
	return 0
}

// plan plans n benchmarks x 2 solvers in a store.
func plan(t testing.TB, st store.Store, n int) {
	t.Helper()
	ctx := context.Background()
	in := make([]store.Indexed, n)
	for i := range in {
		in[i] = store.Indexed{Benchmark: benchmark.Benchmark{Path: fmt.Sprintf("non-incremental/QF_UF/f/%06d.smt2", i), Logic: "QF_UF"}}
	}
	if err := st.UpsertBenchmarks(ctx, in); err != nil {
		t.Fatal(err)
	}
	bs, err := st.Benchmarks(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	ps := make([]store.Pair, 0, 2*len(bs))
	for i, b := range bs {
		for j, s := range []string{"a", "b"} {
			ps = append(ps, store.Pair{Competition: "c", Track: "single-query", Logic: "QF_UF", Solver: s, Configuration: "default",
				BenchmarkID: b.ID, BenchmarkPath: b.Path, Seq: int64(2*i + j)})
		}
	}
	if _, err := st.PlanPairs(ctx, ps); err != nil {
		t.Fatal(err)
	}
}

func startPGWorker(t *testing.T, dsn, node string) *exec.Cmd {
	t.Helper()
	exe, _ := os.Executable()
	c := exec.Command(exe, "-test.run=^$")
	c.Env = append(os.Environ(), "EXECUTOR_TEST_PGWORKER="+dsn, "EXECUTOR_TEST_NODE="+node)
	c.Stderr = os.Stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestWorkersPostgres runs four worker processes on a PostgreSQL store and,
// in the middle, kills two with SIGKILL, stops one with SIGTERM and
// restarts PostgreSQL: the last worker and the stopped one's successor
// finish, every pair recorded exactly once, within a time bound.
func TestWorkersPostgres(t *testing.T) {
	dsn := testenv.Postgres(t)
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	plan(t, st, 150)
	start := time.Now()
	var ws []*exec.Cmd
	for i := 0; i < 4; i++ {
		ws = append(ws, startPGWorker(t, dsn, fmt.Sprintf("node%d", i)))
	}
	t.Cleanup(func() {
		for _, w := range ws {
			_ = w.Process.Kill()
		}
	})
	waitDone(t, st, 40, 30*time.Second)
	// Two workers lost with their pairs half run.
	for _, w := range ws[:2] {
		_ = w.Process.Kill()
		_ = w.Wait()
	}
	// One stopped as scancel stops it: it gives its pairs back.
	_ = ws[2].Process.Signal(syscall.SIGTERM)
	if err := ws[2].Wait(); err == nil {
		t.Errorf("a stopped worker exits 0")
	}
	owners, _ := st.RunningOwners(context.Background(), "c")
	for _, o := range owners {
		if strings.HasPrefix(o, "node2/") {
			t.Errorf("the stopped worker still holds pairs")
		}
	}
	testenv.RestartPostgres(t)
	ws = append(ws, startPGWorker(t, dsn, "node4"))
	for _, w := range ws[3:] {
		if err := w.Wait(); err != nil {
			t.Errorf("worker: %v", err)
		}
	}
	took := time.Since(start)
	if took > 60*time.Second {
		t.Errorf("took %s, want under a minute", took)
	}
	checkOnce(t, st, 300)
	ps, err := st.Pairs(context.Background(), "c")
	if err != nil {
		t.Fatal(err)
	}
	again := 0
	for _, p := range ps {
		if p.Attempts > 1 {
			again++
		}
	}
	if again == 0 {
		t.Errorf("no pair ran twice: the killed workers held none")
	}
	nodes, _ := st.NodeCounts(context.Background(), "c")
	if nodes["node3"][store.PairDone] == 0 || nodes["node4"][store.PairDone] == 0 {
		t.Errorf("per-node counts %v: nodes 3 and 4 finished the competition", nodes)
	}
	t.Logf("done in %s; %d pairs ran again; per node %v", took.Round(time.Millisecond), again, nodes)
}

// waitDone waits until n pairs are done.
func waitDone(t *testing.T, st store.Store, n int, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		c, err := st.PairCounts(context.Background(), "c")
		if err == nil && c["single-query"][store.PairDone] >= n {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("fewer than %d pairs done after %s", n, limit)
}
