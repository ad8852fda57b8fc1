package official

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

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
