package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/store"
)

// TestReportCompare publishes a run compared with another: answers that
// changed, benchmarks solved by one run only, and the time scatter.
func TestReportCompare(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, answer func(i int) (string, string)) string {
		db := filepath.Join(dir, name+".db")
		st, err := store.Open(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		var rs []store.Result
		for i := 0; i < 10; i++ {
			exp := []string{"sat", "unsat"}[i%2]
			status, ans := answer(i)
			for _, s := range []string{"z3", "cvc5"} {
				rs = append(rs, store.Result{Competition: name, Year: 2022, Track: "single-query", Solver: s, BenchmarkPath: fmt.Sprintf("non-incremental/QF_UF/b%d.smt2", i),
					Status: status, Answer: ans, Expected: exp, CPU: 1, Wall: 1.5, Extra: "{}", SourceKey: fmt.Sprintf("%s:%s:%d", name, s, i)})
				if ans == "" {
					rs[len(rs)-1].Answer = exp
				}
			}
		}
		if _, err := st.AddResults(context.Background(), rs); err != nil {
			t.Fatal(err)
		}
		return db
	}
	// the new run: benchmark 0 answered wrongly, 1 and 2 time out
	a := write("new", func(i int) (string, string) {
		switch i {
		case 0:
			return "complete", "unsat"
		case 1, 2:
			return "timeout", "unknown"
		}
		return "complete", ""
	})
	b := write("old", func(i int) (string, string) { return "complete", "" })
	out := filepath.Join(dir, "site")
	code, stdout, errs := runCLI(t, "", "report", "--db", a, "--rules", "2022", "--out", out, "--compare", b)
	if code != 0 {
		t.Fatalf("report: %d\n%s\n%s", code, stdout, errs)
	}
	page, err := os.ReadFile(filepath.Join(out, "compare.html"))
	if err != nil {
		t.Fatal(err)
	}
	p := string(page)
	for _, want := range []string{"20 pairs in both runs; 6 differ", "14 solved by both", "answer changed", "solved there only"} {
		if !strings.Contains(p, want) {
			t.Errorf("compare.html lacks %q", want)
		}
	}
	if n := strings.Count(p, "<td>answer changed</td>"); n != 2 {
		t.Errorf("%d answers changed, want 2 (benchmark 0, both solvers)", n)
	}
	svg, err := os.ReadFile(filepath.Join(out, "compare", "single-query.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(svg), "<circle "); n != 14 {
		t.Errorf("time scatter: %d marks, want 14", n)
	}
	if code, _, errs := runCLI(t, "", "report", "--db", a, "--rules", "2022", "--out", out, "--compare", filepath.Join(dir, "none.db"), "--compare-competition", "x"); code != 2 || !strings.Contains(errs, "--compare") {
		t.Errorf("a store without results to compare: %d %s", code, errs)
	}
}
