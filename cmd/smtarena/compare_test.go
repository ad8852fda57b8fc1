package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
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
	// two versions of a solver: z3 here against cvc5 there (all solved)
	out2 := filepath.Join(dir, "site2")
	if code, stdout, errs := runCLI(t, "", "report", "--db", a, "--rules", "2022", "--out", out2, "--compare", b, "--compare-as", "z3=cvc5", "--compare-as", "cvc5=z3"); code != 0 {
		t.Fatalf("report --compare-as: %d\n%s\n%s", code, stdout, errs)
	}
	if page, _ := os.ReadFile(filepath.Join(out2, "compare.html")); !strings.Contains(string(page), "z3 here with cvc5 there") || !strings.Contains(string(page), "20 pairs in both runs; 6 differ") {
		t.Errorf("compare.html with --compare-as:\n%s", page)
	}
	if code, _, errs := runCLI(t, "", "report", "--db", a, "--rules", "2022", "--out", out2, "--compare", b, "--compare-as", "z3"); code != 2 || !strings.Contains(errs, "NAME=OTHER") {
		t.Errorf("a bad --compare-as: %d %s", code, errs)
	}
	if code, _, errs := runCLI(t, "", "report", "--db", a, "--rules", "2022", "--out", out, "--compare", filepath.Join(dir, "none.db"), "--compare-competition", "x"); code != 2 || !strings.Contains(errs, "--compare") {
		t.Errorf("a store without results to compare: %d %s", code, errs)
	}
}

// TestReportServePostgres publishes and serves results kept in PostgreSQL.
func TestReportServePostgres(t *testing.T) {
	dsn := testenv.Postgres(t)
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	var rs []store.Result
	for i := 0; i < 6; i++ {
		exp := []string{"sat", "unsat"}[i%2]
		for _, s := range []string{"z3", "cvc5"} {
			rs = append(rs, store.Result{Competition: "pg", Year: 2022, Track: "single-query", Solver: s, BenchmarkPath: fmt.Sprintf("non-incremental/QF_LIA/b%d.smt2", i),
				Status: "complete", Answer: exp, Expected: exp, CPU: 1, Wall: 1, Extra: "{}", SourceKey: fmt.Sprintf("pg:%s:%d", s, i)})
		}
	}
	if _, err := st.AddResults(context.Background(), rs); err != nil {
		t.Fatal(err)
	}
	st.Close()
	out := filepath.Join(t.TempDir(), "site")
	if code, stdout, errs := runCLI(t, "", "report", "--db", dsn, "--rules", "2022", "--out", out); code != 0 {
		t.Fatalf("report: %d\n%s\n%s", code, stdout, errs)
	}
	page, err := os.ReadFile(filepath.Join(out, "t", "single-query", "QF_LinearIntArith.html"))
	if err != nil || !strings.Contains(string(page), "Winner: ") {
		t.Fatalf("division page: %v", err)
	}
	ctx, stop := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, ServeOptions{Score: ScoreOptions{DB: dsn, Rules: 2022}, Addr: "127.0.0.1:0"}, streams{strings.NewReader(""), io.Discard, io.Discard},
			func(a net.Addr) { addrc <- a })
	}()
	var a net.Addr
	select {
	case a = <-addrc:
	case err := <-done:
		t.Fatalf("serve: %v", err)
	}
	resp, err := http.Get("http://" + a.String() + "/t/single-query/QF_LinearIntArith.html")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET: %v %v", err, resp)
	}
	resp.Body.Close()
	stop()
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
}
