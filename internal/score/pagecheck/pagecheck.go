// Package pagecheck compares a score.Report with the pages SMT-COMP
// published for 2024 (../shared/official-results/2024/pages, Hugo HTML),
// field by field: benchmarks, limits, logics, winners, each solver's line
// of each score, the summary's winners and rankings, the recognitions'
// lines. It serves the tests that reproduce 2024, from the smtcomp tool's
// JSON (internal/score) and through import and the store (cmd/smtarena),
// as storetest serves the store's.
package pagecheck

import (
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/score"
)

// Page is a published page compared.
type Page struct {
	Name      string   // the page's directory: DIVISION-TRACK, results-TRACK, ...
	NoSection bool     // the page has no <section> to compare
	Diffs     []string // the fields that differ (none: reproduced)
	// Zeros: time scores printed -0 where ours are 0 (the sign of a
	// rounding error of polars' summation order; docs/scoring.md).
	Zeros int
}

// Check2024 compares a track's report with every published page of the
// track (pages/*-SUFFIX under root).
func Check2024(root string, rep *score.Report, suffix string) ([]Page, error) {
	dirs, err := os.ReadDir(filepath.Join(root, "pages"))
	if err != nil {
		return nil, err
	}
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
		if d.IsDir() && strings.HasSuffix(d.Name(), "-"+suffix) {
			names = append(names, d.Name())
		}
	}
	sort.Strings(names)
	var out []Page
	for _, name := range names {
		raw, err := os.ReadFile(filepath.Join(root, "pages", name, "index.html"))
		if err != nil {
			return nil, err
		}
		p := Page{Name: name}
		m := SectionRE.FindSubmatch(raw)
		if m == nil {
			p.NoSection = true
			out = append(out, p)
			continue
		}
		page := string(m[1])
		switch base := strings.TrimSuffix(name, "-"+suffix); base {
		case "results":
			p.Diffs = summaryDiffs(page, rep)
		case "biggest-lead":
			p.Diffs, p.Zeros = recognitionDiffs(page, rep, true)
		case "largest-contribution":
			p.Diffs, p.Zeros = recognitionDiffs(page, rep, false)
		default:
			if d := byName[base]; d == nil {
				p.Diffs = []string{"no such division or logic in our computation"}
			} else {
				p.Diffs = divisionDiffs(page, rep, d)
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// Report fails the test for every page not reproduced unless known (the
// pages our computation does not reproduce, each explained in
// docs/scoring.md), and for every known one reproduced; it returns how
// many pages were reproduced and checked.
func Report(t testing.TB, pages []Page, known map[string]string) (ok, checked int) {
	t.Helper()
	for _, p := range pages {
		if p.NoSection {
			t.Errorf("%s: no section", p.Name)
			continue
		}
		checked++
		if p.Zeros > 0 {
			t.Logf("%s: %d time scores printed -0 where ours are 0 (the sign of a rounding error of polars' summation order; docs/scoring.md)", p.Name, p.Zeros)
		}
		diffs := p.Diffs
		if len(diffs) == 0 {
			ok++
			if why, known := known[p.Name]; known {
				t.Errorf("%s: reproduced, but listed as a known difference (%s)", p.Name, why)
			}
			continue
		}
		if why, known := known[p.Name]; known {
			t.Logf("%s: known difference (%s): %s", p.Name, why, strings.Join(diffs, "; "))
			continue
		}
		if len(diffs) > 8 {
			diffs = append(diffs[:8:8], fmt.Sprintf("... %d more", len(diffs)-8))
		}
		t.Errorf("%s: %s", p.Name, strings.Join(diffs, "; "))
	}
	return ok, checked
}

// Hugo prints a number as the website does: the tool rounds times to 6
// digits (float_6dig), Hugo prints the JSON number as Go's %g would with
// the shortest representation (2.0040419e+07, 30476.606885).
func Hugo(x float64) string {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 6, 64), 64)
	return strconv.FormatFloat(r, 'g', -1, 64)
}

var (
	reTag      = regexp.MustCompile(`<[^>]*>`)
	BenchRE    = regexp.MustCompile(`<b>Benchmarks</b>: (\d+)`)
	reLimits   = regexp.MustCompile(`<b>Time Limit:</b> (\d+) seconds<br><b>Memory Limit:</b> (\d+) GB`)
	reLogic    = regexp.MustCompile(`<li><a href=[^>]*>([^<]+)</a> : (\d+) benchmarks</li>`)
	reWinners  = regexp.MustCompile(`(?s)<h3>Winners</h3><table><thead><tr>(.*?)</tr></thead><tr>(.*?)</tr></table>`)
	reCell     = regexp.MustCompile(`(?s)<t[hd][^>]*>(.*?)</t[hd]>`)
	TableRE    = regexp.MustCompile(`(?s)<table id=(\w+) class="result sorted">(.*?)</table>`)
	RowRE      = regexp.MustCompile(`(?s)<tr>(.*?)</tr>`)
	reSumDiv   = regexp.MustCompile(`(?s)<h3><a href=[^>]*>([^<]+)</a></h3><table>(.*?)</table>`)
	SectionRE  = regexp.MustCompile(`(?s)<section>(.*)</section>`)
	kindOfHead = map[string]score.Kind{"Sequential Performance": score.Sequential, "Parallel Performance": score.Parallel,
		"SAT Performance (parallel)": score.Sat, "UNSAT Performance (parallel)": score.Unsat, "24 seconds Performance (parallel)": score.TwentyFour,
		"SAT Performance": score.Sat, "UNSAT Performance": score.Unsat, "24 seconds Performance": score.TwentyFour}
	kindOfID = map[string]score.Kind{"sequential": score.Sequential, "parallel": score.Parallel, "sat": score.Sat, "unsat": score.Unsat, "twentyfour": score.TwentyFour}
)

// Cells are the texts of a table row's cells.
func Cells(s string) []string {
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
	m := BenchRE.FindStringSubmatch(page)
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
	heads, wins := Cells(w[1]), Cells(w[2])
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
	for _, t := range TableRE.FindAllStringSubmatch(page, -1) {
		k := kindOfID[t[1]]
		r := d.Ranking(k)
		var es []score.Entry
		if r != nil {
			es = r.Entries
		}
		rows := RowRE.FindAllStringSubmatch(t[2], -1)[1:]
		if len(rows) != len(es) {
			diff(string(k)+" solvers", strconv.Itoa(len(es)), strconv.Itoa(len(rows)))
		}
		for i := 0; i < len(rows) && i < len(es); i++ {
			c := Cells(rows[i][1])
			e := es[i]
			got := []string{e.Solver, Hugo(e.Error), Hugo(e.Correct), Hugo(e.CPU), Hugo(e.Wall), strconv.Itoa(e.Solved), strconv.Itoa(e.SolvedSat),
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
		for _, row := range RowRE.FindAllStringSubmatch(m[2], -1) {
			c := Cells(row[1])
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
				out = append(out, [4]string{l.Division, l.First, Hugo(l.Correctness), Hugo(l.Time)})
			}
		} else {
			for _, c := range rep.LargestContribution[k] {
				out = append(out, [4]string{c.Division, c.Solver, Hugo(c.Correctness), Hugo(c.Time)})
			}
		}
		return out
	}
	heads, wins := Cells(w[1]), Cells(w[2])
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
	for _, t := range TableRE.FindAllStringSubmatch(page, -1) {
		k := kindOfID[t[1]]
		ours := lines(k)
		rows := RowRE.FindAllStringSubmatch(t[2], -1)[1:]
		if len(rows) != len(ours) {
			diffs = append(diffs, fmt.Sprintf("%s: page %d lines, ours %d", k, len(rows), len(ours)))
		}
		for i := 0; i < len(rows) && i < len(ours); i++ {
			c := Cells(rows[i][1])
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
