package score_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/official"
	"github.com/smtarena/smtarena/internal/score"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// The 2019 tracks whose published pages TestReproduce2019 checks.
var tracks2019 = []struct {
	track benchmark.Track
	file  string
}{
	{benchmark.Incremental, "Incremental_Track.csv.tar.xz"},
	{benchmark.UnsatCore, "Unsat_Core_Track.csv.tar.xz"},
	{benchmark.ModelValidation, "Model_Validation_Track.csv.tar.xz"},
}

var (
	rows2019Once sync.Once
	rows2019     map[benchmark.Track][]score.Row
	reg2019      score.Registry
	err2019      error
)

// load2019 imports the official 2019 result files into a temporary SQLite
// store, as `smtarena import` does, and reads the rows back as `smtarena
// score` does.
func load2019(t *testing.T) (map[benchmark.Track][]score.Row, score.Registry) {
	t.Helper()
	dir := testenv.Shared(t, "official-results/2019")
	rows2019Once.Do(func() {
		ctx := context.Background()
		tmp, err := os.MkdirTemp("", "score2019")
		if err != nil {
			err2019 = err
			return
		}
		defer os.RemoveAll(tmp)
		st, err := store.OpenSQLite(ctx, filepath.Join(tmp, "db.sqlite"))
		if err != nil {
			err2019 = err
			return
		}
		defer st.Close()
		checks, err := official.ReadCheckSats(filepath.Join(dir, "prep/incremental_num_check_sat.csv.tar.xz"))
		if err != nil {
			err2019 = err
			return
		}
		f, err := os.Open(filepath.Join(dir, "registration/solvers_divisions_final.csv"))
		if err != nil {
			err2019 = err
			return
		}
		reg2019, err2019 = score.ParseRegistration(f)
		f.Close()
		if err2019 != nil {
			return
		}
		rows2019 = map[benchmark.Track][]score.Row{}
		for _, tr := range tracks2019 {
			if _, err := official.ImportStarExec(ctx, st, filepath.Join(dir, "results", tr.file), official.Options{}); err != nil {
				err2019 = err
				return
			}
			rs, err := st.Results(ctx, store.ResultFilter{Year: 2019, Track: string(tr.track)})
			if err != nil {
				err2019 = err
				return
			}
			for _, r := range rs {
				row, err := score.RowOf(r.Solver, r.BenchmarkPath, r.Status, r.Answer, r.Expected, r.CPU, r.Wall, r.Extra)
				if err != nil {
					err2019 = err
					return
				}
				if tr.track == benchmark.Incremental {
					row.CheckSats = int32(checks[row.Benchmark])
				}
				rows2019[tr.track] = append(rows2019[tr.track], row)
			}
		}
	})
	if err2019 != nil {
		t.Fatal(err2019)
	}
	return rows2019, reg2019
}

func TestReproduce2019(t *testing.T) {
	rows, reg := load2019(t)
	dir := testenv.Shared(t, "official-results/2019/pages")
	total, matched := 0, 0
	for _, tr := range tracks2019 {
		rep, err := score.Score(rows[tr.track], score.Options{Rules: 2019, Year: 2019, Track: tr.track, Compat: score.Official, Solvers: reg})
		if err != nil {
			t.Fatal(err)
		}
		n, ok, exact := comparePages(t, rep, dir, tr.track, nil, nil)
		t.Logf("%s: %d of %d published pages reproduced (%d byte for byte)", tr.track, ok, n, exact)
		total += n
		matched += ok
	}
	t.Logf("2019: %d of %d pages of the incremental, unsat-core and model-validation tracks reproduced", matched, total)
}
