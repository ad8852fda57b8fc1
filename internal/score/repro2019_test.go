package score_test

import (
	"context"
	"fmt"
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
					row.CheckSats = checks[row.Benchmark]
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

// page is a result page's front matter: scalars, and lists of flat maps
// (the subset of YAML the pages use).
type page struct {
	scalars  map[string]string
	order    []string // scalars and sections in order
	sections map[string][]map[string]string
	fields   map[string][]string // field order of each section's items
}

func parsePage(text string) page {
	p := page{scalars: map[string]string{}, sections: map[string][]map[string]string{}, fields: map[string][]string{}}
	section := ""
	for _, line := range strings.Split(text, "\n") {
		if line == "---" || strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		item := strings.HasPrefix(line, "- ")
		k, v, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, "- ")), ":")
		v = strings.TrimSpace(v)
		switch {
		case !item && !strings.HasPrefix(line, " "):
			p.order = append(p.order, k)
			if v == "" {
				section = k
				p.sections[k] = []map[string]string{}
			} else {
				section = ""
				p.scalars[k] = v
			}
		case item:
			p.sections[section] = append(p.sections[section], map[string]string{k: v})
			if len(p.sections[section]) == 1 {
				p.fields[section] = append(p.fields[section], k)
			}
		default:
			its := p.sections[section]
			its[len(its)-1][k] = v
			if len(its) == 1 {
				p.fields[section] = append(p.fields[section], k)
			}
		}
	}
	return p
}

// diffPages compares a published page with ours field by field: the
// scalars, then each list item by item (in the published order), then the
// order of fields.
func diffPages(want, got string) []string {
	w, g := parsePage(want), parsePage(got)
	var out []string
	for _, k := range w.order {
		if k == "resultdate" {
			continue
		}
		if _, isList := w.sections[k]; isList {
			wl, gl := w.sections[k], g.sections[k]
			if _, ok := g.sections[k]; !ok {
				out = append(out, fmt.Sprintf("%s: missing", k))
				continue
			}
			if len(wl) != len(gl) {
				out = append(out, fmt.Sprintf("%s: %d entries, published %d", k, len(gl), len(wl)))
			}
			for i := range min(len(wl), len(gl)) {
				id := fmt.Sprintf("%s[%d] %s", k, i, wl[i]["name"])
				for _, f := range w.fields[k] {
					if gl[i][f] != wl[i][f] {
						out = append(out, fmt.Sprintf("%s %s: %q, published %q", id, f, gl[i][f], wl[i][f]))
					}
				}
				for f := range gl[i] {
					if _, ok := wl[i][f]; !ok {
						out = append(out, fmt.Sprintf("%s %s: %q not published", id, f, gl[i][f]))
					}
				}
			}
			if strings.Join(w.fields[k], ",") != strings.Join(g.fields[k], ",") {
				out = append(out, fmt.Sprintf("%s: fields %v, published %v", k, g.fields[k], w.fields[k]))
			}
			continue
		}
		if gv, ok := g.scalars[k]; !ok {
			out = append(out, fmt.Sprintf("%s: missing (published %s)", k, w.scalars[k]))
		} else if gv != w.scalars[k] {
			out = append(out, fmt.Sprintf("%s: %s, published %s", k, gv, w.scalars[k]))
		}
	}
	if strings.Join(w.order, ",") != strings.Join(g.order, ",") {
		out = append(out, fmt.Sprintf("keys %v, published %v", g.order, w.order))
	}
	return out
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
		pages := score.Pages(rep, "")
		ours := map[string]string{}
		for _, p := range pages {
			ours[p.Name] = p.Text
		}
		published, _ := filepath.Glob(filepath.Join(dir, "*-"+string(tr.track)+".md"))
		sort.Strings(published)
		n, ok, exact := 0, 0, 0
		for _, f := range published {
			name := filepath.Base(f)
			if strings.Contains(name, "challenge") {
				continue
			}
			n++
			want, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got, found := ours[name]
			if !found {
				t.Errorf("%s: no such page computed", name)
				continue
			}
			if d := diffPages(string(want), got); len(d) > 0 {
				if len(d) > 8 {
					d = append(d[:8], fmt.Sprintf("... %d more", len(d)-8))
				}
				t.Errorf("%s differs:\n  %s", name, strings.Join(d, "\n  "))
				continue
			}
			ok++
			date := ""
			if _, rest, found := strings.Cut(string(want), "resultdate: "); found {
				date, _, _ = strings.Cut(rest, "\n")
			}
			// Two published summary pages end in an extra blank line, one
			// does not: trailing newlines are not compared.
			got = strings.Replace(got, "resultdate: \n", "resultdate: "+date+"\n", 1)
			if strings.TrimRight(got, "\n") == strings.TrimRight(string(want), "\n") {
				exact++
			} else {
				t.Errorf("%s: same fields, other bytes:\n%s", name, got)
			}
		}
		for name := range ours {
			if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
				t.Errorf("%s: computed, but not published", name)
			}
		}
		t.Logf("%s: %d of %d published pages reproduced (%d byte for byte)", tr.track, ok, n, exact)
		total += n
		matched += ok
	}
	t.Logf("2019: %d of %d pages of the incremental, unsat-core and model-validation tracks reproduced", matched, total)
}
