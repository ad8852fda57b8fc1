package score_test

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/score"
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
			row.CorrectAnswers = r.NbAnswers
		case benchmark.UnsatCore:
			row.CoreSize = r.NbAnswers
			row.Asserts = info[p].asserts
			if row.Answer == "unsat" {
				row.Reduction = max(info[p].asserts-r.NbAnswers, 0)
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

// hugo prints a number as the website does: the tool rounds times to 6
// digits (float_6dig), Hugo prints the JSON number as Go's %g would with
// the shortest representation (2.0040419e+07, 30476.606885).
func hugo(x float64) string {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 6, 64), 64)
	return strconv.FormatFloat(r, 'g', -1, 64)
}

var (
	reTag      = regexp.MustCompile(`<[^>]*>`)
	reBench    = regexp.MustCompile(`<b>Benchmarks</b>: (\d+)`)
	reLimits   = regexp.MustCompile(`<b>Time Limit:</b> (\d+) seconds<br><b>Memory Limit:</b> (\d+) GB`)
	reLogic    = regexp.MustCompile(`<li><a href=[^>]*>([^<]+)</a> : (\d+) benchmarks</li>`)
	reWinners  = regexp.MustCompile(`(?s)<h3>Winners</h3><table><thead><tr>(.*?)</tr></thead><tr>(.*?)</tr></table>`)
	reCell     = regexp.MustCompile(`(?s)<t[hd][^>]*>(.*?)</t[hd]>`)
	reTable    = regexp.MustCompile(`(?s)<table id=(\w+) class="result sorted">(.*?)</table>`)
	reRow      = regexp.MustCompile(`(?s)<tr>(.*?)</tr>`)
	reSumDiv   = regexp.MustCompile(`(?s)<h3><a href=[^>]*>([^<]+)</a></h3><table>(.*?)</table>`)
	reSection  = regexp.MustCompile(`(?s)<section>(.*)</section>`)
	kindOfHead = map[string]score.Kind{"Sequential Performance": score.Sequential, "Parallel Performance": score.Parallel,
		"SAT Performance (parallel)": score.Sat, "UNSAT Performance (parallel)": score.Unsat, "24 seconds Performance (parallel)": score.TwentyFour,
		"SAT Performance": score.Sat, "UNSAT Performance": score.Unsat, "24 seconds Performance": score.TwentyFour}
	kindOfID = map[string]score.Kind{"sequential": score.Sequential, "parallel": score.Parallel, "sat": score.Sat, "unsat": score.Unsat, "twentyfour": score.TwentyFour}
)

func cells(s string) []string {
	var out []string
	for _, m := range reCell.FindAllStringSubmatch(s, -1) {
		out = append(out, strings.TrimSpace(html.UnescapeString(reTag.ReplaceAllString(m[1], ""))))
	}
	return out
}

// pageDiffs compares a division or logic page with our division.
func divisionDiffs(page string, rep *score.Report, d *score.Division) []string {
	var diffs []string
	diff := func(field, got, want string) {
		if got != want {
			diffs = append(diffs, fmt.Sprintf("%s: page %q, ours %q", field, want, got))
		}
	}
	m := reBench.FindStringSubmatch(page)
	if m == nil {
		return []string{"no benchmark count on the page"}
	}
	diff("benchmarks", strconv.Itoa(d.Benchmarks), m[1])
	if m := reLimits.FindStringSubmatch(page); m == nil {
		diffs = append(diffs, "no limits on the page")
	} else {
		diff("time limit", strconv.Itoa(int(rep.TimeLimit)), m[1])
		diff("memory limit", strconv.Itoa(rep.MemLimit), m[2])
	}
	var logics []string
	for _, m := range reLogic.FindAllStringSubmatch(page, -1) {
		logics = append(logics, m[1]+":"+m[2])
	}
	var ours []string
	if len(d.PerLogic) > 0 {
		for _, l := range d.Logics {
			ours = append(ours, l.Logic+":"+strconv.Itoa(l.Benchmarks))
		}
	}
	diff("logics", strings.Join(ours, " "), strings.Join(logics, " "))
	w := reWinners.FindStringSubmatch(page)
	if w == nil {
		return append(diffs, "no winners table")
	}
	heads, wins := cells(w[1]), cells(w[2])
	for i, h := range heads {
		k, ok := kindOfHead[h]
		if !ok || i >= len(wins) {
			diffs = append(diffs, "winners: column "+h)
			continue
		}
		got := "-"
		if r := d.Ranking(k); r != nil && r.Winner != "" {
			got = r.Winner
		}
		diff("winner "+string(k), got, wins[i])
	}
	for _, t := range reTable.FindAllStringSubmatch(page, -1) {
		k := kindOfID[t[1]]
		r := d.Ranking(k)
		var es []score.Entry
		if r != nil {
			es = r.Entries
		}
		rows := reRow.FindAllStringSubmatch(t[2], -1)[1:]
		if len(rows) != len(es) {
			diff(string(k)+" solvers", strconv.Itoa(len(es)), strconv.Itoa(len(rows)))
		}
		for i := 0; i < len(rows) && i < len(es); i++ {
			c := cells(rows[i][1])
			e := es[i]
			got := []string{e.Solver, hugo(e.Error), hugo(e.Correct), hugo(e.CPU), hugo(e.Wall), strconv.Itoa(e.Solved), strconv.Itoa(e.SolvedSat),
				strconv.Itoa(e.SolvedUnsat), strconv.Itoa(e.Unsolved), strconv.Itoa(e.Abstained), strconv.Itoa(e.Timeout), strconv.Itoa(e.Memout)}
			names := []string{"solver", "error", "correct", "CPU", "wall", "solved", "solved sat", "solved unsat", "unsolved", "abstained", "timeout", "memout"}
			for j := range names {
				if j < len(c) {
					diff(fmt.Sprintf("%s #%d %s", k, i+1, names[j]), got[j], c[j])
				}
			}
		}
	}
	return diffs
}

// summaryDiffs compares the track's summary page: per division and score
// the winner and the ranking's names.
func summaryDiffs(page string, rep *score.Report) []string {
	var diffs []string
	byName := map[string]*score.Division{}
	for i := range rep.Divisions {
		byName[rep.Divisions[i].Name] = &rep.Divisions[i]
	}
	var seen []string
	for _, m := range reSumDiv.FindAllStringSubmatch(page, -1) {
		seen = append(seen, m[1])
		d := byName[m[1]]
		if d == nil {
			diffs = append(diffs, "division "+m[1]+": not ours")
			continue
		}
		for _, row := range reRow.FindAllStringSubmatch(m[2], -1) {
			c := cells(row[1])
			if len(c) != 3 {
				continue
			}
			k, ok := kindOfHead[c[0]]
			if !ok {
				continue
			}
			win, names := "-", []string{}
			if r := d.Ranking(k); r != nil {
				if r.Winner != "" {
					win = r.Winner
				}
				for _, e := range r.Entries {
					names = append(names, e.Solver)
				}
			}
			if win != c[1] || strings.Join(names, ", ") != c[2] {
				diffs = append(diffs, fmt.Sprintf("%s %s: page %q %q, ours %q %q", m[1], k, c[1], c[2], win, strings.Join(names, ", ")))
			}
		}
	}
	var ours []string
	for _, d := range rep.Divisions {
		ours = append(ours, d.Name)
	}
	if strings.Join(ours, " ") != strings.Join(seen, " ") {
		diffs = append(diffs, fmt.Sprintf("divisions: page %v, ours %v", seen, ours))
	}
	return diffs
}

// recognitionDiffs compares the biggest lead or largest contribution page.
func recognitionDiffs(page string, rep *score.Report, lead bool) (diffs []string, zeros int) {
	w := reWinners.FindStringSubmatch(page)
	if w == nil {
		return []string{"no winners table"}, 0
	}
	lines := func(k score.Kind) [][4]string {
		var out [][4]string
		if lead {
			for _, l := range rep.BiggestLead[k] {
				out = append(out, [4]string{l.Division, l.First, hugo(l.Correctness), hugo(l.Time)})
			}
		} else {
			for _, c := range rep.LargestContribution[k] {
				out = append(out, [4]string{c.Division, c.Solver, hugo(c.Correctness), hugo(c.Time)})
			}
		}
		return out
	}
	heads, wins := cells(w[1]), cells(w[2])
	for i, h := range heads {
		k := kindOfHead[h]
		got := "-"
		if ls := lines(k); len(ls) > 0 && !(k == score.Sequential && (rep.Track == benchmark.Cloud || rep.Track == benchmark.Parallel)) {
			got = ls[0][1]
		}
		if i < len(wins) && got != wins[i] {
			diffs = append(diffs, fmt.Sprintf("winner %s: page %q, ours %q", k, wins[i], got))
		}
	}
	for _, t := range reTable.FindAllStringSubmatch(page, -1) {
		k := kindOfID[t[1]]
		ours := lines(k)
		rows := reRow.FindAllStringSubmatch(t[2], -1)[1:]
		if len(rows) != len(ours) {
			diffs = append(diffs, fmt.Sprintf("%s: page %d lines, ours %d", k, len(rows), len(ours)))
		}
		for i := 0; i < len(rows) && i < len(ours); i++ {
			c := cells(rows[i][1])
			if len(c) == 4 && c[3] == "-0" && ours[i][3] == "0" {
				// A time score of a solver that adds nothing: 1 - v/v,
				// whose sign is that of the last bit of two sums of the
				// same times in polars' (unspecified) group order.
				zeros++
				c[3] = "0"
			}
			if len(c) != 4 || [4]string{c[0], c[1], c[2], c[3]} != ours[i] {
				diffs = append(diffs, fmt.Sprintf("%s line %d: page %v, ours %v", k, i+1, c, ours[i]))
			}
		}
	}
	return diffs, zeros
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
			byName := map[string]*score.Division{}
			for i := range rep.Divisions {
				d := &rep.Divisions[i]
				byName[strings.ToLower(d.Name)] = d
				for j := range d.PerLogic {
					byName[strings.ToLower(d.PerLogic[j].Name)] = &d.PerLogic[j]
				}
			}
			var names []string
			for _, d := range dirs {
				if d.IsDir() && strings.HasSuffix(d.Name(), "-"+tc.suffix) {
					names = append(names, d.Name())
				}
			}
			sort.Strings(names)
			ok, checked := 0, 0
			for _, name := range names {
				raw, err := os.ReadFile(filepath.Join(root, "pages", name, "index.html"))
				if err != nil {
					t.Fatal(err)
				}
				m := reSection.FindSubmatch(raw)
				if m == nil {
					t.Errorf("%s: no section", name)
					continue
				}
				page := string(m[1])
				base := strings.TrimSuffix(name, "-"+tc.suffix)
				var diffs []string
				zeros := 0
				switch base {
				case "results":
					diffs = summaryDiffs(page, rep)
				case "biggest-lead":
					diffs, zeros = recognitionDiffs(page, rep, true)
				case "largest-contribution":
					diffs, zeros = recognitionDiffs(page, rep, false)
				default:
					d := byName[base]
					if d == nil {
						diffs = []string{"no such division or logic in our computation"}
					} else {
						diffs = divisionDiffs(page, rep, d)
					}
				}
				checked++
				if zeros > 0 {
					t.Logf("%s: %d time scores printed -0 where ours are 0 (the sign of a rounding error of polars' summation order; docs/scoring.md)", name, zeros)
				}
				if len(diffs) == 0 {
					ok++
					if why, known := known2024[name]; known {
						t.Errorf("%s: reproduced, but listed as a known difference (%s)", name, why)
					}
					continue
				}
				if why, known := known2024[name]; known {
					t.Logf("%s: known difference (%s): %s", name, why, strings.Join(diffs, "; "))
					continue
				}
				if len(diffs) > 8 {
					diffs = append(diffs[:8], fmt.Sprintf("... %d more", len(diffs)-8))
				}
				t.Errorf("%s: %s", name, strings.Join(diffs, "; "))
			}
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
			if m := reBench.FindStringSubmatch(page); m == nil || m[1] != strconv.Itoa(rec.NBenchmarks) {
				t.Errorf("%s: n_benchmarks %d, page %v", p.Name, rec.NBenchmarks, m)
			}
			for _, tb := range reTable.FindAllStringSubmatch(page, -1) {
				if tb[1] != "parallel" {
					continue
				}
				rows := reRow.FindAllStringSubmatch(tb[2], -1)[1:]
				if len(rows) != len(rec.Parallel) {
					t.Errorf("%s: %d parallel steps, page %d", p.Name, len(rec.Parallel), len(rows))
					continue
				}
				for i, r := range rows {
					c := cells(r[1])
					st := rec.Parallel[i]
					if got := []string{st.Name, hugo(st.CorrectScore), hugo(st.WallScore), strconv.Itoa(st.Unsolved)}; got[0] != c[0] || got[1] != c[2] || got[2] != c[4] || got[3] != c[8] {
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
