package official

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// dataLines counts a file's non-empty lines, apart from the importer.
func dataLines(t *testing.T, data []byte) int {
	t.Helper()
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) != "" {
			n++
		}
	}
	return n
}

func countNotes(s Stats, part string) int {
	n := 0
	for _, p := range s.Problems {
		if strings.Contains(p.Reason, part) {
			n++
		}
	}
	return n
}

// TestImportAWS2022Joined imports the joined tables of 2022 (what
// score.py read) and checks every row is there, once, under its logic.
func TestImportAWS2022Joined(t *testing.T) {
	dir := testenv.Shared(t, "official-results/2022/results")
	st := openStore(t)
	ctx := context.Background()
	for _, tc := range []struct {
		file, track string
	}{
		{"raw-results-cloud.csv", "cloud"},
		{"raw-results-parallel.csv", "parallel"},
	} {
		f := filepath.Join(dir, tc.file)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rows := dataLines(t, data) - 1 // the header
		// Rows of a solver and benchmark seen before, counted here.
		recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		seen, dups := map[string]bool{}, 0
		for _, r := range recs[1:] {
			k := r[5] + "|" + r[0]
			if seen[k] {
				dups++
			}
			seen[k] = true
		}
		s, err := ImportAWSCSV(ctx, st, f, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if s.Rows != rows || s.Added != rows || s.Unusable() != 0 {
			t.Errorf("%s: %d rows, %d added, %d unusable; the file has %d rows", tc.file, s.Rows, s.Added, s.Unusable(), rows)
		}
		if n := countNotes(s, "same solver and benchmark as line"); n != dups || dups == 0 {
			t.Errorf("%s: %d repeated rows named, %d in the file", tc.file, n, dups)
		}
		rs, err := st.Results(ctx, store.ResultFilter{Year: 2022, Track: tc.track})
		if err != nil || len(rs) != rows {
			t.Fatalf("%s: %d results stored, want %d (%v)", tc.file, len(rs), rows, err)
		}
		// Each path keeps the file's: ./LOGIC/family/.../x.smt2.
		want := map[string]bool{}
		for _, r := range recs[1:] {
			want["non-incremental/"+strings.TrimPrefix(r[0], "./")] = true
		}
		for _, r := range rs {
			if !want[r.BenchmarkPath] {
				t.Errorf("%s: stored path %s is not a path of the file", tc.file, r.BenchmarkPath)
				break
			}
		}
		again, err := ImportAWSCSV(ctx, st, f, Options{})
		if err != nil || again.Added != 0 || again.Skipped != rows {
			t.Errorf("%s: re-import %+v %v", tc.file, again, err)
		}
	}
	// The first repeated row of the cloud table, and the path that used
	// to lose its logic.
	s, _ := ImportAWSCSV(ctx, st, filepath.Join(dir, "raw-results-cloud.csv"), Options{})
	found := false
	for _, p := range s.Problems {
		if p.Line == 83 && strings.Contains(p.Reason, "same solver and benchmark as line 51") && p.Kept {
			found = true
		}
	}
	if !found {
		t.Errorf("raw-results-cloud.csv:83 not named as a repeat of line 51: %v", s.Problems[:min(3, len(s.Problems))])
	}
	rs, _ := st.Results(ctx, store.ResultFilter{Year: 2022, Track: "cloud", Solver: "Vampire",
		BenchmarkPath: "non-incremental/LRA/2010-Monniaux-QE/mjollnir6/formula_016.smt2"})
	if len(rs) != 2 || rs[0].Answer == rs[1].Answer {
		t.Errorf("the two rows of line 51 and 83: %+v", rs)
	}
	for _, r := range rs {
		if r.Answer == "timeout" && (r.Status != "complete" || r.Wall != 1200 || r.Expected != "unsat") {
			t.Errorf("line 83 stored as %+v (the file says complete, timeout, 1200.0, unsat)", r)
		}
	}
}

// TestImportAWS2022Zip imports the raw per-solver files of 2022 as
// published in aws-results.zip (no header: benchmark, millisecond, result).
func TestImportAWS2022Zip(t *testing.T) {
	dir := testenv.Shared(t, "official-results/2022/results/cloud-parallel")
	f := filepath.Join(dir, "aws-results.zip")
	zr, err := zip.OpenReader(f)
	if err != nil {
		t.Fatal(err)
	}
	perTrack := map[string]int{}
	for _, m := range zr.File {
		rc, err := m.Open()
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		buf.ReadFrom(rc)
		rc.Close()
		tr := "cloud"
		if strings.HasPrefix(m.Name, "p") || strings.Contains(m.Name, "parallel") {
			tr = "parallel"
		}
		perTrack[tr] += dataLines(t, buf.Bytes())
	}
	zr.Close()
	st := openStore(t)
	ctx := context.Background()
	s, err := ImportAWSCSV(ctx, st, f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	total := perTrack["cloud"] + perTrack["parallel"]
	if s.Rows != total || s.Added != total || s.Unusable() != 0 {
		t.Errorf("%d rows, %d added, %d unusable; the members have %d rows", s.Rows, s.Added, s.Unusable(), total)
	}
	for tr, n := range perTrack {
		rs, err := st.Results(ctx, store.ResultFilter{Year: 2022, Track: tr})
		if err != nil || len(rs) != n {
			t.Errorf("%s: %d results, want %d (%v)", tr, len(rs), n, err)
		}
	}
	rs, _ := st.Results(ctx, store.ResultFilter{Year: 2022, Track: "cloud", Solver: "Vampire", BenchmarkPath: "non-incremental/UF/smt-comp-108.smt2"})
	if len(rs) != 1 || rs[0].Wall != 176.932 || rs[0].Answer != "sat" ||
		!strings.Contains(rs[0].Extra, `"configuration id":"659685"`) || !strings.Contains(rs[0].Extra, `"file":"vampire-cloud-smt.csv"`) ||
		!strings.Contains(rs[0].Extra, `"competition name":"/home/mww/satcomp/benchmarks/smtcomp/cloud/non-incremental/UF/smt-comp-108.smt2"`) {
		t.Errorf("vampire-cloud-smt.csv:1 stored as %+v", rs)
	}
	if countNotes(s, "no map of competition names") != 9 || countNotes(s, "no benchmark statuses") != 9 {
		t.Errorf("missing map and statuses not noted per member: %v", s.Problems)
	}
	if again, err := ImportAWSCSV(ctx, st, f, Options{}); err != nil || again.Added != 0 || again.Skipped != total {
		t.Errorf("re-import %+v %v", again, err)
	}
}

// The 2021 shape, as SMT-COMP/smt-comp publishes 2021/results/cloud-
// track/results.csv (rows copied from it), with a map in the shape
// 2021/prep/selection/aws_scramble_and_rename.sh writes ("smtlib name,
// competition name") and statuses in the shape of aws-extract-starexec-
// status.py ("benchmark name,status").
const results2021 = `benchmark,solver,wallclock time,result
cloud_new/non-incremental/QF_BV/smt-comp-061.smt2,cvc5gg,TIMEOUT,
cloud_new/non-incremental/QF_BV/smt-comp-061.smt2,stp,1046.47,UNSATISFIABLE
cloud_new/non-incremental/AUFNIRA/smt-comp-035.smt2,cvc5gg,CRASHED,
cloud_new/non-incremental/QF_IDL/smt-comp-085.smt2,portfolio,1212.385,SATISFIABLE
cloud_new/non-incremental/QF_IDL/smt-comp-085.smt2,par,870.776,SATISFIABLE
cloud_new/non-incremental/LRA/smt-comp-044.smt2,cvc5gg,PARSE_ERROR,UNSATISFIABLE
cloud_new/non-incremental/LRA/smt-comp-045.smt2,par,1.5,UNSATISFIABLE
cloud_new/non-incremental/LRA/smt-comp-044.smt2,par,1.592,UNSATISFIABLE
cloud_new/non-incremental/LRA/smt-comp-044.smt2,vampirecloud,soon,
`

const map2021 = `smtlib name,competition name
/non-incremental/QF_BV/2017-Preiner-x/a.smt2,/non-incremental/QF_BV/smt-comp-061.smt2
/non-incremental/AUFNIRA/nasa/b.smt2,/non-incremental/AUFNIRA/smt-comp-035.smt2
/non-incremental/QF_IDL/job_shop/c.smt2,/non-incremental/QF_IDL/smt-comp-085.smt2
/non-incremental/LRA/2010-Monniaux-QE/mjollnir2/d.smt2,/non-incremental/LRA/smt-comp-044.smt2
/non-incremental/LRA/2010-Monniaux-QE/mjollnir2/d.smt2,/non-incremental/LRA/smt-comp-045.smt2
`

const statuses2021 = `benchmark name,status
/non-incremental/QF_BV/2017-Preiner-x/a.smt2,unsat
/non-incremental/AUFNIRA/nasa/b.smt2,unknown
/non-incremental/QF_IDL/job_shop/c.smt2,sat
/non-incremental/LRA/2010-Monniaux-QE/mjollnir2/d.smt2,unsat
`

func TestImportAWS2021(t *testing.T) {
	root := filepath.Join(t.TempDir(), "2021")
	res := filepath.Join(root, "results", "cloud-track")
	final := filepath.Join(root, "prep", "selection", "final")
	for _, d := range []string{res, final} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f := filepath.Join(res, "results.csv")
	os.WriteFile(f, []byte(results2021), 0o644)
	os.WriteFile(filepath.Join(final, "cloud-map.csv"), []byte(map2021), 0o644)
	os.WriteFile(filepath.Join(res, "aws-instance-statuses.csv"), []byte(statuses2021), 0o644)
	st := openStore(t)
	ctx := context.Background()
	s, err := ImportAWSCSV(ctx, st, f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows := dataLines(t, []byte(results2021)) - 1
	// Line 8: smt-comp-045 is the second name of d.smt2 (removed by
	// aws_join.sh); line 10: "soon" is no time.
	if s.Rows != rows || s.Added != rows-2 || s.Unusable() != 2 {
		t.Fatalf("%d rows, %d added, %d unusable (%v); want %d, %d, 2", s.Rows, s.Added, s.Unusable(), s.Problems, rows, rows-2)
	}
	lines := map[int]string{}
	for _, p := range s.Problems {
		if !p.Kept {
			lines[p.Line] = p.Reason
		}
	}
	if !strings.Contains(lines[8], "second competition name") || !strings.Contains(lines[10], `"soon"`) {
		t.Errorf("unusable rows named %v", lines)
	}
	if s.Problems[0].File != f {
		t.Errorf("problem names %q, not the file", s.Problems[0].File)
	}
	want := []struct {
		solver, bench, status, answer, expected, id string
		wall                                        float64
	}{
		{"cvc5gg", "non-incremental/QF_BV/2017-Preiner-x/a.smt2", "timeout", "starexec-unknown", "unsat", "11", 1201},
		{"stp", "non-incremental/QF_BV/2017-Preiner-x/a.smt2", "complete", "unsat", "unsat", "14", 1046.47},
		{"cvc5gg", "non-incremental/AUFNIRA/nasa/b.smt2", "complete", "starexec-unknown", "unknown", "11", 0},
		{"portfolio", "non-incremental/QF_IDL/job_shop/c.smt2", "complete", "starexec-unknown", "sat", "13", 1212.385},
		{"par", "non-incremental/QF_IDL/job_shop/c.smt2", "complete", "sat", "sat", "12", 870.776},
		{"cvc5gg", "non-incremental/LRA/2010-Monniaux-QE/mjollnir2/d.smt2", "timeout", "starexec-unknown", "unsat", "11", 1201},
		{"par", "non-incremental/LRA/2010-Monniaux-QE/mjollnir2/d.smt2", "complete", "unsat", "unsat", "12", 1.592},
	}
	for _, w := range want {
		rs, err := st.Results(ctx, store.ResultFilter{Year: 2021, Track: "cloud", Solver: w.solver, BenchmarkPath: w.bench})
		if err != nil || len(rs) != 1 {
			t.Errorf("%s on %s: %d results (%v)", w.solver, w.bench, len(rs), err)
			continue
		}
		r := rs[0]
		if r.Status != w.status || r.Answer != w.answer || r.Expected != w.expected || r.Wall != w.wall ||
			!strings.Contains(r.Extra, `"solver id":"`+w.id+`"`) {
			t.Errorf("%s on %s: %+v, want %+v", w.solver, w.bench, r, w)
		}
	}
	// Without the map, the statuses (SMT-LIB names) cannot be matched:
	// said once, and nothing is taken for a status.
	os.Remove(filepath.Join(final, "cloud-map.csv"))
	st2 := openStore(t)
	s2, err := ImportAWSCSV(ctx, st2, f, Options{})
	if err != nil || s2.Added != rows-1 || countNotes(s2, "cannot be looked up without the map") != 1 || countNotes(s2, "has no status") != 0 {
		t.Errorf("without the map: %+v %v", s2, err)
	}
	if rs, _ := st2.Results(ctx, store.ResultFilter{Year: 2021, Solver: "stp"}); len(rs) != 1 || rs[0].Expected != "" ||
		rs[0].BenchmarkPath != "non-incremental/QF_BV/smt-comp-061.smt2" {
		t.Errorf("without the map: %+v", rs)
	}
	// Two years in one store: the 2022 shape beside the 2021 one.
	f22 := filepath.Join(t.TempDir(), "2022", "raw-results-cloud.csv")
	os.MkdirAll(filepath.Dir(f22), 0o755)
	os.WriteFile(f22, []byte("benchmark,millisecond,result,cpu time,wallclock time,solver,solver id,configuration id,expected,status\n"+
		"./QF_BV/2017-Preiner-x/a.smt2,1500,unsat,1.5,1.5,stp,14,14,unsat,complete\n"), 0o644)
	if s, err := ImportAWSCSV(ctx, st, f22, Options{}); err != nil || s.Added != 1 {
		t.Fatalf("2022 beside 2021: %+v %v", s, err)
	}
	for year, n := range map[int]int{2021: rows - 2, 2022: 1} {
		if rs, _ := st.Results(ctx, store.ResultFilter{Year: year}); len(rs) != n {
			t.Errorf("%d: %d results, want %d", year, len(rs), n)
		}
	}
}

func gz(t *testing.T, path, text string) {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write([]byte(text))
	w.Close()
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestImportAWS2023 reads a per-solver file in the shape of SMT-COMP/
// smt-comp's 2023/results/aws/cloud-vampire.adjust-smt.csv.gz: a header
// (name, time, result) that 2023/results/aws/join.py replaces by
// benchmark, millisecond, result; competition names under
// /home/mww/smtcomp/2023/benchmarks/aws_selection_2023/TRACK, looked up in
// TRACK-pairs.csv.gz (input file, original name).
func TestImportAWS2023(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "2023", "results", "aws")
	os.MkdirAll(dir, 0o755)
	f := filepath.Join(dir, "cloud-vampire.adjust-smt.csv.gz")
	gz(t, f, `name, time, result
/home/mww/smtcomp/2023/benchmarks/aws_selection_2023/cloud/non-incremental/UF/smt-comp-001.smt2, 176932, unsat
/home/mww/smtcomp/2023/benchmarks/aws_selection_2023/cloud/non-incremental/LRA/smt-comp-002.smt2, 1200000, timeout
/home/mww/smtcomp/2023/benchmarks/aws_selection_2023/cloud/non-incremental/LRA/smt-comp-003.smt2, 3000, sat
`)
	gz(t, filepath.Join(dir, "cloud-pairs.csv.gz"), `input file,original name
/non-incremental/UF/smt-comp-001.smt2,/non-incremental/UF/sledgehammer/Arrow_Order/uf.1.smt2
/non-incremental/LRA/smt-comp-002.smt2,/non-incremental/LRA/2010-Monniaux-QE/mjollnir2/formula_194.smt2
/non-incremental/LRA/smt-comp-003.smt2,/non-incremental/LRA/2010-Monniaux-QE/mjollnir1/formula_1.smt2
`)
	statuses := filepath.Join(t.TempDir(), "SMT-LIB_non_incremental_benchmarks_all_assertions.csv")
	os.WriteFile(statuses, []byte("benchmark,status\n./UF/sledgehammer/Arrow_Order/uf.1.smt2,unsat\n./LRA/2010-Monniaux-QE/mjollnir2/formula_194.smt2,unknown\n"), 0o644)
	st := openStore(t)
	ctx := context.Background()
	s, err := ImportAWSCSV(ctx, st, f, Options{Statuses: statuses})
	if err != nil || s.Rows != 3 || s.Added != 3 {
		t.Fatalf("%+v %v", s, err)
	}
	if countNotes(s, "has no status") != 1 {
		t.Errorf("the benchmark without a status not named: %v", s.Problems)
	}
	rs, _ := st.Results(ctx, store.ResultFilter{Year: 2023, Track: "cloud"})
	got := map[string]store.Result{}
	for _, r := range rs {
		got[r.BenchmarkPath] = r
	}
	r := got["non-incremental/UF/sledgehammer/Arrow_Order/uf.1.smt2"]
	if r.Solver != "Vampire" || r.Wall != 176.932 || r.Answer != "unsat" || r.Expected != "unsat" || !strings.Contains(r.Extra, `"configuration id":"741777"`) {
		t.Errorf("first row %+v", r)
	}
	r = got["non-incremental/LRA/2010-Monniaux-QE/mjollnir2/formula_194.smt2"]
	if r.Answer != "starexec-unknown" || !strings.Contains(r.Extra, `"aws result":"timeout"`) || r.Expected != "unknown" {
		t.Errorf("timeout row %+v (join.py's convert_result)", r)
	}
	if r := got["non-incremental/LRA/2010-Monniaux-QE/mjollnir1/formula_1.smt2"]; r.Expected != "unknown" {
		t.Errorf("row without status %+v", r)
	}
	// The pairs file among the files given (aws/*.csv.gz) is no results.
	p, err := ImportAWSCSV(ctx, st, filepath.Join(dir, "cloud-pairs.csv.gz"), Options{})
	if err != nil || p.Rows != 0 || countNotes(p, "not results") != 1 {
		t.Errorf("pairs file imported as %+v %v", p, err)
	}
	if again, err := ImportAWSCSV(ctx, st, f, Options{Statuses: statuses}); err != nil || again.Added != 0 || again.Skipped != 3 {
		t.Errorf("re-import %+v %v", again, err)
	}
}

// TestImportAWSBad: a corrupted file stops with its file and line; rows
// that cannot be read are named and counted.
func TestImportAWSBad(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "2022")
	os.MkdirAll(dir, 0o755)
	head := "benchmark,millisecond,result,cpu time,wallclock time,solver,solver id,configuration id,expected,status,memo\n"
	bad := filepath.Join(dir, "raw-results-parallel.csv")
	os.WriteFile(bad, []byte(head+
		"./QF_LIA/a/b.smt2,1500,sat,1.5,1.5,SMTSP,3,3,sat,complete,x\n"+
		"./QF_LIA/a/c.smt2,1500,sat,1.5,fast,SMTSP,3,3,sat,complete,y\n"+
		"./QF_LIA/a/d.smt2,1500,sat\n"+
		"nologic.smt2,1500,sat,1.5,1.5,SMTSP,3,3,sat,complete,z\n"), 0o644)
	st := openStore(t)
	ctx := context.Background()
	s, err := ImportAWSCSV(ctx, st, bad, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Rows != 4 || s.Added != 1 || s.Unusable() != 3 {
		t.Errorf("%+v", s)
	}
	for i, want := range []struct {
		line int
		part string
	}{{3, `"fast"`}, {4, "3 fields"}, {5, "no logic"}} {
		if i >= len(s.Problems) || s.Problems[i].Line != want.line || !strings.Contains(s.Problems[i].Reason, want.part) || s.Problems[i].File != bad {
			t.Errorf("problem %d: %v, want line %d: %s", i, s.Problems, want.line, want.part)
		}
	}
	rs, _ := st.Results(ctx, store.ResultFilter{Year: 2022, Track: "parallel"})
	if len(rs) != 1 || !strings.Contains(rs[0].Extra, `"memo":"x"`) || !strings.Contains(rs[0].Extra, `"millisecond":"1500"`) {
		t.Errorf("an unknown column is not kept: %+v", rs)
	}
	cut := filepath.Join(dir, "raw-results-cloud.csv")
	os.WriteFile(cut, []byte(head+"./QF_LIA/a/b.smt2,1500,sat,1.5,1.5,SMTSP,3,3,sat,complete,x\n\"./QF_LIA/a/c.smt2,15"), 0o644)
	if _, err := ImportAWSCSV(ctx, st, cut, Options{}); err == nil || !strings.Contains(err.Error(), cut+":3") {
		t.Errorf("truncated file: %v", err)
	}
	if _, err := ImportAWSCSV(ctx, st, filepath.Join(dir, "missing.csv"), Options{Track: "cloud"}); err == nil {
		t.Error("a missing file imported")
	}
	other := filepath.Join(dir, "other-cloud.csv")
	os.WriteFile(other, []byte("a,b\n1,2\n"), 0o644)
	if _, err := ImportAWSCSV(ctx, st, other, Options{}); err == nil || !strings.Contains(err.Error(), other+":1") {
		t.Errorf("a file of no AWS shape: %v", err)
	}
}

func TestAWSPath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"./LRA/2010-Monniaux-QE/mjollnir2/x.smt2", "non-incremental/LRA/2010-Monniaux-QE/mjollnir2/x.smt2"},
		{"./QF_IDL/job_shop/jobshop10-2-1-2-4-4-10.smt2", "non-incremental/QF_IDL/job_shop/jobshop10-2-1-2-4-4-10.smt2"},
		{"/home/mww/satcomp/benchmarks/smtcomp/cloud/non-incremental/UF/smt-comp-108.smt2", "non-incremental/UF/smt-comp-108.smt2"},
		{"cloud_new/non-incremental/QF_BV/smt-comp-061.smt2", "non-incremental/QF_BV/smt-comp-061.smt2"},
		{"/non-incremental/LRA/a/b.smt2", "non-incremental/LRA/a/b.smt2"},
		{"smtlib/UFDT/20170428-Barrett/x.smt2", "non-incremental/UFDT/20170428-Barrett/x.smt2"},
		{"x.smt2", ""},
	} {
		got, ok := awsPath(tc.in)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("awsPath(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
}
