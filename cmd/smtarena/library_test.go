package main

import (
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
	if code != 0 || !strings.Contains(out, "287 benchmarks selected") || !strings.Contains(out, "\theat 2\n") {
		t.Errorf("select: %d %s %s", code, out[max(0, len(out)-300):], errs)
	}
	code, out, _ = runCLI(t, "", "select", "--db", db, "--rules", "2018", "--track", "incremental", "--seed", "5")
	if code != 0 || !strings.Contains(out, "first-check-sat-unknown") {
		t.Errorf("2018 incremental: %d %s", code, out)
	}
	if code, _, errs := runCLI(t, "", "select", "--db", db, "--rules", "2014", "--track", "proof"); code != 2 || errs == "" {
		t.Errorf("2014 proof: %d %s", code, errs)
	}
}
