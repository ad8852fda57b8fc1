package official

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
)

// decodeCount counts the elements of the arrays under keys of a gzipped
// JSON file by decoding it whole, independently of the importer.
func decodeCount(t testing.TB, path string, keys ...string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string][]json.RawMessage
	if err := json.NewDecoder(zr).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, k := range keys {
		n += len(doc[k])
	}
	return n
}

// TestImport2024 imports every results file of 2024 and the benchmark
// list into one store: each file's row count is the file's (counted here by
// decoding it), all are added, nothing is unusable, and a second import
// adds nothing.
func TestImport2024(t *testing.T) {
	dir := filepath.Join(testenv.Shared(t, "official-results/2024"), "data")
	st := openStore(t)
	ctx := context.Background()
	for _, c := range []struct{ file, format, track string }{
		{"results-cloud-2024.json.gz", "smtcomp-json", "cloud"},
		{"results-parallel-2024.json.gz", "smtcomp-json", "parallel"},
		{"results-inc-2024.json.gz", "smtcomp-json", "incremental"},
		{"results-uc-2024.json.gz", "smtcomp-json", "unsat-core"},
		{"benchmarks-2024.json.gz", "benchmarks-json", ""},
	} {
		p := filepath.Join(dir, c.file)
		want := decodeCount(t, p, "results", "incremental", "non_incremental")
		s, err := Import(ctx, st, c.format, p, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if s.Rows != want || s.Added != want || s.Skipped != 0 || len(s.Problems) != 0 {
			t.Errorf("%s: %d rows, %d added, %d skipped, problems %v; the file has %d", c.file, s.Rows, s.Added, s.Skipped, s.Problems, want)
		}
		s, err = Import(ctx, st, c.format, p, Options{})
		if err != nil || s.Rows != want || s.Added != 0 || s.Skipped != want {
			t.Errorf("%s again: %+v %v", c.file, s, err)
		}
		if c.track != "" {
			rs, err := st.Results(ctx, store.ResultFilter{Year: 2024, Track: c.track})
			if err != nil || len(rs) != want {
				t.Errorf("%s: %d %s results in the store, %v", c.file, len(rs), c.track, err)
			}
		}
	}
	bs, err := st.Benchmarks(ctx, store.Filter{Logic: "QF_UF"})
	if err != nil {
		t.Fatal(err)
	}
	asserts, unsat := 0, 0
	for _, b := range bs {
		asserts += b.Asserts
		if b.Status == "unsat" {
			unsat++
		}
	}
	if asserts == 0 || unsat == 0 {
		t.Errorf("QF_UF benchmarks: %d assertions, %d unsat", asserts, unsat)
	}
}

// TestImportTwoYears imports 2024's incremental results and then a file of
// 2025's shape (a year field in every result, a field the 2024 tool did not
// write) holding the same runs: all of the second file is added, under
// 2025, with the new field kept.
func TestImportTwoYears(t *testing.T) {
	src := filepath.Join(testenv.Shared(t, "official-results/2024"), "data", "results-inc-2024.json.gz")
	st := openStore(t)
	ctx := context.Background()
	s24, err := Import(ctx, st, "smtcomp-json", src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(src)
	zr, _ := gzip.NewReader(f)
	var doc struct{ Results []map[string]any }
	if err := json.NewDecoder(zr).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, r := range doc.Results {
		r["year"] = 2025
		r["participation"] = 0
		r["benchmark_yml"] = "x.yml"
	}
	data, _ := json.Marshal(map[string]any{"results": doc.Results})
	p := filepath.Join(t.TempDir(), "results-inc.json") // no year in the path
	os.WriteFile(p, data, 0o644)
	s25, err := Import(ctx, st, "smtcomp-json", p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s25.Rows != len(doc.Results) || s25.Added != s25.Rows || s25.Added != s24.Added || len(s25.Problems) != 0 {
		t.Errorf("2025 after 2024: %d rows, %d added, %d already there, %d problems; 2024 added %d", s25.Rows, s25.Added, s25.Skipped, len(s25.Problems), s24.Added)
	}
	rs, err := st.Results(ctx, store.ResultFilter{Year: 2025, Track: "incremental"})
	if err != nil || len(rs) != len(doc.Results) {
		t.Fatalf("%d results of 2025, %v", len(rs), err)
	}
	if !strings.Contains(rs[0].Extra, `"benchmark_yml":"x.yml"`) || rs[0].Competition != "SMT-COMP 2025" {
		t.Errorf("2025 result %+v", rs[0])
	}
}

// TestImportTruncated: a .gz cut short is an error naming the file and the
// result where it stopped; what was read before is counted.
func TestImportTruncated(t *testing.T) {
	src := filepath.Join(testenv.Shared(t, "official-results/2024"), "data", "results-cloud-2024.json.gz")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "results-cloud-2024.json.gz")
	os.WriteFile(p, data[:len(data)/2], 0o644)
	s, err := Import(context.Background(), openStore(t), "smtcomp-json", p, Options{})
	if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "result ") {
		t.Fatalf("truncated file: %v", err)
	}
	if s.Rows == 0 || s.Rows != s.Added+s.Skipped+s.Unusable() {
		t.Errorf("the rows read before the cut do not add up: %+v", s)
	}
	// The benchmark list too.
	src = filepath.Join(filepath.Dir(src), "benchmarks-2024.json.gz")
	data, _ = os.ReadFile(src)
	p = filepath.Join(t.TempDir(), "benchmarks-2024.json.gz")
	os.WriteFile(p, data[:len(data)/50], 0o644)
	if _, err := Import(context.Background(), openStore(t), "benchmarks-json", p, Options{}); err == nil ||
		!strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "entry ") {
		t.Errorf("truncated benchmark list: %v", err)
	}
}

// TestImportBenchmarksJSONProblems: unusable entries are named, counted,
// and the others imported.
func TestImportBenchmarksJSONProblems(t *testing.T) {
	p := filepath.Join(t.TempDir(), "benchmarks-2025.json")
	os.WriteFile(p, []byte(`{"incremental": [{"file": {"incremental": true, "logic": "QF_LIA", "family": ["f"], "name": "a.smt2"}, "check_sats": 7, "new": 1}],
 "non_incremental": [{"file": {"incremental": false, "logic": "QF_UF", "family": ["g", "h"], "name": "b.smt2"}, "status": "unsat", "asserts": 12},
  {"file": {"logic": "QF_UF"}, "status": "sat", "asserts": 1},
  {"file": {"incremental": false, "logic": "QF_UF", "family": [], "name": "c.smt2"}, "status": "maybe", "asserts": 1},
  {"file": {"incremental": false, "logic": "QF_UF", "family": ["g", "h"], "name": "b.smt2"}, "status": "unsat", "asserts": 12}]}`), 0o644)
	st := openStore(t)
	s, err := Import(context.Background(), st, "benchmarks-json", p, Options{})
	if err != nil || s.Rows != 5 || s.Added != 2 || s.Unusable() != 3 {
		t.Fatalf("%+v %v", s, err)
	}
	for i, want := range []string{":2: non_incremental[2]: file", ":3: non_incremental[3]: unknown status", ":4: non_incremental[4]: the same benchmark as non_incremental[1]", "field \"new\""} {
		if !strings.Contains(s.Problems[i].String(), want) {
			t.Errorf("problem %d: %s, want %s", i, s.Problems[i], want)
		}
	}
	bs, _ := st.Benchmarks(context.Background(), store.Filter{})
	if len(bs) != 2 || bs[0].Path != "incremental/QF_LIA/f/a.smt2" || bs[0].CheckSats != 7 || bs[1].Path != "non-incremental/QF_UF/g/h/b.smt2" || bs[1].Asserts != 12 || bs[1].Status != "unsat" {
		t.Errorf("%+v", bs)
	}
}

// TestImportBenchmarksJSONDuplicates: an entry whose path an earlier one
// has is named in the order of the entries, among the other problems, and
// counted once; a path already in the store is Skipped once.
func TestImportBenchmarksJSONDuplicates(t *testing.T) {
	entry := func(name, status string) string {
		return `{"file": {"incremental": false, "logic": "QF_UF", "family": ["g"], "name": "` + name + `"}, "status": "` + status + `", "asserts": 2}`
	}
	inc := `{"file": {"incremental": true, "logic": "QF_LIA", "family": ["f"], "name": "a.smt2"}, "check_sats": 3}`
	dir := t.TempDir()
	first, second := filepath.Join(dir, "benchmarks-2024.json"), filepath.Join(dir, "benchmarks-2025.json")
	os.WriteFile(first, []byte(`{"non_incremental": [`+entry("b.smt2", "sat")+`]}`), 0o644)
	os.WriteFile(second, []byte(`{"incremental": [`+inc+`, {"check_sats": 1}, `+inc+`],
 "non_incremental": [`+entry("b.smt2", "unsat")+`, `+entry("b.smt2", "sat")+`, `+entry("c.smt2", "maybe")+`, `+entry("d.smt2", "unsat")+`]}`), 0o644)
	st := openStore(t)
	ctx := context.Background()
	if s, err := Import(ctx, st, "benchmarks-json", first, Options{}); err != nil || s.Added != 1 {
		t.Fatalf("%+v %v", s, err)
	}
	s, err := Import(ctx, st, "benchmarks-json", second, Options{})
	if err != nil || s.Rows != 7 || s.Added != 2 || s.Skipped != 1 || s.Unusable() != 4 || len(s.Problems) != 4 {
		t.Fatalf("%+v %v", s, err)
	}
	for i, want := range []string{":2: incremental[2]: no file", ":3: incremental[3]: the same benchmark as incremental[1]",
		":2: non_incremental[2]: the same benchmark as non_incremental[1]", ":3: non_incremental[3]: unknown status"} {
		if !strings.Contains(s.Problems[i].String(), want) {
			t.Errorf("problem %d: %s, want %s", i, s.Problems[i], want)
		}
	}
	bs, _ := st.Benchmarks(ctx, store.Filter{})
	if len(bs) != 3 || bs[1].Path != "non-incremental/QF_UF/g/b.smt2" || bs[1].Status != "sat" {
		t.Errorf("%+v", bs)
	}
	if s, err := Import(ctx, st, "benchmarks-json", second, Options{}); err != nil || s.Added != 0 || s.Skipped != 3 || s.Unusable() != 4 {
		t.Errorf("again: %+v %v", s, err)
	}
}
