package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/testenv"
)

func TestIndexAndList(t *testing.T) {
	dir := testenv.Shared(t, "benchmarks")
	db := filepath.Join(t.TempDir(), "s.db")
	code, out, errs := runCLI(t, "", "index", "--db", db, dir)
	if code != 0 || !strings.Contains(out, "indexed: 320 files") {
		t.Fatalf("index: %d %s %s", code, out, errs)
	}
	code, out, _ = runCLI(t, "", "benchmarks", "--db", db, "--logic", "QF_IDL", "--format", "tsv")
	if code != 0 || strings.Count(out, "\n") != 15 || !strings.Contains(out, "\tQF_IDL\t20220214-jobshop-BohanLi\tcrafted\t") {
		t.Errorf("benchmarks tsv: %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "", "benchmarks", "--db", db)
	if code != 0 || !strings.Contains(out, "ALL  130    144       13           33    320") {
		t.Errorf("summary:\n%s", out[max(0, len(out)-400):])
	}
	code, out, _ = runCLI(t, "", "benchmarks", "--db", db, "--track", "incremental", "--format", "json")
	if code != 0 || strings.Count(out, "\n") != 33 {
		t.Errorf("incremental json: %d lines", strings.Count(out, "\n"))
	}
	if code, _, errs := runCLI(t, "", "benchmarks", "--db", db, "--format", "xml"); code != 2 || errs == "" {
		t.Errorf("bad format: %d", code)
	}
}

func TestImportCLI(t *testing.T) {
	dir := testenv.Shared(t, "official-results/2019/results")
	db := filepath.Join(t.TempDir(), "s.db")
	f := filepath.Join(dir, "Challenge_Track_incremental.csv.tar.xz")
	for i, want := range []string{"145 rows, 145 added, 0 already there", "145 rows, 0 added, 145 already there"} {
		code, out, errs := runCLI(t, "", "import", "--db", db, f)
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("import %d: %d %s %s", i, code, out, errs)
		}
	}
}

func TestRandomAndSeed(t *testing.T) {
	code, out, _ := runCLI(t, "", "random", "--seed", "1", "--count", "2")
	if code != 0 || out != "1804289383\n846930886\n" {
		t.Errorf("random: %q", out)
	}
	// glibc reads the seed as a signed int: 2^32-1 seeds like -1 (checked
	// against C in internal/crand).
	code, out, _ = runCLI(t, "", "random", "--seed", "4294967295", "--count", "1")
	if code != 0 || out == "" || out == "1804289383\n" {
		t.Errorf("random for 2^32-1: %q", out)
	}
	code, out, _ = runCLI(t, "", "seed", "--rules", "2018", "--nyse", "12775.61", "--entrant", "7", "--entrant", "8")
	if code != 0 || !strings.Contains(out, "sum mod 2^30: 15\n") || !strings.Contains(out, "seed: 12790\n") {
		t.Errorf("seed: %d %s", code, out)
	}
	if code, _, errs := runCLI(t, "", "seed", "--rules", "2022", "--nyse", "1", "--entrant", "-3"); code != 2 || !strings.Contains(errs, "not a 32-bit") {
		t.Errorf("bad entrant: %d %s", code, errs)
	}
}

func TestSelectCLI(t *testing.T) {
	dir := testenv.Shared(t, "benchmarks")
	db := filepath.Join(t.TempDir(), "s.db")
	if code, _, errs := runCLI(t, "", "index", "--db", db, dir); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs := runCLI(t, "", "select", "--db", db, "--rules", "2022", "--track", "single-query", "--seed", "5", "--heats", "2", "--list")
	if code != 0 || !strings.Contains(out, "287 benchmarks selected in 2 heats (144, 143)") || !strings.Contains(out, "\theat 2\n") {
		t.Errorf("select: %d %s %s", code, out[max(0, len(out)-300):], errs)
	}
	// The reasons a logic's candidates were dropped are listed in one order.
	code, out, _ = runCLI(t, "", "select", "--db", db, "--rules", "2022", "--track", "unsat-core", "--seed", "5")
	if code != 0 || !strings.Contains(out, "single-assertion 13, status 7") {
		t.Errorf("unsat-core selection's dropped column: %d %s", code, out)
	}
	code, out, _ = runCLI(t, "", "select", "--db", db, "--rules", "2018", "--track", "incremental", "--seed", "5")
	if code != 0 || !strings.Contains(out, "first-check-sat-unknown") {
		t.Errorf("2018 incremental: %d %s", code, out)
	}
	if code, _, errs := runCLI(t, "", "select", "--db", db, "--rules", "2014", "--track", "proof"); code != 2 || errs == "" {
		t.Errorf("2014 proof: %d %s", code, errs)
	}
}

func TestImportSubmission(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "z3.json")
	os.WriteFile(sub, []byte(`{"name": "z3x", "contributors": ["A"], "command": ["z3"], "solver_type": "Standalone",
 "participations": [{"tracks": ["SingleQuery"], "logics": ["QF_UF"]}], "seed": 44}`), 0o644)
	def := filepath.Join(dir, "c.toml")
	os.WriteFile(def, []byte("name = \"c\"\nrules = 2022\n[seed]\nvalue = 1\n[tracks.single-query]\ncpu_limit = 10\n"+
		"[[solvers]]\nname = \"z3\"\ntracks = [\"single-query\"]\nlogics = [\"QF_UF\"]\ncommand = [\"z3\"]\n"), 0o644)
	code, out, errs := runCLI(t, "", "import", "submission", "--into", def, sub)
	if code != 0 || !strings.Contains(out, "added 1 solvers") {
		t.Fatalf("%d %s %s", code, out, errs)
	}
	b, _ := os.ReadFile(def)
	if !strings.Contains(string(b), `name = "z3x"`) {
		t.Errorf("definition:\n%s", b)
	}
	// Adding it again would define z3x twice: refused, the file unchanged.
	if code, _, errs := runCLI(t, "", "import", "submission", "--into", def, sub); code != 2 || !strings.Contains(errs, "defined twice") {
		t.Errorf("second add: %d %s", code, errs)
	}
	if b2, _ := os.ReadFile(def); string(b2) != string(b) {
		t.Error("a refused import changed the definition")
	}
}
