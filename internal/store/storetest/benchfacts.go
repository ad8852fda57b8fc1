package storetest

import (
	"context"
	"fmt"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/store"
)

// benchFacts: BenchFacts gives each path's facts in the order asked, with
// repeats, paths not indexed, paths that need escaping in JSON, and
// statuses other than the usual three.
func benchFacts(t *testing.T, s store.Store) {
	ctx := context.Background()
	odd := `non-incremental/QF_UF/"quoted" \back\slash/ünï	tab.smt2`
	in := []store.Indexed{
		{Benchmark: benchmark.Benchmark{Path: "non-incremental/QF_UF/f/a.smt2", Logic: "QF_UF", Status: benchmark.Sat, Asserts: 3, Category: benchmark.Industrial}},
		{Benchmark: benchmark.Benchmark{Path: "incremental/QF_LIA/f/b.smt2", Logic: "QF_LIA", Incremental: true, Status: benchmark.Unknown, CheckSats: 7}},
		{Benchmark: benchmark.Benchmark{Path: odd, Logic: "QF_UF", Status: benchmark.Status(`odd "status"`), Asserts: 12}},
		{Benchmark: benchmark.Benchmark{Path: "non-incremental/QF_UF/f/c.smt2", Logic: "QF_UF", Status: benchmark.Unsat, Asserts: 1}},
	}
	if err := s.UpsertBenchmarks(ctx, in); err != nil {
		t.Fatal(err)
	}
	none, err := s.BenchFacts(ctx, nil)
	if err != nil || len(none) != 0 {
		t.Fatalf("no paths: %v %v", none, err)
	}
	paths := []string{"no/such.smt2", in[3].Path, odd, in[1].Path, in[3].Path, "", in[0].Path}
	// More than go to the database at once.
	for range 9000 {
		paths = append(paths, in[1].Path, "non-incremental/QF_UF/f/z.smt2")
	}
	got, err := s.BenchFacts(ctx, paths)
	if err != nil {
		t.Fatal(err)
	}
	want := []store.BenchFact{{}, {Indexed: true, Status: benchmark.Unsat, Asserts: 1}, {Indexed: true, Status: `odd "status"`, Asserts: 12},
		{Indexed: true, Status: benchmark.Unknown, CheckSats: 7}, {Indexed: true, Status: benchmark.Unsat, Asserts: 1}, {},
		{Indexed: true, Status: benchmark.Sat, Asserts: 3}}
	if len(got) != len(paths) {
		t.Fatalf("%d facts for %d paths", len(got), len(paths))
	}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("%q: %+v, want %+v", paths[i], got[i], w)
		}
	}
	for i := len(want); i < len(paths); i += 2 {
		if got[i] != (store.BenchFact{Indexed: true, Status: benchmark.Unknown, CheckSats: 7}) || got[i+1] != (store.BenchFact{}) {
			t.Fatalf("%d: %+v %+v", i, got[i], got[i+1])
		}
	}
	// Many paths, unsorted, some not there: looked up in several chunks
	// at once.
	var many []store.Indexed
	for i := range 10000 {
		many = append(many, store.Indexed{Benchmark: benchmark.Benchmark{Path: fmt.Sprintf("non-incremental/QF_LIA/m/%05d.smt2", i), Logic: "QF_LIA", Status: benchmark.Sat, Asserts: i}})
	}
	if err := s.UpsertBenchmarks(ctx, many); err != nil {
		t.Fatal(err)
	}
	var ask []string
	for i := 10999; i >= 0; i-- {
		ask = append(ask, fmt.Sprintf("non-incremental/QF_LIA/m/%05d.smt2", (i*7919)%11000))
	}
	got, err = s.BenchFacts(ctx, ask)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ask {
		var k int
		fmt.Sscanf(p, "non-incremental/QF_LIA/m/%05d.smt2", &k)
		want := store.BenchFact{}
		if k < 10000 {
			want = store.BenchFact{Indexed: true, Status: benchmark.Sat, Asserts: k}
		}
		if got[i] != want {
			t.Fatalf("%s: %+v, want %+v", p, got[i], want)
		}
	}
	// The same looked up as the paths come (FactsAhead): the facts of
	// all, in their order, as BenchFacts gives them.
	ahead := store.NewFactsAhead(ctx, s)
	var read []string
	for _, p := range ask {
		read = append(read, p)
		ahead.Offer(read)
	}
	gotAhead, err := ahead.Wait(read)
	if err != nil {
		t.Fatal(err)
	}
	if len(gotAhead) != len(got) {
		t.Fatalf("FactsAhead: %d facts for %d paths", len(gotAhead), len(ask))
	}
	for i := range got {
		if gotAhead[i] != got[i] {
			t.Fatalf("FactsAhead: %s: %+v, want %+v", ask[i], gotAhead[i], got[i])
		}
	}
	stopped := store.NewFactsAhead(ctx, s)
	stopped.Offer(ask)
	stopped.Stop()
	// None found.
	got, err = s.BenchFacts(ctx, []string{"x", "y"})
	if err != nil || len(got) != 2 || got[0].Indexed || got[1].Indexed {
		t.Errorf("none found: %+v %v", got, err)
	}
}
