package score_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/official"
	"github.com/smtarena/smtarena/internal/score"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// The 2020 tracks whose published pages TestReproduce2020 checks.
var tracks2020 = []struct {
	track benchmark.Track
}{
	{benchmark.Incremental},
	{benchmark.UnsatCore},
	{benchmark.ModelValidation},
}

// known2020 are the 2020 pages that are not reproduced, each with the
// reason docs/scoring.md gives.
var known2020 = map[string]string{
	"QF_AUFLIA-unsat-core.md":    "MathSAT5's errorFootnote, written into the page by hand",
	"QF_UF-unsat-core.md":        "MathSAT5's errorFootnote, written into the page by hand",
	"QF_BV-model-validation.md":  "MathSAT5-mv's errorFootnote, written into the page by hand",
	"QF_IDL-model-validation.md": "MathSAT5-mv's errorFootnote, written into the page by hand",
	"QF_LIA-model-validation.md": "MathSAT5-mv's errorFootnote, written into the page by hand",
	"QF_LRA-model-validation.md": "MathSAT5-mv's and SMTInterpol's errorFootnotes, written into the page by hand",
}

type data2020 struct {
	rows    map[benchmark.Track][]score.Row
	reg     score.Registry
	exclude map[benchmark.Track][]score.Exclusion
	exp     map[benchmark.Track][]string
}

var (
	load2020Once sync.Once
	d2020        data2020
	err2020      error
)

// load2020 imports the official 2020 job exports (three CSVs in each
// track's Job_infos.tar.xz) into a temporary SQLite store as `smtarena
// import` does, reads the rows back as `smtarena score` does, and reads
// the registration, the exclusion lists and the experimental divisions.
func load2020(t *testing.T) data2020 {
	t.Helper()
	dir := testenv.Shared(t, "official-results/2020")
	load2020Once.Do(func() { d2020, err2020 = read2020(dir) })
	if err2020 != nil {
		t.Fatal(err2020)
	}
	return d2020
}

func read2020(dir string) (data2020, error) {
	d := data2020{rows: map[benchmark.Track][]score.Row{}, exclude: map[benchmark.Track][]score.Exclusion{}, exp: map[benchmark.Track][]string{}}
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "score2020")
	if err != nil {
		return d, err
	}
	defer os.RemoveAll(tmp)
	st, err := store.OpenSQLite(ctx, filepath.Join(tmp, "db.sqlite"))
	if err != nil {
		return d, err
	}
	defer st.Close()
	checks, err := official.ReadCheckSats(filepath.Join(dir, "prep/SMT-LIB_incremental_benchmarks_num_check_sat.tar.xz"))
	if err != nil {
		return d, err
	}
	f, err := os.Open(filepath.Join(dir, "registration/solvers_divisions_final.csv"))
	if err != nil {
		return d, err
	}
	d.reg, err = score.ParseRegistration(f)
	f.Close()
	if err != nil {
		return d, err
	}
	lists := map[string][]byte{}
	if err := official.EachFile(filepath.Join(dir, "scoring/blacklists.tar.xz"), []string{".txt"}, func(name string, r io.Reader) error {
		b, err := io.ReadAll(r)
		lists[name] = b
		return err
	}); err != nil {
		return d, err
	}
	expf, err := os.ReadFile(filepath.Join(dir, "experimental.csv"))
	if err != nil {
		return d, err
	}
	recs, err := csv.NewReader(bytes.NewReader(expf)).ReadAll()
	if err != nil {
		return d, err
	}
	for _, r := range recs[1:] {
		tr, err := benchmark.ParseTrack(strings.ReplaceAll(r[0], "_", "-"))
		if err != nil {
			return d, err
		}
		d.exp[tr] = append(d.exp[tr], r[1])
	}
	names := make([]string, 0, len(lists))
	for name := range lists {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, tr := range tracks2020 {
		for _, name := range names {
			b := lists[name]
			// every list, as `smtarena score --exclude blacklists.tar.xz`
			// passes them: each applies to the library its name says
			ex, err := score.ParseExclusion(name, bytes.NewReader(b))
			if err != nil {
				return d, err
			}
			d.exclude[tr.track] = append(d.exclude[tr.track], ex)
		}
		if _, err := official.ImportStarExec(ctx, st, filepath.Join(dir, "results", string(tr.track), "Job_infos.tar.xz"), official.Options{}); err != nil {
			return d, err
		}
		rs, err := st.Results(ctx, store.ResultFilter{Year: 2020, Track: string(tr.track)})
		if err != nil {
			return d, err
		}
		for _, r := range rs {
			row, err := score.RowOf(r.Solver, r.BenchmarkPath, r.Status, r.Answer, r.Expected, r.CPU, r.Wall, r.Extra)
			if err != nil {
				return d, err
			}
			if tr.track == benchmark.Incremental {
				row.CheckSats = int32(checks[row.Benchmark])
			}
			d.rows[tr.track] = append(d.rows[tr.track], row)
		}
	}
	return d, nil
}

func TestReproduce2020(t *testing.T) {
	d := load2020(t)
	dir := testenv.Shared(t, "official-results/2020/pages")
	total, matched := 0, 0
	for _, tr := range tracks2020 {
		rep, err := score.Score(d.rows[tr.track], score.Options{Rules: 2020, Year: 2020, Track: tr.track, Compat: score.Official,
			Solvers: d.reg, Exclude: d.exclude[tr.track], Experimental: d.exp[tr.track]})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range rep.Excluded {
			t.Logf("%s: %s: %d rows", tr.track, e.Name, e.Rows)
			// make_mds.sh applies the incremental lists to the
			// incremental track only, the others to the other tracks
			inc := strings.Contains(e.Name, "blacklist_incremental_")
			non := strings.Contains(e.Name, "blacklist_nonincremental_")
			if e.Rows > 0 && ((inc && tr.track != benchmark.Incremental) || (non && tr.track == benchmark.Incremental)) {
				t.Errorf("%s: %s removed %d rows", tr.track, e.Name, e.Rows)
			}
		}
		n, ok, exact := comparePages(t, rep, dir, tr.track, known2020, nil)
		t.Logf("%s: %d of %d published pages reproduced (%d byte for byte)", tr.track, ok, n, exact)
		total += n
		matched += ok
	}
	sq, _ := filepath.Glob(filepath.Join(dir, "*-single-query.md"))
	t.Logf("2020: %d of %d pages of the incremental, unsat-core and model-validation tracks reproduced; "+
		"the %d single-query pages are not checked: the single-query job exports of 2020 are not in the shared data", matched, total, len(sq))
}
