package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// twoSolvers is the [[solvers]] of two solvers answering unsat, of the
// given teams.
func twoSolvers(teamA, teamB string) string {
	var b strings.Builder
	for _, s := range [][2]string{{"a", teamA}, {"b", teamB}} {
		fmt.Fprintf(&b, "[[solvers]]\nname = %q\nteam = %q\ntracks = [\"single-query\"]\nlogics = [\"QF_UF\"]\ncommand = [\"sh\", \"-c\", \"echo unsat\", \"s\", \"{file}\"]\n", s[0], s[1])
	}
	return b.String()
}

// TestCompeteTeams: two solvers of one team do not make a division
// competitive: 2022 does not run it, 2018 runs it without a winner.
func TestCompeteTeams(t *testing.T) {
	needRootForRuns(t)
	cases := []struct {
		rules        int
		teamB        string
		planned      string
		header, fail string
	}{
		{2022, "A", "0 pairs planned", "", "single-query track"},
		{2022, "B", "4 pairs planned", "single-query track, division QF_Equality\n", "not competitive"},
		{2018, "A", "4 pairs planned", "single-query track, division QF_UF (not competitive: no winner)", ""},
		{2018, "B", "4 pairs planned", "single-query track, division QF_UF\n", "not competitive"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%d-%s", c.rules, c.teamB), func(t *testing.T) {
			dir := t.TempDir()
			writeLibrary(t, filepath.Join(dir, "lib"), 2)
			def := filepath.Join(dir, "c.toml")
			os.WriteFile(def, []byte(fmt.Sprintf("name = \"teams\"\nrules = %d\nlibrary = [\"lib\"]\n[seed]\nvalue = 1\n[tracks.single-query]\nwall_limit = \"10s\"\n%s",
				c.rules, twoSolvers("A", c.teamB))), 0o644)
			code, out, errs := runCLI(t, "", "compete", "--quiet", def)
			if code != 0 {
				t.Fatalf("compete: %d %s %s", code, out, errs)
			}
			if !strings.Contains(out, c.planned) || !strings.Contains(out, c.header) || (c.fail != "" && strings.Contains(out, c.fail)) {
				t.Errorf("want %q and %q, not %q:\n%s", c.planned, c.header, c.fail, out)
			}
			if c.rules == 2022 && c.teamB == "A" && !strings.Contains(errs, "division not competitive: fewer than two teams") {
				t.Errorf("no reason logged:\n%s", errs)
			}
		})
	}
}

// TestCompeteLint: a selected benchmark that breaks the track's input
// rules (a let binding one name twice; a :named term in a single-query
// file) is left out with a report, or run with lint = "warn".
func TestCompeteLint(t *testing.T) {
	needRootForRuns(t)
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib", "non-incremental", "QF_UF", "fam")
	if err := os.MkdirAll(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	head := "(set-info :smt-lib-version 2.6)\n(set-logic QF_UF)\n(set-info :status unsat)\n(declare-fun p () Bool)\n"
	files := map[string]string{
		"good.smt2":  "(assert (and p (not p)))\n",
		"let2.smt2":  "(assert (let ((q p) (q (not p))) (and q (not q))))\n",
		"named.smt2": "(assert (! (and p (not p)) :named a1))\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(lib, name), []byte(head+body+"(check-sat)\n(exit)\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, mode := range []string{"", "exclude", "warn"} {
		t.Run("lint="+mode, func(t *testing.T) {
			setting := ""
			if mode != "" {
				setting = fmt.Sprintf("lint = %q\n", mode)
			}
			def := filepath.Join(dir, "c"+mode+".toml")
			os.WriteFile(def, []byte(fmt.Sprintf("name = \"lint%s\"\nrules = 2022\nlibrary = [\"lib\"]\n%s[seed]\nvalue = 1\n[tracks.single-query]\nwall_limit = \"10s\"\n%s",
				mode, setting, twoSolvers("A", "B"))), 0o644)
			code, out, errs := runCLI(t, "", "compete", "--quiet", def)
			if code != 0 {
				t.Fatalf("compete: %d %s %s", code, out, errs)
			}
			report := filepath.Join(dir, "lint"+mode+"-work", "lint-single-query.txt")
			first, err := os.ReadFile(report)
			if err != nil {
				t.Fatal(err)
			}
			// Run again (as a resumed run does): the report is the same.
			if code, out, errs = runCLI(t, "", "compete", "--quiet", def); code != 0 {
				t.Fatalf("compete again: %d %s %s", code, out, errs)
			}
			planned, what, said := "2 pairs planned", "left out", "left out"
			if mode == "warn" {
				planned, what, said = "6 pairs planned", "run anyway", `run anyway (lint = "warn")`
			}
			if !strings.Contains(out, planned) || !strings.Contains(out, "lint: 2 selected benchmarks of the single-query track break its input rules, "+said+": "+report) {
				t.Errorf("output:\n%s", out)
			}
			data, err := os.ReadFile(report)
			if err != nil || !bytes.Equal(data, first) {
				t.Fatalf("report after the second run: %v\n%s\nfirst:\n%s", err, data, first)
			}
			for _, want := range []string{"non-incremental/QF_UF/fam/let2.smt2: " + what, "let binds q twice",
				"non-incremental/QF_UF/fam/named.smt2: " + what, "named term in the single-query track"} {
				if !strings.Contains(string(data), want) {
					t.Errorf("report lacks %q:\n%s", want, data)
				}
			}
		})
	}
	// The verdicts of a run are kept, by path and content hash, for the
	// next: a finding put into the cache is reported as if lint had made it.
	cacheFile := filepath.Join(dir, "lintwarn-work", "lint-cache-single-query.json")
	data, err := os.ReadFile(cacheFile)
	if err != nil {
		t.Fatal(err)
	}
	var cache struct {
		Rules  int                         `json:"rules"`
		Errors map[string][]map[string]any `json:"errors"`
	}
	if err := json.Unmarshal(data, &cache); err != nil || len(cache.Errors) != 3 {
		t.Fatalf("cache: %v %s", err, data)
	}
	for k := range cache.Errors {
		if strings.HasPrefix(k, "non-incremental/QF_UF/fam/good.smt2@") {
			cache.Errors[k] = []map[string]any{{"Pos": map[string]any{"Filename": "good.smt2", "Line": 1, "Column": 1}, "Kind": "command", "Msg": "planted finding"}}
		}
	}
	data, _ = json.Marshal(cache)
	os.WriteFile(cacheFile, data, 0o644)
	if code, out, errs := runCLI(t, "", "compete", "--quiet", filepath.Join(dir, "cwarn.toml")); code != 0 {
		t.Fatalf("compete: %d %s %s", code, out, errs)
	}
	if report, _ := os.ReadFile(filepath.Join(dir, "lintwarn-work", "lint-single-query.txt")); !strings.Contains(string(report), "good.smt2:1:1: planted finding") {
		t.Errorf("the cache was not read:\n%s", report)
	}
}
