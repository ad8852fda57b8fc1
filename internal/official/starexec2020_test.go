package official

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
	"github.com/ulikunitz/xz"
)

// countCSVRows counts the data rows of every CSV member of a .tar.xz
// independently of the importer: by reading the tar with archive/tar and
// each member with encoding/csv (any number of fields a row).
func countCSVRows(t *testing.T, path string) map[string]int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	xr, err := xz.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	tr := tar.NewReader(xr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(h.Name)
		if strings.HasPrefix(base, "._") || !strings.HasSuffix(base, ".csv") {
			continue
		}
		cr := csv.NewReader(tr)
		cr.FieldsPerRecord = -1
		recs, err := cr.ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", h.Name, err)
		}
		out[base] = len(recs) - 1
	}
}

// TestImportStarExec2020 imports each 2020 track's Job_infos.tar.xz (three
// job exports and macOS "._" members): every data row of the three CSVs
// is a result, with its job file in Extra; a second import adds nothing.
func TestImportStarExec2020(t *testing.T) {
	dir := testenv.Shared(t, "official-results/2020/results")
	ctx := context.Background()
	st := openStore(t)
	for _, track := range []string{"incremental", "unsat-core", "model-validation"} {
		f := filepath.Join(dir, track, "Job_infos.tar.xz")
		counts := countCSVRows(t, f)
		want := 0
		for _, n := range counts {
			want += n
		}
		if len(counts) != 3 {
			t.Errorf("%s: %d CSV members, want 3 (orig, fixed, 2019)", track, len(counts))
		}
		s, err := ImportStarExec(ctx, st, f, Options{})
		if err != nil {
			t.Fatalf("%s: %v", track, err)
		}
		if s.Rows != want || s.Added != want || s.Unusable() != 0 {
			t.Errorf("%s: %d rows, %d added, %d unusable; the CSVs have %d data rows", track, s.Rows, s.Added, s.Unusable(), want)
		}
		rs, err := st.Results(ctx, store.ResultFilter{Year: 2020, Track: track})
		if err != nil {
			t.Fatal(err)
		}
		perJob := map[string]int{}
		for _, r := range rs {
			i := strings.Index(r.Extra, `"job file":"`)
			if i < 0 {
				t.Fatalf("%s: a result without its job file: %s", track, r.Extra)
			}
			job, _, _ := strings.Cut(r.Extra[i+len(`"job file":"`):], `"`)
			perJob[filepath.Base(job)]++
		}
		for job, n := range counts {
			if perJob[job] != n {
				t.Errorf("%s: %s: %d results, the CSV has %d data rows", track, job, perJob[job], n)
			}
		}
		if track == "model-validation" {
			// The main job's exception column is unquoted: rows with more
			// fields than the header are joined and noted, not dropped.
			notes := 0
			for _, p := range s.Problems {
				if p.Kept && strings.Contains(p.Reason, "model_validator_exception") {
					notes++
				}
			}
			if notes == 0 {
				t.Error("model-validation: no row noted for its unquoted exception text")
			}
			var found bool
			for _, r := range rs {
				if strings.Contains(r.Extra, `Line 1, Col 0: sat expected`) {
					found = true
					break
				}
			}
			if !found {
				t.Error("model-validation: no exception text kept whole with its comma")
			}
		}
		if track == "unsat-core" {
			continue // the largest: its re-import takes long and shows nothing the others do not
		}
		again, err := ImportStarExec(ctx, st, f, Options{})
		if err != nil || again.Added != 0 || again.Skipped != want {
			t.Errorf("%s: re-import %+v %v", track, again, err)
		}
	}
}

// TestImportStarExecTruncated imports a cut-off copy of a 2020 archive and
// of one of its CSVs: the error names the file and the line, the rows
// before it are imported whole (the counts say what the store holds), and
// the intact file then adds exactly the rest.
func TestImportStarExecTruncated(t *testing.T) {
	dir := testenv.Shared(t, "official-results/2020/results")
	ctx := context.Background()
	src := filepath.Join(dir, "incremental", "Job_infos.tar.xz")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	cut := filepath.Join(tmp, "2020", "incremental", "Job_infos.tar.xz")
	if err := os.MkdirAll(filepath.Dir(cut), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cut, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	st := openStore(t)
	s, err := ImportStarExec(ctx, st, cut, Options{})
	if err == nil || !strings.Contains(err.Error(), "Job_info_") || !strings.Contains(err.Error(), ".csv:") {
		t.Fatalf("truncated archive: %v, want an error naming the member and line", err)
	}
	rs, _ := st.Results(ctx, store.ResultFilter{Year: 2020, Track: "incremental"})
	if s.Added != len(rs) || s.Added == 0 || s.Rows != s.Added+s.Skipped+s.Unusable() {
		t.Errorf("truncated archive: %+v, %d in the store", s, len(rs))
	}
	want := 0
	for _, n := range countCSVRows(t, src) {
		want += n
	}
	full, err := ImportStarExec(ctx, st, src, Options{})
	if err != nil || full.Added != want-s.Added || full.Skipped != s.Added {
		t.Errorf("intact archive after the truncated one: %+v %v (want %d added)", full, err, want-s.Added)
	}

	// A CSV cut in the middle of a row: an error naming the file and that
	// line (the file breaks off inside it), the rows before it imported.
	var csvData []byte
	if err := EachCSV(src, func(name string, r io.Reader) error {
		if strings.HasSuffix(name, "Job_info_fixed.csv") {
			csvData, err = io.ReadAll(r)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(csvData), "\n")
	part := strings.Join(lines[:101], "") + lines[101][:len(lines[101])/3]
	cutCSV := filepath.Join(tmp, "2020", "incremental", "Job_info_fixed.csv")
	if err := os.WriteFile(cutCSV, []byte(part), 0o644); err != nil {
		t.Fatal(err)
	}
	st2 := openStore(t)
	s2, err := ImportStarExec(ctx, st2, cutCSV, Options{})
	if err == nil || !strings.Contains(err.Error(), "Job_info_fixed.csv:102: the file breaks off inside this line") {
		t.Fatalf("truncated CSV: %v, want an error naming line 102", err)
	}
	if s2.Rows != 100 || s2.Added != 100 || s2.Unusable() != 0 {
		t.Errorf("truncated CSV: %+v", s2)
	}
}

// TestImportStarExecShapes imports the column sets and forms of the
// StarExec exports of 2015-2023: no expected column (incremental), no
// pair id, columns written with underscores, a processed benchmark column
// starting at the logic, "--" results and times, 2023's split custom
// columns ("model_validator_exception=Line 1, Col 0" holding " sat
// expected"), CRLF line ends, and a zip and a .csv.gz of one.
func TestImportStarExecShapes(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name, data string
		rows       int
		check      func(t *testing.T, rs []store.Result)
	}{
		{"2020/Model_Validation_Track.csv", "pair id,benchmark,solver,status,cpu time,wallclock time,result,expected,model_validator_status,model_validator_error,model_validator_exception\r\n" +
			"3,Sp/QF_LIA/f/a.smt2,S,complete,1,1,sat,sat,INVALID,unhandled_exception,Line 2, Col 4: \"(\" expected\r\n", 1,
			func(t *testing.T, rs []store.Result) {
				if !strings.Contains(rs[0].Extra, `"model_validator_exception":"Line 2, Col 4: \"(\" expected"`) {
					t.Errorf("%+v", rs[0])
				}
			}},
		{"2016/Incremental_Track.csv", "pair id,benchmark,benchmark id,solver,solver id,configuration,configuration id,status,cpu time,wallclock time,memory usage,result,wrong-answers,correct-answers\n" +
			"1,Competition - Incremental Track/QF_BV/f/a.smt2,7,S,11,default,12,timeout (wallclock),1200.1,1200.0,100,--,0,3\n", 1,
			func(t *testing.T, rs []store.Result) {
				r := rs[0]
				if r.BenchmarkPath != "incremental/QF_BV/f/a.smt2" || r.Expected != "" || r.Answer != "--" || !strings.Contains(r.Extra, `"correct-answers":"3"`) {
					t.Errorf("%+v", r)
				}
			}},
		{"2023/raw-results-sq.csv", "benchmark,solver,configuration,status,cpu time,wallclock time,memory usage,result,expected\r\n" +
			"QF_LIA/f/a.smt2,S,default,complete,1.5,1.6,100,sat,sat\r\nQF_LIA/f/b.smt2,S,default,complete,--,--,-,starexec-unknown,starexec-unknown\r\n", 2,
			func(t *testing.T, rs []store.Result) {
				if rs[0].BenchmarkPath != "non-incremental/QF_LIA/f/a.smt2" || rs[0].CPU != 1.5 || rs[1].CPU != 0 || rs[1].Expected != "starexec-unknown" {
					t.Errorf("%+v", rs)
				}
			}},
		{"2021/results-uc.csv", "pair_id,benchmark,solver,solver_id,status,cpu_time,wallclock_time,result,expected,reduction\n" +
			"5,Competition - Unsat Core Track/UF/f/a.smt2,S,11,complete,1,1,unsat,unsat,4\n", 1,
			func(t *testing.T, rs []store.Result) {
				if !strings.HasSuffix(rs[0].SourceKey, "\x1f5") || !strings.Contains(rs[0].Extra, `"solver_id":"11"`) {
					t.Errorf("%+v", rs[0])
				}
			}},
		{"2023/Model_Validation_Track.csv", "pair id,benchmark,solver,status,cpu time,wallclock time,result,expected,model_validator_status,model_validator_error,\"model_validator_exception=Line 1, Col 0: sat\",model_validator_exception=x\n" +
			"9,Competition/QF_BV/f/a.smt2,S,complete,1,1,sat,sat,INVALID,unhandled_exception, expected,\n", 1,
			func(t *testing.T, rs []store.Result) {
				if !strings.Contains(rs[0].Extra, `"model_validator_exception":""`) || !strings.Contains(rs[0].Extra, `"model_validator_exception=Line 1, Col 0: sat":" expected"`) {
					t.Errorf("%+v", rs[0])
				}
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			f := filepath.Join(dir, c.name)
			if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f, []byte(c.data), 0o644); err != nil {
				t.Fatal(err)
			}
			st := openStore(t)
			s, err := ImportStarExec(ctx, st, f, Options{})
			if err != nil || s.Rows != c.rows || s.Added != c.rows {
				t.Fatalf("%+v %v", s, err)
			}
			rs, err := st.Results(ctx, store.ResultFilter{})
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, rs)
		})
	}
	// The StarExec download (a zip with JobN/JobN_info.csv, here with a
	// macOS member) and a gzipped export.
	data := "pair id,benchmark,solver,status,cpu time,wallclock time,result,expected\n1,Sp/QF_UF/f/a.smt2,S,complete,1,1,sat,sat\n2,Sp/QF_UF/f/b.smt2,S,complete,1,1,unsat,unsat\n"
	dir := filepath.Join(t.TempDir(), "2018", "Main_Track")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for _, m := range []string{"Job1/Job1_info.csv", "__MACOSX/Job1/._Job1_info.csv"} {
		w, err := zw.Create(m)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, data)
	}
	zw.Close()
	var gb bytes.Buffer
	gw := gzip.NewWriter(&gb)
	io.WriteString(gw, data)
	gw.Close()
	for name, b := range map[string][]byte{"Job1_info.zip": zb.Bytes(), "Job1_info.csv.gz": gb.Bytes()} {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		st := openStore(t)
		s, err := ImportStarExec(ctx, st, f, Options{})
		if err != nil || s.Rows != 2 || s.Added != 2 {
			t.Errorf("%s: %+v %v", name, s, err)
		}
		rs, _ := st.Results(ctx, store.ResultFilter{Year: 2018, Track: "single-query"})
		if len(rs) != 2 {
			t.Errorf("%s: %d results of 2018's single-query track", name, len(rs))
		}
	}
}

// The rows of a rerun of timed-out pairs (2017's
// Main_Track_Rerun_Timeouts) say so, for the official computation.
func TestImportStarExecRerun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "2017", "csv")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(dir, "Main_Track_Rerun_Timeouts.csv")
	os.WriteFile(f, []byte("pair id,benchmark,benchmark id,solver,solver id,configuration,configuration id,status,cpu time,wallclock time,memory usage,result,expected\n"+
		"7,QF_BV/f/x.smt2,1,CVC4,13,default,23,complete,700,700,10,sat,sat\n"), 0o644)
	st := openStore(t)
	if s, err := ImportStarExec(context.Background(), st, f, Options{}); err != nil || s.Added != 1 {
		t.Fatalf("%+v %v", s, err)
	}
	rs, _ := st.Results(context.Background(), store.ResultFilter{Year: 2017})
	if len(rs) != 1 || rs[0].Track != "single-query" || !strings.Contains(rs[0].Extra, `"rerun file":"Main_Track_Rerun_Timeouts.csv"`) {
		t.Errorf("%+v", rs)
	}
}
