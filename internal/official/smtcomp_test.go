package official

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/store"
)

// A constructed file in the smtcomp tool's JSON (no sample is published
// with the shared data): an object with a results array, file as an object
// and as a path, every result word.
const smtcompJSON = `{"version": 1, "results": [
 {"track": "SingleQuery", "solver": "cvc5", "file": {"incremental": false, "logic": "QF_BV", "family": ["2019-Mann", "sub"], "name": "a.smt2"},
  "result": "sat", "cpu_time": 1.5, "wallclock_time": 1.25, "memory_usage": 2097152, "nb_answers": -1},
 {"track": "SingleQuery", "solver": "z3", "file": "QF_BV/2019-Mann/sub/a.smt2", "result": "Timeout", "cpu_time": 1200, "wallclock_time": 1200.1, "memory_usage": 0},
 {"track": "SingleQuery", "solver": "bitwuzla", "file": "non-incremental/QF_BV/2019-Mann/sub/a.smt2", "result": "OOM", "cpu_time": 3, "wallclock_time": 3, "memory_usage": 0},
 {"track": "Incremental", "solver": "cvc5", "file": {"logic": "QF_LIA", "family": "fam", "name": "i.smt2"}, "result": "Incremental", "cpu_time": 2, "wallclock_time": 2, "memory_usage": 0, "nb_answers": 17},
 {"track": "Incremental", "solver": "z3", "file": {"logic": "QF_LIA", "family": "fam", "name": "i.smt2"}, "result": "IncrementalError", "cpu_time": 2, "wallclock_time": 2, "memory_usage": 0, "nb_answers": 0},
 {"track": "UnsatCore", "solver": "cvc5", "file": {"logic": "QF_UF", "family": [], "name": "u.smt2"}, "result": "unsat", "cpu_time": 2, "wallclock_time": 2, "memory_usage": 0, "nb_answers": 4},
 {"track": "ModelValidation", "solver": "cvc5", "file": {"logic": "QF_BV", "family": ["f"], "name": "m.smt2"}, "result": "sat", "cpu_time": 2, "wallclock_time": 2, "memory_usage": 0},
 {"track": "ModelValidation", "solver": "z3", "file": {"logic": "QF_BV", "family": ["f"], "name": "m.smt2"}, "result": "ModelParsingError", "cpu_time": 2, "wallclock_time": 2, "memory_usage": 0},
 {"track": "Cloud", "solver": "SMTS", "file": 4711, "logic": "QF_LRA", "family": ["g"], "name": "c.smt2", "result": "Timeout", "cpu_time": 0, "wallclock_time": 1200, "memory_usage": 0, "year": 2025},
 {"track": "Cloud", "solver": "SMTS", "file": null, "result": "sat", "cpu_time": 0, "wallclock_time": 1, "memory_usage": 0}
]}`

func TestImportSMTCOMPJSON(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "results-2024.json.gz")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	zw.Write([]byte(smtcompJSON))
	zw.Close()
	f.Close()
	st := openStore(t)
	ctx := context.Background()
	s, err := Import(ctx, st, "smtcomp-json", p, Options{})
	if err != nil || s.Rows != 10 || s.Added != 9 || s.Unusable() != 1 || !strings.Contains(s.Problems[0].String(), ":10: result 10: file null") {
		t.Fatalf("%+v %v", s, err)
	}
	if rs, err := st.Results(ctx, store.ResultFilter{Year: 2025}); err != nil || len(rs) != 1 || rs[0].BenchmarkPath != "non-incremental/QF_LRA/g/c.smt2" ||
		rs[0].Status != "timeout" || !strings.Contains(rs[0].Extra, `"file":4711`) {
		t.Errorf("2025-shaped result: %+v %v", rs, err)
	}
	rs, err := st.Results(ctx, store.ResultFilter{Year: 2024})
	if err != nil || len(rs) != 8 {
		t.Fatalf("%d results, %v", len(rs), err)
	}
	want := []struct{ track, path, status, answer, extra string }{
		{"single-query", "non-incremental/QF_BV/2019-Mann/sub/a.smt2", "complete", "sat", `{"nb_answers":-1,"result":"sat"}`},
		{"single-query", "non-incremental/QF_BV/2019-Mann/sub/a.smt2", "timeout", "unknown", `{"result":"Timeout"}`},
		{"single-query", "non-incremental/QF_BV/2019-Mann/sub/a.smt2", "memout", "unknown", `{"result":"OOM"}`},
		{"incremental", "incremental/QF_LIA/fam/i.smt2", "complete", "unknown", `{"correct-answers":17,"nb_answers":17,"result":"Incremental"}`},
		{"incremental", "incremental/QF_LIA/fam/i.smt2", "complete", "unknown", `{"correct-answers":0,"nb_answers":0,"result":"IncrementalError","wrong-answers":1}`},
		{"unsat-core", "non-incremental/QF_UF/u.smt2", "complete", "unsat", `{"core-size":4,"nb_answers":4,"result":"unsat"}`},
		{"model-validation", "non-incremental/QF_BV/f/m.smt2", "complete", "sat", `{"model_validator_status":"VALID","result":"sat"}`},
		{"model-validation", "non-incremental/QF_BV/f/m.smt2", "complete", "sat", `{"model_validator_status":"INVALID","result":"ModelParsingError"}`},
	}
	for i, w := range want {
		r := rs[i]
		if r.Track != w.track || r.BenchmarkPath != w.path || r.Status != w.status || r.Answer != w.answer || r.Extra != w.extra || r.Competition != "SMT-COMP 2024" {
			t.Errorf("result %d: %+v, want %+v", i, r, w)
		}
	}
	if rs[0].CPU != 1.5 || rs[0].Wall != 1.25 || rs[0].MemoryMB != 2 {
		t.Errorf("times and memory: %+v", rs[0])
	}
	if s, err := Import(ctx, st, "smtcomp-json", p, Options{}); err != nil || s.Added != 0 || s.Skipped != 9 {
		t.Errorf("re-import %+v %v", s, err)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`[{"track": "Nope", "solver": "x", "file": "a", "result": "sat", "year": 2024}]`), 0o644)
	if s, err := Import(ctx, st, "smtcomp-json", bad, Options{}); err != nil || s.Rows != 1 || s.Unusable() != 1 ||
		!strings.Contains(s.Problems[0].String(), "bad.json:1: result 1: unknown track") {
		t.Errorf("bad track: %+v %v", s, err)
	}
	if _, err := Import(ctx, st, "nonsense", bad, Options{}); err == nil {
		t.Error("an unknown format imported")
	}
}

// TestImportDuplicates: a result a file gives again is named with the line
// of the first, among the file's other problems in the order read, and not
// added; imported again, the file's results are all there, and the repeat
// is named again.
func TestImportDuplicates(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "results-2024.json")
	row := func(solver, name string) string {
		return `{"track": "SingleQuery", "solver": "` + solver + `", "file": {"logic": "QF_UF", "family": ["f"], "name": "` + name +
			`"}, "result": "sat", "cpu_time": 1, "wallclock_time": 1, "memory_usage": 0}`
	}
	rows := []string{row("z3", "a.smt2"), row("", "b.smt2"), row("z3", "a.smt2"), row("cvc5", "a.smt2"), row("z3", "a.smt2")}
	os.WriteFile(p, []byte(`{"results": [`+strings.Join(rows, ",\n")+`]}`), 0o644)
	st := openStore(t)
	ctx := context.Background()
	wantProblems := []string{":2: result 2: no solver", ":3: the same result as line 1", ":5: the same result as line 1"}
	for round, want := range []struct{ added, skipped int }{{2, 0}, {0, 2}} {
		s, err := Import(ctx, st, "smtcomp-json", p, Options{})
		if err != nil || s.Rows != 5 || s.Added != want.added || s.Skipped != want.skipped || len(s.Problems) != len(wantProblems) {
			t.Fatalf("import %d: %+v %v", round+1, s, err)
		}
		for i, w := range wantProblems {
			if !strings.Contains(s.Problems[i].String(), w) {
				t.Errorf("import %d, problem %d: %s, want %q", round+1, i, s.Problems[i], w)
			}
		}
		if s.Rows != s.Added+s.Skipped+s.Unusable() {
			t.Errorf("import %d: %d rows, %d added, %d skipped, %d unusable", round+1, s.Rows, s.Added, s.Skipped, s.Unusable())
		}
	}
}

// TestExactDecimal: the numbers read without strconv are the numbers
// strconv reads, and the integers written without it are written alike.
func TestExactDecimal(t *testing.T) {
	for _, s := range []string{"0", "-0", "7.135501964", "7.241653801058419", "0.2863224199973047", "170754048.0", "1200",
		"9007199254740991", "9007199254740993", "0.1", "0.30000000000000004", "123456789.123456", "1.0000000000000000000000001",
		"00", "1.", "-", "1e5", "0.0000000000000000000000000001"} {
		want, werr := strconv.ParseFloat(s, 64)
		if got, ok := exactDecimal([]byte(s)); ok && (werr != nil || math.Float64bits(got) != math.Float64bits(want)) {
			t.Errorf("exactDecimal(%q) = %v, strconv %v %v", s, got, want, werr)
		}
	}
	for _, x := range []float64{0, math.Copysign(0, -1), 1, -1, 17, 2e14, 1e15, 1e21, 1.5, 1e-7} {
		if got, want := string(appendJSONFloat(nil, x)), mustJSON(t, x); got != want {
			t.Errorf("appendJSONFloat(%v) = %s, encoding/json %s", x, got, want)
		}
	}
}

func mustJSON(t *testing.T, x float64) string {
	t.Helper()
	b, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func FuzzExactDecimal(f *testing.F) {
	for _, s := range []string{"7.135501964", "0.2863224199973047", "-12.5", "170754048.0", ".", "-.", "9007199254740993"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" {
			return
		}
		got, ok := exactDecimal([]byte(s))
		if !ok {
			return
		}
		want, err := strconv.ParseFloat(s, 64)
		if err != nil || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("exactDecimal(%q) = %v, strconv %v %v", s, got, want, err)
		}
	})
}
