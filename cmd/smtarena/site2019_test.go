package main

import (
	"bufio"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/testenv"
)

// publishedEntry is one solver's line of a published result page.
type publishedEntry map[string]string

// readPublished reads a published 2019 result page: the winners, the
// number of benchmarks, and each score's entries.
func readPublished(t *testing.T, path string) (meta map[string]string, scores map[string][]publishedEntry) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	meta, scores = map[string]string{}, map[string][]publishedEntry{}
	kind := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "- name: "):
			scores[kind] = append(scores[kind], publishedEntry{"name": strings.TrimPrefix(line, "- name: ")})
		case strings.HasPrefix(line, "  ") && kind != "":
			k, v, _ := strings.Cut(strings.TrimSpace(line), ": ")
			es := scores[kind]
			es[len(es)-1][k] = strings.Trim(v, `"`)
		case strings.HasSuffix(line, ":") && !strings.Contains(line, " "):
			kind = strings.TrimSuffix(line, ":")
		default:
			kind = ""
			if k, v, ok := strings.Cut(line, ": "); ok {
				meta[k] = v
			}
		}
	}
	return meta, scores
}

var (
	tableRe = regexp.MustCompile(`(?s)<table class="data sortable" id="rank-(\w+)">(.*?)</table>`)
	rowRe   = regexp.MustCompile(`(?s)<tr[^>]*>(.*?)</tr>`)
	cellRe  = regexp.MustCompile(`(?s)<td[^>]*>(.*?)</td>`)
	tagRe   = regexp.MustCompile(`<[^>]+>`)
	winRe   = regexp.MustCompile(`(?s)<h2>(\w+|24 s) score</h2><p>Winner: (.*?)</p>`)
)

// siteTables reads the score tables of a division page of the site: per
// score, the rows' cells as text.
func siteTables(page string) (tables map[string][][]string, winners map[string]string) {
	tables, winners = map[string][][]string{}, map[string]string{}
	for _, m := range tableRe.FindAllStringSubmatch(page, -1) {
		for _, r := range rowRe.FindAllStringSubmatch(m[2], -1) {
			var cells []string
			for _, c := range cellRe.FindAllStringSubmatch(r[1], -1) {
				cells = append(cells, html.UnescapeString(tagRe.ReplaceAllString(c[1], "")))
			}
			if len(cells) > 0 {
				tables[m[1]] = append(tables[m[1]], cells)
			}
		}
	}
	for _, m := range winRe.FindAllStringSubmatch(page, -1) {
		winners[m[1]] = html.UnescapeString(tagRe.ReplaceAllString(m[2], ""))
	}
	return tables, winners
}

// TestSite2019 imports the official 2019 results of the model-validation,
// incremental and unsat-core tracks, publishes them with smtarena report, re-scored
// the official way, and compares every number of every division page of
// the site with the page SMT-COMP published.
func TestSite2019(t *testing.T) {
	dir := testenv.Shared(t, "official-results/2019")
	tmp := t.TempDir()
	db := filepath.Join(tmp, "s.db")
	for _, f := range []string{"Model_Validation_Track.csv.tar.xz", "Incremental_Track.csv.tar.xz", "Unsat_Core_Track.csv.tar.xz"} {
		if code, _, errs := runCLI(t, "", "import", "--db", db, filepath.Join(dir, "results", f)); code != 0 {
			t.Fatalf("import %s: %d %s", f, code, errs)
		}
	}
	out := filepath.Join(tmp, "site")
	code, stdout, errs := runCLI(t, "", "report", "--db", db, "--rules", "2019", "--compat", "official",
		"--solvers", filepath.Join(dir, "registration/solvers_divisions_final.csv"),
		"--check-sats", filepath.Join(dir, "prep/incremental_num_check_sat.csv.tar.xz"), "--out", out)
	if code != 0 {
		t.Fatalf("report: %d\n%s\n%s", code, stdout, errs)
	}
	// official data has no output files: no downloads, no link to one
	if _, err := os.Stat(filepath.Join(out, "files")); !os.IsNotExist(err) {
		t.Errorf("the site of imported data has output files: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(out, "b", "0", "0.html")); err != nil || !strings.Contains(string(b), `<details><summary>pair</summary>`) ||
		strings.Contains(string(b), `class="download"`) {
		t.Errorf("the first benchmark page: pairs without a link to an output file expected (%v)", err)
	}
	// columns of the site's score tables
	col := map[string]int{"errorScore": 3, "correctScore": 4, "CPUScore": 5, "WallScore": 6, "unsolved": 10, "timeout": 12, "memout": 13}
	kinds := map[string]string{"sequential": "sequential", "parallel": "parallel", "sat": "sat", "unsat": "unsat", "twentyfour": "twentyfour"}
	winnerKey := map[string]string{"sequential": "winner_seq", "parallel": "winner_par", "sat": "winner_sat", "unsat": "winner_unsat", "24 s": "winner_24s"}
	pages, numbers := 0, 0
	for _, track := range []benchmark.Track{benchmark.ModelValidation, benchmark.Incremental, benchmark.UnsatCore} {
		published, _ := filepath.Glob(filepath.Join(dir, "pages", "*-"+string(track)+".md"))
		for _, f := range published {
			name := filepath.Base(f)
			if strings.Contains(name, "challenge") {
				continue
			}
			div := strings.TrimSuffix(name, "-"+string(track)+".md")
			switch div {
			case "results":
				continue // the summary page: layout only, no numbers
			case "biggest-lead", "largest-contribution":
				numbers += compareWide(t, f, filepath.Join(out, "t", string(track), "index.html"), track, div)
				pages++
				continue
			}
			b, err := os.ReadFile(filepath.Join(out, "t", string(track), div+".html"))
			if err != nil {
				t.Errorf("%s: no page on the site: %v", name, err)
				continue
			}
			pages++
			meta, scores := readPublished(t, f)
			tables, winners := siteTables(string(b))
			for label, key := range winnerKey {
				want, ok := meta[key]
				if !ok {
					continue
				}
				got := winners[label]
				if got == "—" {
					got = `"-"`
				}
				if got != want {
					t.Errorf("%s: %s %q on the site, %q published", name, key, got, want)
				}
			}
			for kind, entries := range scores {
				rows := tables[kinds[kind]]
				if len(rows) != len(entries) {
					t.Errorf("%s %s: %d rows on the site, %d published", name, kind, len(rows), len(entries))
					continue
				}
				for i, e := range entries {
					row := rows[i]
					if row[1] != e["name"] {
						t.Errorf("%s %s row %d: %q on the site, %q published", name, kind, i+1, row[1], e["name"])
						continue
					}
					for k, c := range col {
						want, ok := e[k]
						if !ok {
							continue
						}
						w, _ := strconv.ParseFloat(want, 64)
						g, err := strconv.ParseFloat(row[c], 64)
						if err != nil || g-w > 0.0005 || w-g > 0.0005 {
							t.Errorf("%s %s %s %s: %s on the site, %s published", name, kind, e["name"], k, row[c], want)
						}
						numbers++
					}
				}
			}
		}
	}
	if pages < 20 {
		t.Errorf("only %d published pages compared", pages)
	}
	t.Logf("%d published pages (divisions, biggest lead, largest contribution): %d numbers and names on the site equal to them", pages, numbers)
}

var anyTableRe = regexp.MustCompile(`(?s)<table class="data sortable" id="([\w-]+)">(.*?)</table>`)

// compareWide compares a published biggest-lead or largest-contribution
// page with the table of the track's page of the site.
func compareWide(t *testing.T, published, sitePage string, track benchmark.Track, which string) int {
	t.Helper()
	b, err := os.ReadFile(sitePage)
	if err != nil {
		t.Fatal(err)
	}
	_, scores := readPublished(t, published)
	prefix := map[string]string{"biggest-lead": "lead-", "largest-contribution": "contrib-"}[which] + string(track) + "-"
	tables := map[string][][]string{}
	for _, m := range anyTableRe.FindAllStringSubmatch(string(b), -1) {
		if !strings.HasPrefix(m[1], prefix) {
			continue
		}
		for _, r := range rowRe.FindAllStringSubmatch(m[2], -1) {
			var cells []string
			for _, c := range cellRe.FindAllStringSubmatch(r[1], -1) {
				cells = append(cells, html.UnescapeString(tagRe.ReplaceAllString(c[1], "")))
			}
			if len(cells) > 0 {
				tables[strings.TrimPrefix(m[1], prefix)] = append(tables[strings.TrimPrefix(m[1], prefix)], cells)
			}
		}
	}
	n := 0
	name := filepath.Base(published)
	for kind, entries := range scores {
		rows := tables[kind]
		if len(rows) != len(entries) {
			t.Errorf("%s %s: %d rows on the site, %d published", name, kind, len(rows), len(entries))
			continue
		}
		for i, e := range entries {
			r := rows[i]
			// lead: division, first, second, correctness, time;
			// contribution: division, solver, correctness, time, ...
			want := []string{e["division"], e["name"], e["second"], e["correctScore"], e["timeScore"]}
			got := []string{r[0], r[1], r[2], r[3], r[4]}
			if which == "largest-contribution" {
				want = []string{e["division"], e["name"], e["correctScore"], e["timeScore"]}
				got = []string{r[0], r[1], r[2], r[3]}
			}
			for k := range want {
				if got[k] != want[k] {
					t.Errorf("%s %s line %d: %q on the site, %q published", name, kind, i+1, got[k], want[k])
				}
				n++
			}
		}
	}
	return n
}
