package score_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/official"
	"github.com/smtarena/smtarena/internal/score"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// The 2022 tracks run on AWS, with the joined tables the official scoring
// read (2022/scoring/make_mds.sh: score.py -y 2022 -t 1200 -T ct|pt
// -S registration/solvers_divisions_all.csv -D new-divisions.json).
var tracks2022 = []struct {
	track benchmark.Track
	file  string
}{
	{benchmark.Cloud, "raw-results-cloud.csv"},
	{benchmark.Parallel, "raw-results-parallel.csv"},
}

// published2022Only are pages score.py writes that the shared 2022 pages
// do not hold: the competition-wide recognitions of the two tracks.
var published2022Only = map[string]bool{
	"biggest-lead-cloud.md": true, "largest-contribution-cloud.md": true,
	"biggest-lead-parallel.md": true, "largest-contribution-parallel.md": true,
}

// load2022 imports the 2022 AWS tables into a temporary SQLite store, as
// `smtarena import aws-csv` does, and reads the rows back as `smtarena
// score` does.
func load2022(t *testing.T) (map[benchmark.Track][]score.Row, score.Registry, []byte) {
	t.Helper()
	dir := testenv.Shared(t, "official-results/2022")
	ctx := context.Background()
	st, err := store.OpenSQLite(ctx, filepath.Join(t.TempDir(), "db.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	f, err := os.Open(filepath.Join(dir, "registration/solvers_divisions_all.csv"))
	if err != nil {
		t.Fatal(err)
	}
	reg, err := score.ParseRegistration(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	divs, err := os.ReadFile(filepath.Join(dir, "new-divisions.json"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[benchmark.Track][]score.Row{}
	for _, tr := range tracks2022 {
		if _, err := official.ImportAWSCSV(ctx, st, filepath.Join(dir, "results", tr.file), official.Options{}); err != nil {
			t.Fatal(err)
		}
		rs, err := st.Results(ctx, store.ResultFilter{Year: 2022, Track: string(tr.track)})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			row, err := score.RowOf(r.Solver, r.BenchmarkPath, r.Status, r.Answer, r.Expected, r.CPU, r.Wall, r.Extra)
			if err != nil {
				t.Fatal(err)
			}
			rows[tr.track] = append(rows[tr.track], row)
		}
	}
	return rows, reg, divs
}

func TestReproduce2022(t *testing.T) {
	rows, reg, divs := load2022(t)
	dir := testenv.Shared(t, "official-results/2022/pages")
	total, matched := 0, 0
	for _, tr := range tracks2022 {
		dm, err := config.ParseDivisions(divs, tr.track)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := score.Score(rows[tr.track], score.Options{Rules: 2022, Year: 2022, Track: tr.track, Compat: score.Official,
			Solvers: reg, Divisions: dm})
		if err != nil {
			t.Fatal(err)
		}
		n, ok, exact := comparePages(t, rep, dir, tr.track, nil, published2022Only)
		t.Logf("%s: %d of %d published pages reproduced (%d byte for byte)", tr.track, ok, n, exact)
		total += n
		matched += ok
	}
	t.Logf("2022: %d of %d pages of the cloud and parallel tracks reproduced", matched, total)
}
