package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/testenv"
)

// readPages reads the pages a score run wrote into dir.
func readPages(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

// TestScore2022DefaultDivisions scores the shared 2022 cloud results with
// the published new-divisions.json (as the README does) and without
// --divisions (the built-in 2022 table): both write the same pages, and
// every logic of the results is in the 2022 table (nothing said on
// stderr); a table that lacks some of the results' logics names them.
func TestScore2022DefaultDivisions(t *testing.T) {
	dir := testenv.Shared(t, "official-results/2022")
	tmp := t.TempDir()
	db := filepath.Join(tmp, "s.db")
	if code, out, errs := runCLI(t, "", "import", "--db", db, "aws-csv", filepath.Join(dir, "results/raw-results-cloud.csv")); code != 0 {
		t.Fatalf("import: %d %s %s", code, out, errs)
	}
	score := func(name string, extra ...string) (map[string]string, string) {
		out := filepath.Join(tmp, name)
		args := append([]string{"score", "--db", db, "--rules", "2022", "--year", "2022", "--track", "cloud", "--compat", "official",
			"--solvers", filepath.Join(dir, "registration/solvers_divisions_all.csv"),
			"--format", "yaml", "--out", out, "--date", "2022-08-10 00:00:00"}, extra...)
		code, stdout, errs := runCLI(t, "", args...)
		if code != 0 || !strings.HasPrefix(stdout, "wrote ") {
			t.Fatalf("%s: %d %q %s", name, code, stdout, errs)
		}
		return readPages(t, out), errs
	}
	withFile, errsFile := score("file", "--divisions", filepath.Join(dir, "new-divisions.json"))
	builtIn, errsBuiltIn := score("builtin")
	if len(withFile) < 20 {
		t.Fatalf("only %d pages with --divisions", len(withFile))
	}
	if _, ok := builtIn["QF_LinearIntArith-cloud.md"]; !ok {
		t.Errorf("no QF_LinearIntArith-cloud.md among the built-in table's pages")
	}
	var names []string
	for n := range withFile {
		names = append(names, n)
	}
	for n := range builtIn {
		if _, ok := withFile[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		if withFile[n] != builtIn[n] {
			t.Errorf("%s differs between --divisions new-divisions.json and the built-in table", n)
		}
	}
	if strings.Contains(errsFile+errsBuiltIn, "not in") {
		t.Errorf("logics reported missing from the 2022 table:\n%s\n%s", errsFile, errsBuiltIn)
	}

	// A table without the results' logics names them; a broken one is
	// refused with its file name.
	small := writeFile(t, "small.json", `{"track_cloud": {"QF_LinearIntArith": ["QF_LIA"]}}`)
	_, errs := score("small", "--divisions", small)
	if !strings.Contains(errs, "not in "+small) || !strings.Contains(errs, "QF_IDL") || strings.Contains(errs, "QF_LIA,") {
		t.Errorf("unlisted logics: %s", errs)
	}
	broken := writeFile(t, "broken.json", `{"track_cloud": 3}`)
	if code, _, errs := runCLI(t, "", "score", "--db", db, "--rules", "2022", "--year", "2022", "--track", "cloud", "--divisions", broken); code == 0 || !strings.Contains(errs, broken) {
		t.Errorf("broken table: %d %s", code, errs)
	}
}

// TestScoreDivisionsDefs: --divisions reads the smtcomp tool's defs.py
// (its tracks table, the enumeration's division names), the same table as
// the built-in one of 2024.
func TestScoreDivisionsDefs(t *testing.T) {
	dir := testenv.Shared(t, "official-results/2024")
	tmp := t.TempDir()
	db := filepath.Join(tmp, "s.db")
	if code, out, errs := runCLI(t, "", "import", "--db", db, "smtcomp-json", filepath.Join(dir, "data/results-parallel-2024.json.gz")); code != 0 {
		t.Fatalf("import: %d %s %s", code, out, errs)
	}
	args := []string{"score", "--db", db, "--rules", "2024", "--year", "2024", "--track", "parallel", "--format", "csv"}
	code, withDefs, errs := runCLI(t, "", append(args, "--divisions", filepath.Join(dir, "submissions/smtcomp/defs.py"))...)
	if code != 0 || !strings.Contains(withDefs, "QF_LinearIntArith") {
		t.Fatalf("--divisions defs.py: %d %s %s", code, withDefs, errs)
	}
	code, builtIn, errs := runCLI(t, "", args...)
	if code != 0 || builtIn != withDefs || errs != "" {
		t.Errorf("built-in 2024 table: %d, same output %v, stderr %q", code, builtIn == withDefs, errs)
	}
	if _, err := readDivisionsFile(writeFile(t, "defs.py", "class Logic(EnumAutoInt):\n    QF_LIA = \"QF_LIA\"\n"), "parallel"); err == nil || !strings.Contains(err.Error(), "defs.py") {
		t.Errorf("defs.py without a tracks table: %v", err)
	}
}
