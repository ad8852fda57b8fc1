package score_test

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/score"
	"github.com/smtarena/smtarena/internal/score/pagecheck"
	"github.com/smtarena/smtarena/internal/testenv"
)

// The 2024 tracks with results and the files they come from. Single
// query and model validation were published without their results (the
// shared data has no results-sq-2024 or results-mv-2024): their pages
// cannot be checked and TestReproduce2024 names them.
var tracks2024 = []struct {
	track  benchmark.Track
	file   string
	suffix string
}{
	{benchmark.Incremental, "results-inc-2024.json.gz", "incremental"},
	{benchmark.UnsatCore, "results-uc-2024.json.gz", "unsat-core"},
	{benchmark.Cloud, "results-cloud-2024.json.gz", "cloud"},
	{benchmark.Parallel, "results-parallel-2024.json.gz", "parallel"},
}

type info2024 struct {
	status  string
	asserts int
}

var (
	bench2024Once sync.Once
	bench2024     map[string]info2024
	benchErr2024  error
)

func readGz(path string, v any) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	return json.NewDecoder(zr).Decode(v)
}

type file2024 struct {
	Incremental bool
	Logic       string
	Family      []string
	Name        string
}

func (f file2024) path() string {
	top := "non-incremental"
	if f.Incremental {
		top = "incremental"
	}
	return strings.Join(append(append([]string{top, f.Logic}, f.Family...), f.Name), "/")
}

// benchmarks2024 reads benchmarks-2024.json.gz: status and assertions.
func benchmarks2024(t *testing.T, dir string) map[string]info2024 {
	bench2024Once.Do(func() {
		var doc struct {
			NonIncremental []struct {
				File    file2024
				Status  string
				Asserts int
			} `json:"non_incremental"`
		}
		if benchErr2024 = readGz(filepath.Join(dir, "benchmarks-2024.json.gz"), &doc); benchErr2024 != nil {
			return
		}
		bench2024 = map[string]info2024{}
		for _, b := range doc.NonIncremental {
			bench2024[b.File.path()] = info2024{b.Status, b.Asserts}
		}
	})
	if benchErr2024 != nil {
		t.Fatal(benchErr2024)
	}
	return bench2024
}

// rows2024 reads a results file into rows as `smtarena import
// smtcomp-json` and `smtarena score` make them: Timeout and OutOfMemory
// statuses, the benchmark's status as expected, nb_answers as the
// incremental correct answers, the unsat core's assertions minus its size
// as its reduction.
func rows2024(t *testing.T, dir, file string, track benchmark.Track) []score.Row {
	info := benchmarks2024(t, dir)
	var doc struct {
		Results []struct {
			Solver        string
			File          file2024
			Result        string
			CPUTime       float64 `json:"cpu_time"`
			WallclockTime float64 `json:"wallclock_time"`
			NbAnswers     int     `json:"nb_answers"`
		}
	}
	if err := readGz(filepath.Join(dir, file), &doc); err != nil {
		t.Fatal(err)
	}
	rows := make([]score.Row, 0, len(doc.Results))
	for _, r := range doc.Results {
		p := r.File.path()
		row := score.Row{Solver: r.Solver, Benchmark: p, Status: "complete", Answer: "unknown", Expected: info[p].status, CPU: r.CPUTime, Wall: r.WallclockTime, Result: r.Result}
		switch r.Result {
		case "sat", "unsat":
			row.Answer = r.Result
		case "Timeout":
			row.Status = "timeout"
		case "OutOfMemory":
			row.Status = "memout"
		case "IncrementalError":
			row.WrongAnswers = 1
		}
		switch track {
		case benchmark.Incremental:
			row.CorrectAnswers = int32(r.NbAnswers)
		case benchmark.UnsatCore:
			row.CoreSize = int32(r.NbAnswers)
			row.Asserts = int32(info[p].asserts)
			if row.Answer == "unsat" {
				row.Reduction = max(row.Asserts-row.CoreSize, 0)
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// setup2024 reads defs.py and the submissions.
func setup2024(t *testing.T, root string) (*score.SMTCOMPDefs, map[string][]byte) {
	src, err := os.ReadFile(filepath.Join(root, "submissions/smtcomp/defs.py"))
	if err != nil {
		t.Fatal(err)
	}
	defs, err := score.ParseSMTCOMPDefs(src)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(root, "submissions/submissions/*.json"))
	subs := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		subs[filepath.Base(f)] = data
	}
	return defs, subs
}

// Score2024 scores a track of 2024 as the official pages were computed.
func score2024(t *testing.T, root string, track benchmark.Track, file string) *score.Report {
	defs, subs := setup2024(t, root)
	entrants, reg, err := defs.Entrants(track, subs)
	if err != nil {
		t.Fatal(err)
	}
	rows := rows2024(t, filepath.Join(root, "data"), file, track)
	o := score.Options{Rules: 2024, Year: 2024, Track: track, Compat: score.Official,
		Divisions: defs.Divisions(track), Entrants: entrants, Solvers: reg, Removed: defs.RemovedResults, Status: map[string]string{}}
	for p, in := range benchmarks2024(t, filepath.Join(root, "data")) {
		o.Status[p] = in.status
	}
	if track == benchmark.Cloud || track == benchmark.Parallel {
		// The tool scores each of the two tracks over both selections.
		for _, other := range tracks2024 {
			if other.track != track && (other.track == benchmark.Cloud || other.track == benchmark.Parallel) {
				for _, r := range rows2024(t, filepath.Join(root, "data"), other.file, other.track) {
					o.Selection = append(o.Selection, r.Benchmark)
				}
			}
		}
	}
	rep, err := score.Score(rows, o)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// known2024 are the published pages that our computation does not
// reproduce, each explained in docs/scoring.md ("2024 and later").
var known2024 = map[string]string{}

// TestReproduce2024 computes the incremental, unsat-core, cloud and
// parallel tracks of 2024 from the smtcomp tool's results, defs.py and the
// submissions, and compares every published page of these tracks
// (pages/DIVISION-TRACK, pages/LOGIC-TRACK, pages/results-TRACK,
// pages/biggest-lead-TRACK, pages/largest-contribution-TRACK) field by
// field: benchmarks, limits, logics, winners, and each solver's line of
// each score; the summary's winners and rankings; the recognitions' lines.
func TestReproduce2024(t *testing.T) {
	root := testenv.Shared(t, "official-results/2024")
	dirs, err := os.ReadDir(filepath.Join(root, "pages"))
	if err != nil {
		t.Fatal(err)
	}
	unchecked := map[string]int{}
	for _, d := range dirs {
		for _, suf := range []string{"single-query", "model-validation"} {
			if d.IsDir() && strings.HasSuffix(d.Name(), "-"+suf) {
				unchecked[suf]++
			}
		}
	}
	for suf, n := range unchecked {
		t.Logf("%s: %d published pages not checked: the shared data has no %s results of 2024 (results-%s-2024.json.gz)", suf, n, suf,
			map[string]string{"single-query": "sq", "model-validation": "mv"}[suf])
	}
	for _, tc := range tracks2024 {
		t.Run(tc.suffix, func(t *testing.T) {
			rep := score2024(t, root, tc.track, tc.file)
			pages, err := pagecheck.Check2024(root, rep, tc.suffix)
			if err != nil {
				t.Fatal(err)
			}
			ok, checked := pagecheck.Report(t, pages, known2024)
			t.Logf("%s: %d of %d published pages reproduced", tc.suffix, ok, checked)
		})
	}
}

// TestWebPages2024 renders the cloud and parallel tracks of 2024 as the
// website's JSON records: one record per published page, named as the
// page, whose numbers, printed as Hugo prints them, are the page's.
func TestWebPages2024(t *testing.T) {
	root := testenv.Shared(t, "official-results/2024")
	for _, tc := range tracks2024[2:] {
		rep := score2024(t, root, tc.track, tc.file)
		pages, err := score.WebPages(rep, "2024-07-08")
		if err != nil {
			t.Fatal(err)
		}
		var ours []string
		for _, p := range pages {
			ours = append(ours, strings.TrimSuffix(p.Name, ".md"))
			var rec struct {
				NBenchmarks int `json:"n_benchmarks"`
				Parallel    []struct {
					Name         string
					CorrectScore float64
					WallScore    float64
					Unsolved     int
				}
				Layout string
			}
			if err := json.Unmarshal([]byte(p.Text), &rec); err != nil {
				t.Fatalf("%s: %v", p.Name, err)
			}
			if rec.Layout != "result" {
				continue
			}
			raw, err := os.ReadFile(filepath.Join(root, "pages", strings.TrimSuffix(p.Name, ".md"), "index.html"))
			if err != nil {
				t.Errorf("%s: no published page: %v", p.Name, err)
				continue
			}
			page := string(raw)
			if m := pagecheck.BenchRE.FindStringSubmatch(page); m == nil || m[1] != strconv.Itoa(rec.NBenchmarks) {
				t.Errorf("%s: n_benchmarks %d, page %v", p.Name, rec.NBenchmarks, m)
			}
			for _, tb := range pagecheck.TableRE.FindAllStringSubmatch(page, -1) {
				if tb[1] != "parallel" {
					continue
				}
				rows := pagecheck.RowRE.FindAllStringSubmatch(tb[2], -1)[1:]
				if len(rows) != len(rec.Parallel) {
					t.Errorf("%s: %d parallel steps, page %d", p.Name, len(rec.Parallel), len(rows))
					continue
				}
				for i, r := range rows {
					c := pagecheck.Cells(r[1])
					st := rec.Parallel[i]
					if got := []string{st.Name, pagecheck.Hugo(st.CorrectScore), pagecheck.Hugo(st.WallScore), strconv.Itoa(st.Unsolved)}; got[0] != c[0] || got[1] != c[2] || got[2] != c[4] || got[3] != c[8] {
						t.Errorf("%s: step %d %v, page %v", p.Name, i+1, got, c)
					}
				}
			}
		}
		var published []string
		dirs, _ := os.ReadDir(filepath.Join(root, "pages"))
		for _, d := range dirs {
			if strings.HasSuffix(d.Name(), "-"+tc.suffix) {
				published = append(published, d.Name())
			}
		}
		sort.Strings(ours)
		if strings.Join(ours, " ") != strings.Join(published, " ") {
			t.Errorf("%s: records %v, published pages %v", tc.suffix, ours, published)
		}
	}
}
