package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/testenv"
)

// TestScore2019ModelValidation imports the official 2019 model-validation
// results and writes the result pages as the README shows: they are the
// published ones.
func TestScore2019ModelValidation(t *testing.T) {
	dir := testenv.Shared(t, "official-results/2019")
	db := filepath.Join(t.TempDir(), "s.db")
	if code, _, errs := runCLI(t, "", "import", "--db", db, "starexec-csv", filepath.Join(dir, "results/Model_Validation_Track.csv.tar.xz")); code != 0 {
		t.Fatalf("import: %d %s", code, errs)
	}
	reg := filepath.Join(dir, "registration/solvers_divisions_final.csv")
	out := filepath.Join(t.TempDir(), "pages")
	code, stdout, errs := runCLI(t, "", "score", "--db", db, "--rules", "2019", "--track", "model-validation", "--compat", "official",
		"--solvers", reg, "--divisions", filepath.Join(dir, "divisions.json"), "--format", "yaml", "--out", out)
	if code != 0 || stdout != "wrote 4 pages to "+out+"\n" {
		t.Fatalf("score: %d %q %s", code, stdout, errs)
	}
	for _, name := range []string{"QF_BV-model-validation.md", "biggest-lead-model-validation.md", "largest-contribution-model-validation.md", "results-model-validation.md"} {
		want, err := os.ReadFile(filepath.Join(dir, "pages", name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if stripDate(string(got)) != stripDate(string(want)) {
			t.Errorf("%s differs from the published page:\n%s", name, got)
		}
	}
	// The rules as written count every INVALID model as an error.
	code, stdout, _ = runCLI(t, "", "score", "--db", db, "--rules", "2019", "--track", "model-validation", "--solvers", reg, "--format", "csv")
	if code != 0 || !strings.Contains(stdout, "QF_BV,,parallel,1,Boolector,yes,true,19,7171,") {
		t.Errorf("csv: %d\n%s", code, stdout)
	}
	code, stdout, _ = runCLI(t, "", "score", "--db", db, "--rules", "2019", "--track", "model-validation", "--solvers", reg,
		"--compat", "official", "--format", "json", "--date", "2019-07-23 17:57:57")
	var js struct {
		Track     string `json:"track"`
		Divisions []struct {
			Division  string `json:"division"`
			WinnerSeq string `json:"winner_seq"`
			Parallel  []struct {
				Name         string  `json:"name"`
				CorrectScore float64 `json:"correctScore"`
			} `json:"parallel"`
		} `json:"divisions"`
		BiggestLead map[string][]struct {
			Name string `json:"name"`
		} `json:"biggest_lead"`
	}
	if err := json.Unmarshal([]byte(stdout), &js); code != 0 || err != nil || js.Track != "track_model_validation" || len(js.Divisions) != 1 ||
		js.Divisions[0].WinnerSeq != "Boolector" || js.Divisions[0].Parallel[2].Name != "Minkeyrink Solver MT" ||
		js.Divisions[0].Parallel[2].CorrectScore != 7151 || js.BiggestLead["parallel"][0].Name != "Boolector" {
		t.Errorf("json: %d %v %+v", code, err, js)
	}
	code, stdout, _ = runCLI(t, "", "score", "--db", db, "--rules", "2019", "--track", "model-validation", "--division", "QF_BV")
	if code != 0 || !strings.Contains(stdout, "QF_BV: 7191 benchmarks") || !strings.Contains(stdout, "sequential: winner") {
		t.Errorf("table: %d\n%s", code, stdout)
	}
}

// TestScore2019Challenge imports the 2019 challenge tracks' exports and
// scores them from the command line, each by its name and both with
// --track all: their twelve pages are the published ones; a challenge
// track of another kind is refused.
func TestScore2019Challenge(t *testing.T) {
	dir := testenv.Shared(t, "official-results/2019")
	db := filepath.Join(t.TempDir(), "s.db")
	if code, stdout, errs := runCLI(t, "", "import", "--db", db, filepath.Join(dir, "results/Challenge_Track_non-incremental.csv.tar.xz"),
		filepath.Join(dir, "results/Challenge_Track_incremental.csv.tar.xz")); code != 0 ||
		!strings.Contains(stdout, "272 rows, 272 added") || !strings.Contains(stdout, "145 rows, 145 added") {
		t.Fatalf("import: %d %s %s", code, stdout, errs)
	}
	args := func(track, out string) []string {
		return []string{"score", "--db", db, "--rules", "2019", "--year", "2019", "--track", track, "--compat", "official",
			"--solvers", filepath.Join(dir, "registration/solvers_divisions_final.csv"),
			"--check-sats", filepath.Join(dir, "prep/incremental_num_check_sat.csv.tar.xz"), "--format", "yaml", "--out", out}
	}
	same := func(out, track string) {
		t.Helper()
		pages, _ := filepath.Glob(filepath.Join(dir, "pages", "*-"+track+".md"))
		if len(pages) != 6 {
			t.Fatalf("%d published %s pages, want 6", len(pages), track)
		}
		for _, want := range pages {
			got, err := os.ReadFile(filepath.Join(out, filepath.Base(want)))
			if err != nil {
				t.Errorf("%s: %v", track, err)
				continue
			}
			w, _ := os.ReadFile(want)
			if stripDate(string(got)) != stripDate(string(w)) {
				t.Errorf("%s differs from the published page:\n%s", filepath.Base(want), got)
			}
		}
	}
	for _, track := range []string{"challenge-non-incremental", "challenge-incremental"} {
		out := filepath.Join(t.TempDir(), track)
		if code, stdout, errs := runCLI(t, "", args(track, out)...); code != 0 || stdout != "wrote 6 pages to "+out+"\n" {
			t.Fatalf("score --track %s: %d %q %s", track, code, stdout, errs)
		}
		same(out, track)
	}
	all := filepath.Join(t.TempDir(), "all")
	if code, stdout, errs := runCLI(t, "", args("all", all)...); code != 0 || !strings.Contains(stdout, "wrote 6 pages to "+filepath.Join(all, "challenge-incremental")) {
		t.Fatalf("score --track all: %d %q %s", code, stdout, errs)
	}
	same(filepath.Join(all, "challenge-non-incremental"), "challenge-non-incremental")
	same(filepath.Join(all, "challenge-incremental"), "challenge-incremental")
	if code, _, errs := runCLI(t, "", "score", "--db", db, "--rules", "2019", "--track", "challenge-unsat-core"); code == 0 || !strings.Contains(errs, "challenge-unsat-core") {
		t.Errorf("an unknown challenge track: %d %s", code, errs)
	}
}

func stripDate(s string) string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if !strings.HasPrefix(l, "resultdate:") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestScoreRules scores constructed results by each rules year, imported
// in the smtcomp JSON format.
func TestScoreRules(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	results := filepath.Join(t.TempDir(), "results.json")
	var rs []string
	add := func(solver, file, result string, t float64) {
		rs = append(rs, `{"track": "SingleQuery", "solver": "`+solver+`", "file": "non-incremental/QF_LIA/fam/`+file+`", "result": "`+result+
			`", "cpu_time": `+jsonNum(t)+`, "wallclock_time": `+jsonNum(t)+`, "memory_usage": 0, "year": 2006}`)
	}
	add("yices", "a.smt2", "sat", 1)
	add("yices", "b.smt2", "unsat", 2)
	add("cvc", "a.smt2", "sat", 3)
	add("cvc", "b.smt2", "timeout", 1200)
	if err := os.WriteFile(results, []byte("["+strings.Join(rs, ",\n")+"]"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runCLI(t, "", "import", "--db", db, "smtcomp-json", results); code != 0 || !strings.Contains(out, "4 rows, 4 added") {
		t.Fatalf("import: %d %s %s", code, out, errs)
	}
	// Without statuses in the results or an index, no answer can be
	// judged under 2006's rules; the unknown-status answers count under
	// 2018's and 2022's.
	for _, c := range []struct {
		rules string
		want  []string
	}{
		{"2006", []string{"rank  solver  Score  Time", "yices   0", "cvc     0"}},
		{"2014", []string{"sequential: winner yices", "parallel: winner yices"}},
		{"2018", []string{"parallel: winner yices", "competition-wide score, parallel", "the 10 second wonder  yices"}},
		{"2022", []string{"parallel: winner yices", "twentyfour: winner yices", "biggest lead, parallel"}},
		{"2022 yaml", []string{"# QF_LIA-single-query.md", "winner_24s: yices", "- name: cvc\n  competing: \"yes\"\n  errorScore: 0\n  correctScore: 1\n"}},
	} {
		rules, format, _ := strings.Cut(c.rules, " ")
		args := []string{"score", "--db", db, "--rules", rules, "--year", "2006"}
		if format != "" {
			args = append(args, "--format", format)
		}
		code, out, errs := runCLI(t, "", args...)
		if code != 0 {
			t.Errorf("rules %s: %d %s", c.rules, code, errs)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("rules %s: output lacks %q:\n%s", c.rules, w, out)
			}
		}
	}
	for _, args := range [][]string{
		{"score", "--db", db, "--rules", "2010"},
		{"score", "--db", db, "--rules", "2022", "--format", "xml"},
		{"score", "--db", db, "--rules", "2022", "--compat", "loose"},
		{"score", "--db", db, "--rules", "2022", "--year", "2023"},
		{"score", "--db", db, "--rules", "2022", "--year", "2006", "--division", "QF_BV"},
		{"score", "--db", db},
		{"import", "--db", db, "smtcomp-json"},
	} {
		if code, _, errs := runCLI(t, "", args...); code != 2 || errs == "" {
			t.Errorf("%v: code %d, stderr %q; want 2 and a message", args, code, errs)
		}
	}
}

func jsonNum(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}
