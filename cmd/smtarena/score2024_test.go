package main

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/testenv"
)

// TestScore2024Parallel runs the README's 2024 steps on the parallel
// track: import the cloud and parallel results and (the part of) the
// benchmark list they need, score with defs.py and the submissions, write
// the website's JSON records. QF_IDL's record is the published page's
// (pages/qf_idl-parallel: 196 benchmarks, the parallel tracks' selections
// together; SMTS 2 errors, 37 correct, 39 solved).
func TestScore2024Parallel(t *testing.T) {
	dir := testenv.Shared(t, "official-results/2024")
	tmp := t.TempDir()
	db := filepath.Join(tmp, "s.db")
	res := []string{filepath.Join(dir, "data/results-cloud-2024.json.gz"), filepath.Join(dir, "data/results-parallel-2024.json.gz")}
	if code, out, errs := runCLI(t, "", append([]string{"import", "--db", db, "smtcomp-json"}, res...)...); code != 0 || !strings.Contains(out, "800 rows, 800 added") {
		t.Fatalf("import: %d %s %s", code, out, errs)
	}
	// A benchmark list of the logics of these tracks (the whole one takes
	// seconds to import).
	f, err := os.Open(filepath.Join(dir, "data/benchmarks-2024.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zr, _ := gzip.NewReader(f)
	var doc struct {
		NonIncremental []json.RawMessage `json:"non_incremental"`
	}
	if err := json.NewDecoder(zr).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var keep []json.RawMessage
	for _, b := range doc.NonIncremental {
		if strings.Contains(string(b), `"QF_IDL"`) {
			keep = append(keep, b)
		}
	}
	data, _ := json.Marshal(map[string]any{"non_incremental": keep})
	list := filepath.Join(tmp, "benchmarks-2024.json")
	os.WriteFile(list, data, 0o644)
	if code, _, errs := runCLI(t, "", "import", "--db", db, "benchmarks-json", list); code != 0 {
		t.Fatalf("import benchmarks: %d %s", code, errs)
	}
	out := filepath.Join(tmp, "web")
	code, stdout, errs := runCLI(t, "", "score", "--db", db, "--rules", "2024", "--track", "parallel", "--compat", "official",
		"--defs", filepath.Join(dir, "submissions/smtcomp/defs.py"), "--submissions", filepath.Join(dir, "submissions/submissions"),
		"--format", "web-json", "--out", out, "--date", "2024-07-08")
	if code != 0 || stdout != "wrote 18 pages to "+out+"\n" {
		t.Fatalf("score: %d %q %s", code, stdout, errs)
	}
	raw, err := os.ReadFile(filepath.Join(out, "qf_idl-parallel.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		NBenchmarks int    `json:"n_benchmarks"`
		MemLimit    int    `json:"mem_limit"`
		WinnerPar   string `json:"winner_par"`
		Parallel    []struct {
			Name                             string
			ErrorScore, CorrectScore, Solved int
			Unsolved                         int
		}
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.NBenchmarks != 196 || rec.MemLimit != 20480 || rec.WinnerPar != "SMTS" || len(rec.Parallel) != 2 ||
		rec.Parallel[0].Name != "SMTS" || rec.Parallel[0].ErrorScore != 2 || rec.Parallel[0].CorrectScore != 37 || rec.Parallel[0].Solved != 39 || rec.Parallel[0].Unsolved != 157 {
		t.Errorf("qf_idl-parallel: %s", raw)
	}
}
