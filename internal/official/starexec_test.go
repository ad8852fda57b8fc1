package official

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// TestStarExecRefusesAWS: an AWS table of the cloud and parallel tracks
// given as a StarExec export (no format word: the default) is refused with
// the format to give, not read with its repeated rows dropped; nothing is
// imported. aws-csv reads it, repeats and all.
func TestStarExecRefusesAWS(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "2022")
	os.MkdirAll(dir, 0o755)
	f := filepath.Join(dir, "raw-results-cloud.csv")
	os.WriteFile(f, []byte("benchmark,millisecond,result,cpu time,wallclock time,solver,solver id,configuration id,expected,status\n"+
		"./LRA/f/a.smt2,17913,unsat,17.913,17.913,Vampire,39081,659685,unsat,complete\n"+
		"./LRA/f/a.smt2,1200000,timeout,1200.0,1200.0,Vampire,39081,659685,unsat,complete\n"), 0o644)
	s, err := Import(ctx, st, "", f, Options{})
	if err == nil || !strings.Contains(err.Error(), "raw-results-cloud.csv:1: a millisecond column") || !strings.Contains(err.Error(), "aws-csv") || s.Added != 0 {
		t.Fatalf("%+v %v", s, err)
	}
	if n, _ := st.CountResults(ctx, store.ResultFilter{}); n != 0 {
		t.Errorf("%d results imported", n)
	}
	if s, err := Import(ctx, st, "aws-csv", f, Options{}); err != nil || s.Added != 2 {
		t.Errorf("aws-csv: %+v %v", s, err)
	}
	// The 2021 table lacks StarExec's cpu time: the same hint.
	f21 := filepath.Join(dir, "results.csv")
	os.WriteFile(f21, []byte("benchmark,solver,wallclock time,result\nx.smt2,s,1.0,sat\n"), 0o644)
	if _, err := Import(ctx, st, "", f21, Options{Track: "cloud"}); err == nil || !strings.Contains(err.Error(), `no "cpu time" column`) || !strings.Contains(err.Error(), "aws-csv") {
		t.Errorf("2021 table: %v", err)
	}
}

func TestImportStarExec(t *testing.T) {
	dir := testenv.Shared(t, "official-results/2019/results")
	st := openStore(t)
	ctx := context.Background()
	f := filepath.Join(dir, "Challenge_Track_non-incremental.csv.tar.xz")
	s, err := ImportStarExec(ctx, st, f, Options{})
	if err != nil || s.Rows != 272 || s.Added != 272 {
		t.Fatalf("%+v %v", s, err)
	}
	rs, err := st.Results(ctx, store.ResultFilter{Year: 2019, Track: "challenge-non-incremental"})
	if err != nil || len(rs) != 272 {
		t.Fatalf("%d results, %v", len(rs), err)
	}
	r := rs[0]
	if !strings.HasPrefix(r.BenchmarkPath, "non-incremental/QF_BV/2019-Wolf-fmbench/") || r.Solver == "" || !strings.HasSuffix(r.SourceKey, "\x1f449593719") ||
		r.Answer != "sat" || r.Expected != "sat" || r.CPU != 66.8227 || r.Competition != "SMT-COMP 2019" {
		t.Errorf("first result %+v", r)
	}
	if s, err := ImportStarExec(ctx, st, f, Options{}); err != nil || s.Added != 0 || s.Skipped != 272 {
		t.Errorf("re-import %+v %v", s, err)
	}
	inc, err := ImportStarExec(ctx, st, filepath.Join(dir, "Challenge_Track_incremental.csv.tar.xz"), Options{})
	if err != nil || inc.Added != 145 {
		t.Fatalf("%+v %v", inc, err)
	}
	rs, _ = st.Results(ctx, store.ResultFilter{Track: "challenge-incremental"})
	if !strings.HasPrefix(rs[0].BenchmarkPath, "incremental/QF_BV/") || !strings.Contains(rs[0].Extra, `"correct-answers":"24"`) {
		t.Errorf("incremental result %+v", rs[0])
	}
	if _, err := ImportStarExec(ctx, st, filepath.Join(dir, "nothing.csv"), Options{}); err == nil {
		t.Error("a missing file imported")
	}
}

func openStore(t *testing.T) store.Store {
	t.Helper()
	s, err := store.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
