package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadersNeedAStore: benchmarks, score, report and status given a
// store that is not there say so (exit 2) and leave no empty store behind;
// index creates one, which they then read.
func TestReadersNeedAStore(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "typo.db")
	def := filepath.Join(dir, "c.toml")
	if err := os.WriteFile(def, []byte("name = \"c\"\nrules = 2022\nworkdir = \"work\"\n[seed]\nvalue = 1\n[tracks.single-query]\ncpu_limit = 10\n"+
		"[[solvers]]\nname = \"z3\"\ntracks = [\"single-query\"]\nlogics = [\"QF_UF\"]\ncommand = [\"z3\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"benchmarks", "--db", db},
		{"score", "--rules", "2022", "--db", db},
		{"report", "--rules", "2022", "--db", db, "--out", filepath.Join(dir, "site")},
		{"report", "--config", def, "--out", filepath.Join(dir, "site")},
		{"status", def},
		{"show-model", def, "1"},
	} {
		code, _, errs := runCLI(t, "", args...)
		if code != 2 || !strings.Contains(errs, "no store at ") {
			t.Errorf("%v: exit %d, %q; want 2 and no store at ...", args, code, errs)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Errorf("a reader created %s", db)
	}
	if _, err := os.Stat(filepath.Join(dir, "work", "smtarena.db")); err == nil {
		t.Error("a reader created the competition's store")
	}
	lib := filepath.Join(dir, "lib", "non-incremental", "QF_UF", "f")
	os.MkdirAll(lib, 0o755)
	os.WriteFile(filepath.Join(lib, "a.smt2"), []byte("(set-logic QF_UF)\n(assert true)\n(check-sat)\n(exit)\n"), 0o644)
	if code, _, errs := runCLI(t, "", "index", "--db", db, "-q", filepath.Join(dir, "lib")); code != 0 {
		t.Fatalf("index: %d %s", code, errs)
	}
	if code, out, errs := runCLI(t, "", "benchmarks", "--db", db); code != 0 || !strings.Contains(out, "a.smt2") {
		t.Errorf("benchmarks after index: %d %s %s", code, out, errs)
	}
}
