package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

var importLine = regexp.MustCompile(`: (\d+) rows, (\d+) added, (\d+) already there, (\d+) not imported\n`)

// importCounts runs smtarena import and returns its counts: rows, added,
// already there, not imported.
func importCounts(t *testing.T, wantCode int, args ...string) ([4]int, string) {
	t.Helper()
	code, out, errs := runCLI(t, "", append([]string{"import"}, args...)...)
	if code != wantCode {
		t.Fatalf("import %v: exit %d, want %d\n%s%s", args, code, wantCode, out, errs)
	}
	var c [4]int
	for _, m := range importLine.FindAllStringSubmatch(out, -1) {
		for i := range c {
			n, _ := strconv.Atoi(m[i+1])
			c[i] += n
		}
	}
	return c, errs
}

func countResults(t *testing.T, db string, year int) int {
	t.Helper()
	st, err := store.OpenSQLite(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rs, err := st.Results(context.Background(), store.ResultFilter{Year: year})
	if err != nil {
		t.Fatal(err)
	}
	return len(rs)
}

// TestImportTwoYears imports the same track of two years into one store,
// twice over: every row of each file is added once, none is taken for the
// other year's.
func TestImportTwoYears(t *testing.T) {
	dir := testenv.Shared(t, "official-results")
	db := filepath.Join(t.TempDir(), "s.db")
	y19 := filepath.Join(dir, "2019/results/Incremental_Track.csv.tar.xz")
	y20 := filepath.Join(dir, "2020/results/incremental/Job_infos.tar.xz")
	c19, _ := importCounts(t, 0, "--db", db, y19)
	c20, _ := importCounts(t, 0, "--db", db, y20)
	if c19[0] == 0 || c19[0] != c19[1] || c20[0] == 0 || c20[0] != c20[1]+c20[3] || c20[2] != 0 {
		t.Fatalf("first imports: 2019 %v, 2020 %v", c19, c20)
	}
	if n := countResults(t, db, 2019); n != c19[1] {
		t.Errorf("2019: %d results stored, %d added", n, c19[1])
	}
	if n := countResults(t, db, 2020); n != c20[1] {
		t.Errorf("2020: %d results stored, %d added", n, c20[1])
	}
	again, _ := importCounts(t, 0, "--db", db, y20, y19)
	if again[1] != 0 || again[2] != c19[1]+c20[1] {
		t.Errorf("second import: %v", again)
	}
}

// TestImportBroken: a truncated archive and a corrupted CSV give an error
// naming the file (and the line, where there is one), a non-zero exit, and
// leave the store as it was: importing the whole file afterwards adds every
// row once.
func TestImportBroken(t *testing.T) {
	dir := testenv.Shared(t, "official-results/2019/results")
	tmp := t.TempDir()
	db := filepath.Join(tmp, "s.db")
	src := filepath.Join(dir, "Model_Validation_Track.csv.tar.xz")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	trunc := filepath.Join(tmp, "2019", "Model_Validation_Track.csv.tar.xz")
	os.MkdirAll(filepath.Dir(trunc), 0o755)
	if err := os.WriteFile(trunc, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCLI(t, "", "import", "--db", db, trunc)
	if code != 2 || !strings.Contains(errs, trunc) {
		t.Errorf("truncated archive: exit %d, %q", code, errs)
	}
	// What was read before the damage may be recorded; the whole archive
	// then adds exactly the rest.
	before := countResults(t, db, 2019)
	whole := filepath.Join(tmp, "2019", "whole", "Model_Validation_Track.csv.tar.xz")
	os.MkdirAll(filepath.Dir(whole), 0o755)
	os.WriteFile(whole, data, 0o644)
	c, _ := importCounts(t, 0, "--db", db, whole)
	if c[1] != c[0]-before || c[2] != before || countResults(t, db, 2019) != c[0] {
		t.Errorf("after a truncated import of %d rows, the whole archive: %v, %d stored", before, c, countResults(t, db, 2019))
	}
	db = filepath.Join(tmp, "s2.db")

	// A CSV with an open quote on line 4 and a short row on line 3.
	var csvText bytes.Buffer
	bad := filepath.Join(tmp, "2019", "Model_Validation_Track.csv")
	csvText.WriteString("pair id,benchmark,benchmark id,solver,solver id,configuration,configuration id,status,cpu time,wallclock time,memory usage,result,expected\n")
	csvText.WriteString("1,Competition - Model Validation Track/QF_BV/a/x.smt2,10,Z3,20,default,30,complete,1.5,1.6,1000,sat,sat\n")
	csvText.WriteString("2,Competition - Model Validation Track/QF_BV/a/y.smt2,11,Z3\n")
	csvText.WriteString("3,\"Competition - Model Validation Track/QF_BV/a/z.smt2,12,Z3,20,default,30,complete,1.5,1.6,1000,sat,sat\n")
	if err := os.WriteFile(bad, csvText.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "", "import", "--db", db, bad)
	// StarExec leaves quotes inside unquoted fields (validator messages),
	// read as Python's csv reads them: the open quote runs to the end of
	// the file, and that row is named as unusable.
	if code != 0 || !strings.Contains(errs, bad+":4: 2 fields, the header has 13") || !strings.Contains(errs, bad+":3: 4 fields, the header has 13") {
		t.Errorf("corrupted CSV: exit %d\n%s%s", code, out, errs)
	}
	// The first good row may be in the store; importing a fixed file adds
	// the rest and nothing twice.
	fixed := strings.Replace(csvText.String(), "3,\"Competition", "3,Competition", 1)
	fixed = strings.Replace(fixed, "2,Competition - Model Validation Track/QF_BV/a/y.smt2,11,Z3\n", "", 1)
	os.WriteFile(bad, []byte(fixed), 0o644)
	c, _ = importCounts(t, 0, "--db", db, bad)
	if c[0] != 2 || c[1]+c[2] != 2 || countResults(t, db, 2019) != 2 {
		t.Errorf("fixed CSV: %v, %d stored", c, countResults(t, db, 2019))
	}
	// --strict fails on an unusable row; --problems lists every one.
	os.WriteFile(bad, csvText.Bytes()[:bytes.Index(csvText.Bytes(), []byte("3,\""))], 0o644)
	list := filepath.Join(tmp, "problems.txt")
	_, errs = importCounts(t, 1, "--db", db, "--strict", "--problems", list, bad)
	got, _ := os.ReadFile(list)
	if string(got) != bad+":3: 4 fields, the header has 13 (not imported)\n" || !strings.Contains(errs, "1 rows could not be imported") {
		t.Errorf("--strict --problems: %q, %q", got, errs)
	}
}
