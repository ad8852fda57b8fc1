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

// The 2019 challenge tracks (TestReproduce2019Challenge): their stored
// names and files.
var challenges2019 = []struct{ name, file string }{
	{"challenge-non-incremental", "Challenge_Track_non-incremental.csv.tar.xz"},
	{"challenge-incremental", "Challenge_Track_incremental.csv.tar.xz"},
}

var (
	rows2019Once sync.Once
	rows2019     map[benchmark.Track][]score.Row
	// rowsChallenge2019: the challenge tracks' rows, by stored name
	rowsChallenge2019 map[string][]score.Row
	reg2019           score.Registry
	err2019           error
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
		// rowsOf reads a file's rows, stored under track name.
		rowsOf := func(file, name string) ([]score.Row, error) {
			if _, err := official.ImportStarExec(ctx, st, filepath.Join(dir, "results", file), official.Options{}); err != nil {
				return nil, err
			}
			rs, err := st.Results(ctx, store.ResultFilter{Year: 2019, Track: name})
			if err != nil {
				return nil, err
			}
			var rows []score.Row
			for _, r := range rs {
				row, err := score.RowOf(r.Solver, r.BenchmarkPath, r.Status, r.Answer, r.Expected, r.CPU, r.Wall, r.Extra)
				if err != nil {
					return nil, err
				}
				if n, ok := checks[row.Benchmark]; ok {
					row.CheckSats = int32(n) // an incremental benchmark's
				}
				rows = append(rows, row)
			}
			return rows, nil
		}
		rows2019 = map[benchmark.Track][]score.Row{}
		for _, tr := range tracks2019 {
			if rows2019[tr.track], err2019 = rowsOf(tr.file, string(tr.track)); err2019 != nil {
				return
			}
		}
		rowsChallenge2019 = map[string][]score.Row{}
		for _, c := range challenges2019 {
			if rowsChallenge2019[c.name], err2019 = rowsOf(c.file, c.name); err2019 != nil {
				return
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

// TestReproduce2019Challenge: the 2019 challenge tracks (single queries,
// incremental benchmarks) are scored as the tracks of their kind with a
// limit of 12 hours, into pages named after them: every published page of
// theirs (three divisions each, the biggest lead, the largest contribution
// and the summary) is reproduced.
func TestReproduce2019Challenge(t *testing.T) {
	load2019(t)
	dir := testenv.Shared(t, "official-results/2019/pages")
	total := 0
	for _, c := range challenges2019 {
		track := score.ChallengeTracks[c.name]
		rep, err := score.Score(rowsChallenge2019[c.name], score.Options{Rules: 2019, Year: 2019, Track: track, Challenge: true,
			Compat: score.Official, Solvers: reg2019})
		if err != nil {
			t.Fatal(err)
		}
		n, ok, exact := comparePages(t, rep, dir, track, nil, nil)
		t.Logf("%s: %d of %d published pages reproduced (%d byte for byte)", c.name, ok, n, exact)
		if n != 6 || ok != n {
			t.Errorf("%s: %d of %d pages reproduced, want all 6", c.name, ok, n)
		}
		total += n
	}
	if len(rowsChallenge2019["challenge-non-incremental"]) != 272 || len(rowsChallenge2019["challenge-incremental"]) != 145 {
		t.Errorf("challenge rows: %d and %d, want the files' 272 and 145", len(rowsChallenge2019["challenge-non-incremental"]), len(rowsChallenge2019["challenge-incremental"]))
	}
}
