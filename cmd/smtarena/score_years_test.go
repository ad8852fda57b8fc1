package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScoreRulesTexts imports constructed 2023 single-query results and
// scores them by the texts of 2020-2024: the 2023 text counts the time of
// correctly solved benchmarks only, so the solver that times out beats the
// one that aborts quickly, which wins by the 2022 text. The help lists the
// years; an unknown year is refused with them.
func TestScoreRulesTexts(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	results := filepath.Join(t.TempDir(), "results.json")
	var rs []string
	add := func(solver, file, result string, t float64) {
		rs = append(rs, `{"track": "SingleQuery", "solver": "`+solver+`", "file": "non-incremental/QF_LIA/fam/`+file+`", "result": "`+result+
			`", "cpu_time": `+jsonNum(t)+`, "wallclock_time": `+jsonNum(t)+`, "memory_usage": 0, "year": 2023}`)
	}
	add("slow", "a.smt2", "sat", 1)
	add("slow", "b.smt2", "unsat", 1)
	add("slow", "c.smt2", "timeout", 1200)
	add("crash", "a.smt2", "sat", 2)
	add("crash", "b.smt2", "unsat", 2)
	add("crash", "c.smt2", "error", 0.5)
	if err := os.WriteFile(results, []byte("["+strings.Join(rs, ",\n")+"]"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runCLI(t, "", "import", "--db", db, "smtcomp-json", results); code != 0 || !strings.Contains(out, "6 rows, 6 added") {
		t.Fatalf("import: %d %s %s", code, out, errs)
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--rules", "2023"}, []string{"single-query track of 2023, 2023 rules, T = 1200 s", "parallel: winner slow", "sequential: winner slow"}},
		{[]string{"--rules", "2024", "--year", "2023"}, []string{"2024 rules", "parallel: winner slow", "twentyfour: winner slow"}},
		{[]string{"--rules", "2025", "--year", "2023"}, []string{"2025 (the 2024 text) rules", "parallel: winner slow"}},
		{[]string{"--rules", "2022", "--year", "2023"}, []string{"2022 rules", "parallel: winner crash", "sequential: winner crash"}},
		{[]string{"--rules", "2021", "--year", "2023"}, []string{"2021 (the 2022 text) rules", "parallel: winner crash"}},
		{[]string{"--rules", "2020", "--year", "2023"}, []string{"2020 rules", "parallel: winner crash"}},
		{[]string{"--rules", "2023", "--format", "csv"}, []string{"QF_LinearIntArith,,parallel,1,slow,yes,true,0,2,2.0,2.0,"}},
		{[]string{"--rules", "2023", "--format", "json"}, []string{`"rules": 2023`, `"rules_text": 2023`}},
	} {
		code, out, errs := runCLI(t, "", append([]string{"score", "--db", db}, c.args...)...)
		if code != 0 {
			t.Errorf("%v: %d %s", c.args, code, errs)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%s", c.args, w, out)
			}
		}
	}
	// The 2020 text has no cloud track; 2024's no proof track.
	for _, c := range []struct{ args, want []string }{
		{[]string{"--rules", "2020", "--track", "cloud", "--year", "2023"}, []string{"the 2020 rules (the 2020 text) have no cloud track"}},
		{[]string{"--rules", "2010"}, []string{"no scoring rules for 2010", "--rules takes 2006, 2014, 2018, or 2019 and later", "2024 and later: the 2024 text"}},
	} {
		code, _, errs := runCLI(t, "", append([]string{"score", "--db", db}, c.args...)...)
		for _, w := range c.want {
			if code == 0 || !strings.Contains(errs, w) {
				t.Errorf("%v: %d, error %q lacks %q", c.args, code, errs, w)
			}
		}
	}
	code, out, _ := runCLI(t, "", "score", "--help")
	for _, w := range []string{"--rules int", "2019-2020: the 2020 text", "2023: the 2023 text", "2024 and later: the 2024 text"} {
		if code != 0 || !strings.Contains(out, w) {
			t.Errorf("score --help (%d) lacks %q:\n%s", code, w, out)
		}
	}
}
