// Package storetest is the conformance suite every Store implementation
// passes: the same tests against SQLite and PostgreSQL.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/store"
)

// Run runs the suite. newDSN returns the DSN of a fresh, empty store.
func Run(t *testing.T, newDSN func(t *testing.T) string) {
	ctx := context.Background()
	open := func(t *testing.T, dsn string) store.Store {
		t.Helper()
		s, err := store.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	bench := func(path, logic string, st benchmark.Status) store.Indexed {
		return store.Indexed{Benchmark: benchmark.Benchmark{Path: path, Logic: logic, Status: st, Category: benchmark.Industrial,
			Difficulty: -1, Asserts: 3, CheckSats: 1, Size: 100, Hash: "h-" + path}, Sig: store.FileSig{Size: 100, ModTime: 7, Hash: "h-" + path}}
	}

	t.Run("Benchmarks", func(t *testing.T) {
		s := open(t, newDSN(t))
		inc := bench("incremental/QF_LIA/f/b.smt2", "QF_LIA", benchmark.Unknown)
		inc.Incremental, inc.Statuses, inc.CheckSats = true, []benchmark.Status{benchmark.Sat, benchmark.Unsat}, 2
		in := []store.Indexed{bench("non-incremental/QF_UF/f/a.smt2", "QF_UF", benchmark.Sat), inc,
			bench("non-incremental/QF_LIA/g/c.smt2", "QF_LIA", benchmark.Unsat)}
		if err := s.UpsertBenchmarks(ctx, in); err != nil {
			t.Fatal(err)
		}
		all, err := s.Benchmarks(ctx, store.Filter{})
		if err != nil || len(all) != 3 || all[0].Path != "incremental/QF_LIA/f/b.smt2" || all[0].ID == 0 {
			t.Fatalf("list: %v %+v", err, all)
		}
		if got := all[0].Statuses; len(got) != 2 || got[1] != benchmark.Unsat || !all[0].Incremental {
			t.Errorf("incremental statuses %v", got)
		}
		lia, _ := s.Benchmarks(ctx, store.Filter{Logic: "QF_LIA"})
		no := false
		nonInc, _ := s.Benchmarks(ctx, store.Filter{Incremental: &no})
		pre, _ := s.Benchmarks(ctx, store.Filter{PathPrefix: "non-incremental/QF_UF/"})
		if len(lia) != 2 || len(nonInc) != 2 || len(pre) != 1 {
			t.Errorf("filters: %d %d %d", len(lia), len(nonInc), len(pre))
		}
		byPath, _ := s.Benchmarks(ctx, store.Filter{Paths: []string{all[2].Path, "no/such.smt2", all[0].Path}})
		none, _ := s.Benchmarks(ctx, store.Filter{Paths: []string{}})
		liaPath, _ := s.Benchmarks(ctx, store.Filter{Logic: "QF_UF", Paths: []string{all[0].Path, all[2].Path}})
		if len(byPath) != 2 || byPath[0].Path != all[0].Path || byPath[1].Path != all[2].Path || len(none) != 0 || len(liaPath) != 1 {
			t.Errorf("paths filter: %+v %+v %+v", byPath, none, liaPath)
		}
		// Re-indexing a changed file updates it in place.
		changed := in[0]
		changed.Status, changed.Sig.ModTime = benchmark.Unsat, 8
		if err := s.UpsertBenchmarks(ctx, []store.Indexed{changed}); err != nil {
			t.Fatal(err)
		}
		again, _ := s.Benchmarks(ctx, store.Filter{PathPrefix: "non-incremental/QF_UF/"})
		if len(again) != 1 || again[0].Status != benchmark.Unsat || again[0].ID != pre[0].ID {
			t.Errorf("update: %+v", again)
		}
		sigs, err := s.FileSigs(ctx)
		if err != nil || len(sigs) != 3 || sigs[changed.Path].ModTime != 8 {
			t.Errorf("sigs: %v %v", err, sigs)
		}
	})

	t.Run("BenchFacts", func(t *testing.T) { benchFacts(t, open(t, newDSN(t))) })

	t.Run("Results", func(t *testing.T) {
		s := open(t, newDSN(t))
		r := store.Result{Competition: "SMT-COMP 2019", Year: 2019, Track: "unsat-core", Solver: "z3", Configuration: "default",
			BenchmarkPath: "non-incremental/QF_UF/f/a.smt2", Status: "complete", Answer: "unsat", Expected: "unsat", CPU: 1.5, Wall: 1.6,
			MemoryMB: 12, Extra: `{"reduction":"3"}`, SourceKey: "starexec:1"}
		r2 := r
		r2.Solver, r2.SourceKey = "cvc5", "starexec:2"
		n, err := s.AddResults(ctx, []store.Result{r, r2})
		if err != nil || n != 2 {
			t.Fatalf("add: %d %v", n, err)
		}
		// Importing again records nothing twice.
		if n, err := s.AddResults(ctx, []store.Result{r, r2}); err != nil || n != 0 {
			t.Errorf("re-add: %d %v", n, err)
		}
		got, err := s.Results(ctx, store.ResultFilter{Year: 2019, Solver: "cvc5"})
		if err != nil || len(got) != 1 || got[0].Extra != r.Extra || got[0].CPU != 1.5 {
			t.Errorf("results: %v %+v", err, got)
		}
		// A batch that fails part way records nothing.
		bad := r
		bad.SourceKey = "starexec:3"
		if _, err := s.AddResults(ctx, []store.Result{bad, {Solver: "x"}}); err == nil {
			t.Error("a result without a source key was accepted")
		}
		if all, _ := s.Results(ctx, store.ResultFilter{}); len(all) != 2 {
			t.Errorf("a failed batch left %d results, want 2", len(all))
		}
		// A batch of many rows (several multi-row statements and the rest
		// one by one), some already there, one given twice.
		var many []store.Result
		for i := range 237 {
			x := r
			x.SourceKey, x.CPU = fmt.Sprintf("starexec:%d", i+1), float64(i)+0.25
			if i >= 60 && i < 65 { // a statement of rows that differ in all columns
				x.Configuration = "other"
			}
			many = append(many, x)
		}
		many = append(many, many[100])
		if n, err := s.AddResults(ctx, many); err != nil || n != 235 {
			t.Errorf("add many: %d new, %v; want 235", n, err)
		}
		var each []store.Result
		err = s.EachResult(ctx, store.ResultFilter{Year: 2019}, func(x *store.Result) error {
			each = append(each, *x)
			return nil
		})
		all, _ := s.Results(ctx, store.ResultFilter{Year: 2019})
		if err != nil || len(each) != 237 || len(all) != 237 || each[236] != all[236] || each[0].SourceKey != "starexec:1" || each[236].CPU != 236.25 {
			t.Errorf("EachResult: %d results, %v; Results %d", len(each), err, len(all))
		}
		for i, x := range each {
			want := "default"
			if i >= 60 && i < 65 {
				want = "other"
			}
			if x.Configuration != want || x.Competition != r.Competition || x.Year != 2019 || x.Track != r.Track || x.CPU != float64(i)+0.25 && i > 1 {
				t.Errorf("result %d: %+v", i, x)
			}
		}
		if n, err := s.CountResults(ctx, store.ResultFilter{Year: 2019}); err != nil || n != 237 {
			t.Errorf("CountResults: %d %v", n, err)
		}
		if n, err := s.CountResults(ctx, store.ResultFilter{Year: 2019, Solver: "cvc5"}); err != nil || n != 1 {
			t.Errorf("CountResults of cvc5: %d %v", n, err)
		}
		stop := errors.New("stop")
		k := 0
		if err := s.EachResult(ctx, store.ResultFilter{}, func(*store.Result) error { k++; return stop }); !errors.Is(err, stop) || k != 1 {
			t.Errorf("EachResult after an error of fn: %d calls, %v", k, err)
		}
	})

	t.Run("Bulk", func(t *testing.T) {
		s := open(t, newDSN(t))
		r := store.Result{Competition: "SMT-COMP 2024", Year: 2024, Track: "incremental", Solver: "z3",
			BenchmarkPath: "incremental/QF_LIA/f/a.smt2", Status: "complete", Answer: "unknown", Extra: `{"correct-answers":3}`, SourceKey: "k1"}
		b := store.Indexed{Benchmark: benchmark.Benchmark{Path: r.BenchmarkPath, Logic: "QF_LIA", Incremental: true, Status: benchmark.Unknown, CheckSats: 7}}
		add := func() store.Bulk {
			t.Helper()
			bulk, err := s.Bulk(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if n, err := bulk.AddResults([]store.Result{r}, nil, nil); err != nil || n != 1 {
				t.Fatalf("bulk add: %d %v", n, err)
			}
			if err := bulk.UpsertBenchmarks([]store.Indexed{b}); err != nil {
				t.Fatal(err)
			}
			return bulk
		}
		if err := add().Rollback(); err != nil {
			t.Fatal(err)
		}
		rs, _ := s.Results(ctx, store.ResultFilter{})
		bs, _ := s.Benchmarks(ctx, store.Filter{})
		if len(rs) != 0 || len(bs) != 0 {
			t.Errorf("after a rollback: %d results, %d benchmarks", len(rs), len(bs))
		}
		if err := add().Commit(); err != nil {
			t.Fatal(err)
		}
		rs, _ = s.Results(ctx, store.ResultFilter{})
		bs, _ = s.Benchmarks(ctx, store.Filter{})
		if len(rs) != 1 || rs[0].Extra != r.Extra || len(bs) != 1 || bs[0].CheckSats != 7 {
			t.Errorf("after a commit: %+v, %+v", rs, bs)
		}
		// The store is usable again, and what is there is not added twice.
		if n, err := s.AddResults(ctx, []store.Result{r}); err != nil || n != 0 {
			t.Errorf("add again: %d %v", n, err)
		}
		// With positions, each result skipped is told with the position
		// of the one with its key: 0 for one stored before; the first to
		// give a stored key again stands for it to those after it.
		r2 := r
		r2.SourceKey, r2.Solver = "k2", "cvc5"
		bulk, err := s.Bulk(ctx)
		if err != nil {
			t.Fatal(err)
		}
		type skip struct {
			i     int
			first int64
		}
		var skips []skip
		dup := func(i int, first int64) { skips = append(skips, skip{i, first}) }
		bulk.Expect(100000) // a guess: the set of keys made that large at once
		n1, err1 := bulk.AddResults([]store.Result{r2, r, r2}, []int64{11, 12, 13}, dup)
		bulk.Expect(1) // after the set is made: made larger
		n2, err2 := bulk.AddResults([]store.Result{r, r2}, []int64{21, 22}, dup)
		if err := bulk.Commit(); err != nil {
			t.Fatal(err)
		}
		if err1 != nil || err2 != nil || n1 != 1 || n2 != 0 || !slices.Equal(skips, []skip{{1, 0}, {2, 11}, {0, 12}, {1, 11}}) {
			t.Errorf("skips with positions: %d %d %v %v, %v", n1, n2, err1, err2, skips)
		}
	})

	// Imports of many results: more than a block holds, two tracks, keys
	// made of the fields and keys of any other form, a second import that
	// adds nothing, and a run's result (a row) beside them.
	t.Run("ResultBlocks", func(t *testing.T) {
		s := open(t, newDSN(t))
		key := func(r store.Result, pair string) string {
			return "smtcomp-json\x1f" + fmt.Sprint(r.Year) + "\x1f" + r.Track + "\x1f" + r.Solver + "\x1f" + r.Configuration + "\x1f" + r.BenchmarkPath + "\x1f" + pair
		}
		const n = 1<<16 + 37
		var rs []store.Result
		for i := range n {
			r := store.Result{Competition: "SMT-COMP 2024", Year: 2024, Track: "incremental", Solver: fmt.Sprint("s", i%3),
				BenchmarkPath: fmt.Sprintf("incremental/QF_LIA/f/%d.smt2", i/3), Status: "complete", Answer: "unknown",
				CPU: float64(i) / 7, Wall: 0.5, MemoryMB: 1e300, Extra: fmt.Sprintf(`{"nb_answers":%d}`, i%5)}
			if i%1000 == 999 {
				r.Track, r.Configuration, r.Expected = "unsat-core", "c ü\x1f", "unsat"
			}
			r.SourceKey = key(r, "")
			if i%10 == 3 {
				r.SourceKey = key(r, fmt.Sprint(i)) // with a pair id
			}
			if i%100 == 7 {
				r.SourceKey = fmt.Sprintf("starexec:%d", i) // another form
			}
			rs = append(rs, r)
		}
		for round := range 2 {
			bulk, err := s.Bulk(ctx)
			if err != nil {
				t.Fatal(err)
			}
			added := 0
			for lo := 0; lo < n; lo += 4800 {
				k, err := bulk.AddResults(rs[lo:min(n, lo+4800)], nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				added += k
			}
			if err := bulk.Commit(); err != nil {
				t.Fatal(err)
			}
			if want := []int{n, 0}[round]; added != want {
				t.Errorf("import %d added %d results, want %d", round+1, added, want)
			}
		}
		if k, err := s.AddResults(ctx, rs[:10]); err != nil || k != 0 {
			t.Errorf("AddResults of imported results: %d new, %v", k, err)
		}
		inc, err := s.Results(ctx, store.ResultFilter{Year: 2024, Track: "incremental"})
		if err != nil {
			t.Fatal(err)
		}
		uc, _ := s.Results(ctx, store.ResultFilter{Year: 2024, Track: "unsat-core"})
		if len(inc)+len(uc) != n || len(uc) != n/1000 {
			t.Fatalf("%d incremental and %d unsat-core results, want %d in all, %d unsat-core", len(inc), len(uc), n, n/1000)
		}
		j, k := 0, 0
		for i, want := range rs {
			got := &inc
			at := &j
			if want.Track == "unsat-core" {
				got, at = &uc, &k
			}
			g := (*got)[*at]
			*at++
			g.ID = 0
			if g != want {
				t.Fatalf("result %d: %+v, want %+v", i, g, want)
			}
		}
		for i := 1; i < len(inc); i++ {
			if inc[i].ID <= inc[i-1].ID {
				t.Fatalf("IDs not in order: %d then %d", inc[i-1].ID, inc[i].ID)
			}
		}
		if c, err := s.CountResults(ctx, store.ResultFilter{Year: 2024}); err != nil || c != n {
			t.Errorf("CountResults: %d %v", c, err)
		}
		if c, err := s.CountResults(ctx, store.ResultFilter{Solver: "s1", Track: "incremental"}); err != nil || c != len(inc)/3 {
			t.Errorf("CountResults of s1: %d %v, want %d", c, err, len(inc)/3)
		}
		one, err := s.Results(ctx, store.ResultFilter{BenchmarkPath: "incremental/QF_LIA/f/5.smt2"})
		if err != nil || len(one) != 3 {
			t.Errorf("results of one benchmark: %d %v", len(one), err)
		}
		// A run's result is a row, listed after the imported ones.
		if _, err := s.PlanPairs(ctx, []store.Pair{{Competition: "c", Track: "incremental", Solver: "z3", BenchmarkID: 1,
			BenchmarkPath: "incremental/QF_LIA/f/1.smt2", Input: "x"}}); err != nil {
			t.Fatal(err)
		}
		ps, err := s.ClaimPairs(ctx, "c", "w", 1, time.Minute)
		if err != nil || len(ps) != 1 {
			t.Fatalf("claim: %v %v", ps, err)
		}
		run := store.Result{Competition: "c", Year: 2024, Track: "incremental", Solver: "z3", BenchmarkPath: ps[0].BenchmarkPath, Status: "complete"}
		if err := s.CompletePair(ctx, ps[0], run); err != nil {
			t.Fatal(err)
		}
		all, _ := s.Results(ctx, store.ResultFilter{Track: "incremental"})
		if len(all) != len(inc)+1 || all[len(all)-1].Solver != "z3" || all[len(all)-1].ID <= all[len(all)-2].ID {
			t.Errorf("with a run's result: %d results, last %+v", len(all), all[len(all)-1])
		}
		// Without the imported results' keys, the run's has its own.
		keyless, err := s.Results(ctx, store.ResultFilter{Track: "incremental", ImportedKeysless: true})
		if err != nil || len(keyless) != len(all) || keyless[0].SourceKey != "" || keyless[0].Extra != all[0].Extra ||
			keyless[len(all)-1].SourceKey != all[len(all)-1].SourceKey || keyless[len(all)-1].SourceKey == "" {
			t.Errorf("imported results without keys: %v, first %+v, last %+v", err, keyless[0], keyless[len(keyless)-1])
		}
	})

	t.Run("BulkAddBenchmarks", func(t *testing.T) {
		s := open(t, newDSN(t))
		old := bench("non-incremental/QF_UF/f/5.smt2", "QF_UF", benchmark.Sat)
		if err := s.UpsertBenchmarks(ctx, []store.Indexed{old}); err != nil {
			t.Fatal(err)
		}
		// Many rows (several multi-row statements of several sizes): one
		// already there, given changed, and one given three times, twice
		// in one statement.
		var in []store.Indexed
		for i := range 437 {
			b := bench(fmt.Sprintf("non-incremental/QF_UF/f/%d.smt2", i), "QF_UF", benchmark.Unsat)
			b.Asserts = i
			if i%7 == 0 { // rows that differ in the columns often shared
				b.Logic, b.Category, b.Difficulty, b.Size, b.Sig, b.Hash = "QF_LIA", benchmark.Crafted, 2.5, int64(i), store.FileSig{}, ""
			}
			in = append(in, b)
		}
		twice := in[40]
		twice.Asserts = 1000
		in = append(in, twice)
		in = slices.Insert(in, 45, twice)
		add := func(in []store.Indexed) (int, store.Bulk) {
			t.Helper()
			bulk, err := s.Bulk(ctx)
			if err != nil {
				t.Fatal(err)
			}
			n, err := bulk.AddBenchmarks(in)
			if err != nil {
				t.Fatal(err)
			}
			return n, bulk
		}
		if n, bulk := add(in); n != 436 || bulk.Rollback() != nil {
			t.Fatalf("add: %d added, want 436", n)
		}
		if all, _ := s.Benchmarks(ctx, store.Filter{}); len(all) != 1 {
			t.Errorf("after a rollback: %d benchmarks", len(all))
		}
		n, bulk := add(in)
		if err := bulk.Commit(); err != nil || n != 436 {
			t.Fatalf("add: %d added, %v", n, err)
		}
		all, _ := s.Benchmarks(ctx, store.Filter{})
		if len(all) != 437 {
			t.Fatalf("%d benchmarks, want 437", len(all))
		}
		byPath := map[string]benchmark.Benchmark{}
		for _, b := range all {
			byPath[b.Path] = b
		}
		if got := byPath[old.Path]; got.Status != benchmark.Sat || got.Asserts != 3 {
			t.Errorf("the benchmark already there was changed: %+v", got)
		}
		if got := byPath[twice.Path]; got.Asserts != 40 {
			t.Errorf("of a path given twice, %d assertions, want the first's 40", got.Asserts)
		}
		for i, b := range in {
			got := byPath[b.Path]
			if i == 5 || i == 45 || i == len(in)-1 {
				continue
			}
			got.ID = 0
			if fmt.Sprint(got) != fmt.Sprint(b.Benchmark) {
				t.Errorf("benchmark %d: %+v, want %+v", i, got, b.Benchmark)
			}
		}
		// Again: nothing added.
		if n, bulk := add(in); n != 0 || bulk.Commit() != nil {
			t.Errorf("add again: %d added", n)
		}
	})

	// A bulk's methods may be called at once from several goroutines.
	t.Run("BulkConcurrent", func(t *testing.T) {
		s := open(t, newDSN(t))
		bulk, err := s.Bulk(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for g := range 4 {
			wg.Go(func() {
				for i := range 50 {
					if g%2 == 0 {
						r := store.Result{Year: 2024, Track: fmt.Sprint("t", g), Solver: "z3", BenchmarkPath: fmt.Sprint("non-incremental/QF_UF/", i),
							SourceKey: fmt.Sprint(g, ":", i)}
						if _, err := bulk.AddResults([]store.Result{r}, nil, nil); err != nil {
							errs[g] = err
						}
					} else if _, err := bulk.AddBenchmarks([]store.Indexed{bench(fmt.Sprintf("non-incremental/QF_UF/%d/%d.smt2", g, i), "QF_UF", benchmark.Sat)}); err != nil {
						errs[g] = err
					}
				}
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		if err := bulk.Commit(); err != nil {
			t.Fatal(err)
		}
		rs, _ := s.Results(ctx, store.ResultFilter{})
		bs, _ := s.Benchmarks(ctx, store.Filter{})
		if len(rs) != 100 || len(bs) != 100 {
			t.Errorf("%d results and %d benchmarks, want 100 of each", len(rs), len(bs))
		}
	})

	t.Run("Selections", func(t *testing.T) {
		s := open(t, newDSN(t))
		var in []store.Indexed
		for i := 0; i < 5; i++ {
			in = append(in, bench(fmt.Sprintf("non-incremental/QF_UF/f/%d.smt2", i), "QF_UF", benchmark.Sat))
		}
		if err := s.UpsertBenchmarks(ctx, in); err != nil {
			t.Fatal(err)
		}
		bs, _ := s.Benchmarks(ctx, store.Filter{})
		sel := store.Selection{Name: "sq", Rules: 2022, Track: "single-query", Seed: 4294967295}
		for i, b := range bs[:3] {
			sel.Items = append(sel.Items, store.SelectionItem{BenchmarkID: b.ID, Heat: i % 2})
		}
		if _, err := s.SaveSelection(ctx, sel); err != nil {
			t.Fatal(err)
		}
		sel.Items = sel.Items[:2]
		if _, err := s.SaveSelection(ctx, sel); err != nil {
			t.Fatal(err)
		}
		got, err := s.Selection(ctx, "sq")
		if err != nil || len(got.Items) != 2 || got.Seed != 4294967295 || got.Items[1].Heat != 1 || got.Items[0].Path != bs[0].Path {
			t.Errorf("selection: %v %+v", err, got)
		}
		if _, err := s.Selection(ctx, "none"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("missing selection: %v", err)
		}
	})

	t.Run("Cores", func(t *testing.T) {
		s := open(t, newDSN(t))
		c := store.Core{Competition: "c/unsat-core/validation", Hash: "h1", BenchmarkPath: "non-incremental/QF_UF/f/a.smt2",
			Logic: "QF_UF", Input: "/w/h1.smt2", Names: "a1 a2"}
		id, err := s.AddCore(ctx, c)
		if err != nil || id == 0 {
			t.Fatalf("add: %d %v", id, err)
		}
		// The same core again (another solver gave it) is the same core.
		if again, err := s.AddCore(ctx, c); err != nil || again != id {
			t.Errorf("add again: %d %v, want %d", again, err, id)
		}
		c2 := c
		c2.Hash, c2.Names = "h2", "a1"
		id2, err := s.AddCore(ctx, c2)
		if err != nil || id2 == id {
			t.Errorf("second core: %d %v", id2, err)
		}
		other := c
		other.Competition = "d/unsat-core/validation"
		if id3, err := s.AddCore(ctx, other); err != nil || id3 == id || id3 == id2 {
			t.Errorf("another competition's core: %d %v", id3, err)
		}
		if err := s.SetCoreVerdict(ctx, id2, "refuted", `{"sat":2}`); err != nil {
			t.Fatal(err)
		}
		if err := s.SetCoreVerdict(ctx, 1<<40, "refuted", ""); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("verdict of no core: %v", err)
		}
		cs, err := s.Cores(ctx, c.Competition)
		if err != nil || len(cs) != 2 || cs[0].ID != id || cs[0].Names != "a1 a2" || cs[0].Verdict != "" ||
			cs[1].Verdict != "refuted" || cs[1].Detail != `{"sat":2}` || cs[1].Logic != "QF_UF" || cs[1].Input != "/w/h1.smt2" {
			t.Errorf("cores: %v %+v", err, cs)
		}
	})

	t.Run("Pairs", func(t *testing.T) {
		s := open(t, newDSN(t))
		var in []store.Indexed
		for i := 0; i < 10; i++ {
			in = append(in, bench(fmt.Sprintf("non-incremental/QF_UF/f/%d.smt2", i), "QF_UF", benchmark.Sat))
		}
		if err := s.UpsertBenchmarks(ctx, in); err != nil {
			t.Fatal(err)
		}
		bs, _ := s.Benchmarks(ctx, store.Filter{})
		var ps []store.Pair
		for i, b := range bs {
			for j, solver := range []string{"a", "b"} {
				ps = append(ps, store.Pair{Competition: "c", Track: "single-query", Division: "QF_Equality", Logic: "QF_UF",
					Solver: solver, Configuration: "default", BenchmarkID: b.ID, BenchmarkPath: b.Path, Input: "/x", Expected: "sat",
					Seq: int64(2*i + j)})
			}
		}
		if n, err := s.PlanPairs(ctx, ps); err != nil || n != 20 {
			t.Fatalf("plan: %d %v", n, err)
		}
		if n, _ := s.PlanPairs(ctx, ps); n != 0 {
			t.Errorf("planning again added %d", n)
		}
		got, err := s.ClaimPairs(ctx, "c", "w1", 3, time.Minute)
		if err != nil || len(got) != 3 || got[0].Seq != 0 || got[2].Seq != 2 || got[0].State != store.PairRunning || got[0].Attempts != 1 {
			t.Fatalf("claim: %v %+v", err, got)
		}
		// An expired lease is claimed again; a live one is not.
		short, _ := s.ClaimPairs(ctx, "c", "w2", 2, -time.Second)
		time.Sleep(5 * time.Millisecond)
		again, _ := s.ClaimPairs(ctx, "c", "w3", 4, time.Minute)
		if len(short) != 2 || len(again) != 4 || again[0].ID != short[0].ID || again[0].Attempts != 2 {
			t.Errorf("expired leases: %+v then %+v", short, again)
		}
		if owners, _ := s.RunningOwners(ctx, "c"); len(owners) != 2 {
			t.Errorf("owners %v", owners)
		}
		if n, err := s.ReleaseOwner(ctx, "c", "w3"); err != nil || n != 4 {
			t.Errorf("release: %d %v", n, err)
		}
		r := store.Result{Competition: "c", Year: 2022, Track: "single-query", Solver: "a", Configuration: "default",
			BenchmarkPath: got[0].BenchmarkPath, Status: "complete", Answer: "sat", Expected: "sat", CPU: 1, Wall: 1, Extra: "{}"}
		if err := s.CompletePair(ctx, got[0], r); err != nil {
			t.Fatal(err)
		}
		r.Answer = "unsat"
		if err := s.CompletePair(ctx, got[0], r); err != nil { // a second worker finishing the same pair
			t.Fatal(err)
		}
		rs, _ := s.Results(ctx, store.ResultFilter{BenchmarkPath: got[0].BenchmarkPath})
		if len(rs) != 1 || rs[0].Answer != "sat" {
			t.Errorf("a pair completed twice was recorded %d times (%+v)", len(rs), rs)
		}
		counts, err := s.PairCounts(ctx, "c")
		if err != nil || counts["single-query"][store.PairDone] != 1 || counts["single-query"][store.PairRunning] != 2 {
			t.Errorf("counts %v %v", counts, err)
		}
		// Concurrent claims never hand out a pair twice.
		seen := make(chan int64, 100)
		var wg sync.WaitGroup
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for {
					ps, err := s.ClaimPairs(ctx, "c", fmt.Sprintf("cw%d", w), 2, time.Minute)
					if err != nil {
						t.Error(err)
						return
					}
					if len(ps) == 0 {
						return
					}
					for _, p := range ps {
						seen <- p.ID
					}
				}
			}(w)
		}
		wg.Wait()
		close(seen)
		ids := map[int64]bool{}
		for id := range seen {
			if ids[id] {
				t.Errorf("pair %d claimed twice", id)
			}
			ids[id] = true
		}
		if len(ids) != 17 {
			t.Errorf("concurrent workers claimed %d pairs, want the 17 left", len(ids))
		}
	})

	t.Run("Reopen", func(t *testing.T) {
		dsn := newDSN(t)
		s := open(t, dsn)
		if err := s.UpsertBenchmarks(ctx, []store.Indexed{bench("non-incremental/QF_UF/f/a.smt2", "QF_UF", benchmark.Sat)}); err != nil {
			t.Fatal(err)
		}
		s.Close()
		s2 := open(t, dsn) // migrations run once; data stays
		if bs, err := s2.Benchmarks(ctx, store.Filter{}); err != nil || len(bs) != 1 {
			t.Errorf("after reopen: %v %d", err, len(bs))
		}
	})

	t.Run("ConcurrentOpen", func(t *testing.T) {
		// Many processes opening a new store at once migrate it once; the
		// others wait and find it migrated.
		dsn := newDSN(t)
		const n = 6
		errs := make(chan error, n)
		var wg sync.WaitGroup
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := store.Open(ctx, dsn)
				if err == nil {
					_, err = s.PairCounts(ctx, "c")
					s.Close()
				}
				errs <- err
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Errorf("concurrent open: %v", err)
			}
		}
	})

	t.Run("NodeCounts", func(t *testing.T) {
		s := open(t, newDSN(t))
		var ps []store.Pair
		for i := 0; i < 4; i++ {
			ps = append(ps, store.Pair{Competition: "n", Track: "single-query", Division: "QF_Equality", Logic: "QF_UF",
				Solver: "z3", Configuration: "default", BenchmarkID: int64(i + 1), BenchmarkPath: fmt.Sprintf("b%d", i), Seq: int64(i)})
		}
		if _, err := s.PlanPairs(ctx, ps); err != nil {
			t.Fatal(err)
		}
		a, err := s.ClaimPairs(ctx, "n", "node1/10/5", 2, time.Minute)
		if err != nil || len(a) != 2 {
			t.Fatalf("claim: %v %d", err, len(a))
		}
		b, err := s.ClaimPairs(ctx, "n", "node2/11/6", 1, -time.Second) // expires at once
		if err != nil || len(b) != 1 {
			t.Fatalf("claim: %v %d", err, len(b))
		}
		c, err := s.ClaimPairs(ctx, "n", "node1/12/7", 2, time.Minute) // takes node2's expired pair, and the last
		if err != nil || len(c) != 2 || c[0].ID != b[0].ID {
			t.Fatalf("claim after expiry: %v %+v", err, c)
		}
		r := store.Result{Competition: "N", Year: 2024, Track: "single-query", Solver: "z3", Configuration: "default", Status: "complete", Answer: "sat"}
		if err := s.CompletePair(ctx, a[0], r); err != nil {
			t.Fatal(err)
		}
		// node2 finishes the pair node1 took over first: node2 ran it.
		if err := s.CompletePair(ctx, b[0], r); err != nil {
			t.Fatal(err)
		}
		if err := s.CompletePair(ctx, c[0], r); err != nil { // recorded once, by node2
			t.Fatal(err)
		}
		got, err := s.NodeCounts(ctx, "n")
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]map[string]int{"node1": {store.PairDone: 1, store.PairRunning: 2}, "node2": {store.PairDone: 1}}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("node counts %v, want %v", got, want)
		}
		rs, _ := s.Results(ctx, store.ResultFilter{Track: "single-query"})
		if len(rs) != 2 {
			t.Errorf("%d results, want 2 (each pair once)", len(rs))
		}
	})

	t.Run("ClaimBenchmark", func(t *testing.T) {
		dsn := newDSN(t)
		s := open(t, dsn)
		var ps []store.Pair
		for b := 0; b < 12; b++ {
			for k, solver := range []string{"x", "y", "z"} {
				ps = append(ps, store.Pair{Competition: "g", Track: "single-query", Division: "QF_Equality", Logic: "QF_UF",
					Solver: solver, Configuration: "default", BenchmarkID: int64(b + 1), BenchmarkPath: fmt.Sprintf("b%d", b), Seq: int64(3*b + k)})
			}
		}
		if _, err := s.PlanPairs(ctx, ps); err != nil {
			t.Fatal(err)
		}
		// A benchmark whose lease expires is claimed again first, whole.
		first, err := s.ClaimBenchmark(ctx, "g", "w0", -time.Second)
		if err != nil || len(first) != 3 || first[0].BenchmarkID != 1 || first[2].Seq != 2 {
			t.Fatalf("first claim: %v %+v", err, first)
		}
		again, err := s.ClaimBenchmark(ctx, "g", "w1", time.Minute)
		if err != nil || len(again) != 3 || again[0].BenchmarkID != 1 || again[0].Attempts != 2 {
			t.Fatalf("expired benchmark: %v %+v", err, again)
		}
		// Concurrent workers (each a store of its own) never split a
		// benchmark nor claim a pair twice.
		var mu sync.Mutex
		seen := map[int64]string{}
		var wg sync.WaitGroup
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				st, err := store.Open(ctx, dsn)
				if err != nil {
					t.Error(err)
					return
				}
				defer st.Close()
				owner := fmt.Sprintf("cw%d", w)
				for {
					got, err := st.ClaimBenchmark(ctx, "g", owner, time.Minute)
					if err != nil {
						t.Error(err)
						return
					}
					if len(got) == 0 {
						return
					}
					mu.Lock()
					for _, p := range got {
						if p.BenchmarkID != got[0].BenchmarkID {
							t.Errorf("one claim, two benchmarks: %+v", got)
						}
						if o, dup := seen[p.ID]; dup {
							t.Errorf("pair %d claimed by %s and %s", p.ID, o, owner)
						}
						seen[p.ID] = owner
					}
					if len(got) != 3 {
						t.Errorf("a benchmark split: %d of its 3 pairs", len(got))
					}
					mu.Unlock()
				}
			}(w)
		}
		wg.Wait()
		if len(seen) != 33 {
			t.Errorf("claimed %d pairs, want the 33 left", len(seen))
		}
	})
}
