package official

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/store"
)

// TestImportFiles: results files and a benchmark list in one transaction;
// a results file cut short is imported up to the damage and stops the
// results files after it, not the list; a second import adds nothing.
func TestImportFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, cut int) string {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(text))
		zw.Close()
		data := b.Bytes()
		if cut > 0 {
			data = data[:cut]
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	result := func(solver, name string) string {
		return `{"track": "UnsatCore", "solver": "` + solver + `", "file": {"incremental": false, "logic": "QF_UF", "family": ["f"], "name": "` + name +
			`"}, "result": "unsat", "cpu_time": 1, "wallclock_time": 1, "memory_usage": 0, "nb_answers": 3}`
	}
	var many []string
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		many = append(many, result("z3", n+strings.Repeat("x", 2000)+".smt2"))
	}
	good := write("results-uc-2024.json.gz", `{"results": [`+result("cvc5", "a.smt2")+`]}`, 0)
	broken := write("results-inc-2024.json.gz", `{"results": [`+strings.Join(many, ",")+`]}`, 0)
	fi, _ := os.Stat(broken)
	broken = write("results-inc-2024.json.gz", `{"results": [`+strings.Join(many, ",")+`]}`, int(fi.Size())-20)
	after := write("results-cloud-2024.json.gz", `{"results": [`+result("SMTS", "c.smt2")+`]}`, 0)
	list := write("benchmarks-2024.json.gz", `{"non_incremental": [{"file": {"incremental": false, "logic": "QF_UF", "family": ["f"], "name": "a.smt2"}, "status": "unsat", "asserts": 5}]}`, 0)
	st := openStore(t)
	ctx := context.Background()
	paths := []string{good, broken, after, list}
	stats, errs, err := ImportFiles(ctx, st, "", paths, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if errs[0] != nil || stats[0].Added != 1 || errs[1] == nil || !strings.Contains(errs[1].Error(), "results-inc-2024.json.gz") ||
		!errors.Is(errs[2], ErrNotRead) || errs[3] != nil || stats[3].Added != 1 {
		t.Fatalf("stats %+v, errors %v", stats, errs)
	}
	rs, _ := st.Results(ctx, store.ResultFilter{})
	if len(rs) != 1+stats[1].Added || stats[1].Added == 0 {
		t.Errorf("%d results stored; %d of the file cut short", len(rs), stats[1].Added)
	}
	if bs, _ := st.Benchmarks(ctx, store.Filter{}); len(bs) != 1 || bs[0].Asserts != 5 {
		t.Errorf("benchmarks: %+v", bs)
	}
	again, errs, err := ImportFiles(ctx, st, "", []string{good, list}, Options{})
	if err != nil || errs[0] != nil || errs[1] != nil || again[0].Added != 0 || again[0].Skipped != 1 || again[1].Added != 0 || again[1].Skipped != 1 {
		t.Errorf("again: %+v %v %v", again, errs, err)
	}
}
