package official

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/store"
)

// TestDetectFormat: a file named as the smtcomp tool names its JSON is
// read as such without a format word; anything else stays a StarExec
// export.
func TestDetectFormat(t *testing.T) {
	for path, want := range map[string]string{
		"data/results-sq-2025.json.gz":        "smtcomp-json",
		"results-uc-2025.json":                "smtcomp-json",
		"x/benchmarks-2025.json.gz":           "benchmarks-json",
		"Benchmarks-2025.JSON.xz":             "benchmarks-json",
		"2019/results/Incremental.csv.tar.xz": "",
		"results.csv":                         "",
	} {
		if got := detectFormat(path); got != want {
			t.Errorf("detectFormat(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestImport2025Words imports, without a format word, a file in the shape
// main.py writes the 2025 results (nb_answers only in the unsat-core and
// incremental tracks; the validation verdicts as result words): each word
// becomes the status and answer scoring reads, and is kept.
func TestImport2025Words(t *testing.T) {
	p := filepath.Join(t.TempDir(), "results-uc-2025.json")
	os.WriteFile(p, []byte(`{"results": [
 {"track": "UnsatCore", "solver": "OpenSMT", "file": {"incremental": false, "logic": "QF_LRA", "family": ["f"], "name": "a.smt2"},
  "result": "UnsatCoreNotValidated", "cpu_time": 1, "wallclock_time": 1, "memory_usage": 0, "nb_answers": 3},
 {"track": "ModelValidation", "solver": "Yices2", "file": {"incremental": false, "logic": "QF_LRA", "family": ["f"], "name": "b.smt2"},
  "result": "ModelUnsat", "cpu_time": 1, "wallclock_time": 1, "memory_usage": 0},
 {"track": "Parallel", "solver": "SMTS", "file": {"incremental": false, "logic": "QF_LRA", "family": ["f"], "name": "b.smt2"},
  "result": "OutOfMemory", "cpu_time": 1, "wallclock_time": 1, "memory_usage": 0},
 {"track": "SingleQuery", "solver": "SMTS", "file": {"incremental": false, "logic": "QF_LRA", "family": ["f"], "name": "b.smt2"},
  "result": "OtherError", "cpu_time": 1, "wallclock_time": 1, "memory_usage": 0}
]}`), 0o644)
	st := openStore(t)
	ctx := context.Background()
	s, err := Import(ctx, st, "", p, Options{})
	// A word the tool did not have in 2024 is imported (an abnormal end
	// without an answer) and named.
	if err != nil || s.Rows != 4 || s.Added != 4 || s.Unusable() != 0 || len(s.Problems) != 1 || !strings.Contains(s.Problems[0].String(), `"othererror"`) {
		t.Fatalf("%+v %v", s, err)
	}
	rs, err := st.Results(ctx, store.ResultFilter{Year: 2025})
	if err != nil || len(rs) != 4 {
		t.Fatalf("%d results, %v", len(rs), err)
	}
	want := map[string][3]string{
		"unsat-core":       {"complete", "unsat", `{"core-size":3,"nb_answers":3,"result":"UnsatCoreNotValidated","result-is-erroneous":1}`},
		"model-validation": {"complete", "sat", `{"model_validator_status":"INVALID","result":"ModelUnsat"}`},
		"parallel":         {"memout", "unknown", `{"result":"OutOfMemory"}`},
		"single-query":     {"othererror", "unknown", `{"result":"OtherError"}`},
	}
	for _, r := range rs {
		if w := want[r.Track]; r.Status != w[0] || r.Answer != w[1] || r.Extra != w[2] {
			t.Errorf("%s: %s %s %s, want %v", r.Track, r.Status, r.Answer, r.Extra, w)
		}
	}
}
