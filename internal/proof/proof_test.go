package proof

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/sandbox"
	"github.com/smtarena/smtarena/internal/testenv"
)

// TestReadChecker: the official post-processor's reading, on its own test
// outputs (SMT-COMP/postprocessors proof-track/test, timing prefixes
// removed) and a few more.
func TestReadChecker(t *testing.T) {
	cases := []struct {
		out     string
		verdict string
		line    string
		stats   []Stat
	}{
		{"; run solver\n; checking proof\nvalid\nsteps=1024993\nholes=0\nparsetime=0.4s\narithsteps=304\n; done\n", Valid, "valid",
			[]Stat{{"steps", "1024993"}, {"holes", "0"}, {"parsetime", "0.4s"}, {"arithsteps", "304"}}},
		{"\n  holey  \nsteps=12\nnot a stat\nkey=with space\nrule-count=3\n", Holey, "holey", []Stat{{"steps", "12"}, {"rule-count", "3"}}},
		{"invalid\n", Invalid, "invalid", nil},
		{"sat\n", Sat, "sat", nil},
		{"unknown\n", Unknown, "unknown", nil},
		{"steps=3\nvalid\n", "", "steps=3", nil}, // the first line is the verdict
		{"Valid!\n", "", "Valid!", nil},
		{"; only comments\n\n", "", "", nil},
		{"", "", "", nil},
	}
	for _, c := range cases {
		got := ReadChecker([]byte(c.out))
		if got.Verdict != c.verdict || got.Line != c.line || !reflect.DeepEqual(got.Stats, c.stats) {
			t.Errorf("%q: got %+v, want verdict %q line %q stats %v", c.out, got, c.verdict, c.line, c.stats)
		}
	}
}

func TestJudge(t *testing.T) {
	cases := []struct {
		verdict, limit string
		probe          bool
		want           Outcome
	}{
		{Valid, "", false, Outcome{Answer: "unsat", Reason: "valid"}},
		{Holey, "", false, Outcome{Answer: "unsat", Reason: "holey"}},
		{Sat, "", false, Outcome{Answer: "sat", Erroneous: true}},
		{Invalid, "", false, Outcome{Answer: "unknown", Reason: "invalid", Erroneous: true}},
		{Unknown, "", false, Outcome{Answer: "unknown", Reason: "unknown"}},
		{"", "", false, Outcome{Answer: "unknown", Reason: "error"}},
		{"", "timeout", false, Outcome{Answer: "unknown", Reason: "timeout"}},
		{"", "memout", false, Outcome{Answer: "unknown", Reason: "memout"}},
		// The soundness probe: the benchmark is satisfiable.
		{Valid, "", true, Outcome{Answer: "unsat", Reason: "valid", Unsound: true}},
		{Holey, "", true, Outcome{Answer: "unsat", Reason: "holey"}},
		{Sat, "", true, Outcome{Answer: "sat"}},
		{Invalid, "", true, Outcome{Answer: "unknown", Reason: "invalid"}},
	}
	for _, c := range cases {
		if got := Judge(Check{Verdict: c.verdict}, c.limit, c.probe); got != c.want {
			t.Errorf("%q %q probe=%v: %+v, want %+v", c.verdict, c.limit, c.probe, got, c.want)
		}
	}
}

func TestKeep(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.out")
	os.WriteFile(small, []byte("unsat\n(proof)\n"), 0o644)
	k, err := Keep(small, 100)
	if err != nil || k.Compressed || k.Path != small || k.Bytes != 14 || k.Stored != 14 {
		t.Errorf("small: %+v %v", k, err)
	}
	big := filepath.Join(dir, "big.out")
	data := []byte("unsat\n(" + strings.Repeat("(step x y) ", 10000) + ")\n")
	os.WriteFile(big, data, 0o644)
	k, err = Keep(big, 100)
	if err != nil || !k.Compressed || k.Path != big+".gz" || k.Bytes != int64(len(data)) || k.Stored >= k.Bytes/10 {
		t.Fatalf("big: %+v %v", k, err)
	}
	if _, err := os.Stat(big); !os.IsNotExist(err) {
		t.Errorf("the uncompressed output is left: %v", err)
	}
	r, err := Open(k)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	back, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(back, data) {
		t.Errorf("read back %d bytes, %v", len(back), err)
	}
}

// TestRun runs real processes in the sandbox: a solver and a checker that
// reads the solver's output; a solver that uses up the time limit, so
// that the checker does not run; and a checker that gets only what the
// solver left of the wall-clock limit.
func TestRun(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.Skipf(t, "the sandbox needs root")
	}
	dir := t.TempDir()
	bench := filepath.Join(dir, "b.smt2")
	os.WriteFile(bench, []byte("(set-logic QF_UF)\n(assert false)\n(check-sat)\n(get-proof)\n"), 0o644)
	checker := func(script string) func(string) []string {
		return func(out string) []string { return []string{"sh", "-c", script, "checker", bench, out} }
	}
	// The checker reports the first line of the output and its size; the
	// solver writes to stderr too, which is dropped.
	report := `echo valid; echo "first=$(head -n 1 "$2")"; echo "bytes=$(wc -c < "$2")"; echo ignored >&2`
	cases := []struct {
		name                    string
		solver                  string
		checker                 string
		limits                  sandbox.Limits
		status, limit, verdict  string
		checkerRan, compressed  bool
		stats                   []Stat
		minCheckerWall, maxWall time.Duration
	}{
		{name: "valid", solver: `echo unsat; echo noise >&2; echo "(proof x)"`, checker: report,
			limits: sandbox.Limits{Wall: 20 * time.Second}, status: "complete", verdict: Valid, checkerRan: true,
			stats: []Stat{{"first", "unsat"}, {"bytes", "16"}}},
		{name: "large proof", solver: `echo unsat; i=0; while [ $i -lt 20000 ]; do echo "(step $i)"; i=$((i+1)); done`,
			checker: `echo holey; echo steps=$(grep -c step "$2")`, limits: sandbox.Limits{Wall: 20 * time.Second},
			status: "complete", verdict: Holey, checkerRan: true, compressed: true, stats: []Stat{{"steps", "20000"}}},
		{name: "solver at the limit", solver: `echo unsat; sleep 30`, checker: report,
			limits: sandbox.Limits{Wall: 1 * time.Second}, status: "timeout", limit: "timeout", maxWall: 5 * time.Second},
		{name: "checker gets the rest", solver: `sleep 1; echo unsat`, checker: `sleep 30; echo valid`,
			limits: sandbox.Limits{Wall: 3 * time.Second}, status: "timeout", limit: "timeout", checkerRan: true, maxWall: 6 * time.Second},
		{name: "no verdict", solver: `echo unsat`, checker: `echo looks fine to me`,
			limits: sandbox.Limits{Wall: 20 * time.Second}, status: "abort", checkerRan: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".out")
			res, err := Run(context.Background(), Pair{Solver: []string{"sh", "-c", c.solver, "solver", bench},
				Checker: checker(c.checker), Limits: c.limits, Output: out, CompressAbove: 4096})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != c.status || res.Limit != c.limit || res.Check.Verdict != c.verdict || (res.Checker != nil) != c.checkerRan ||
				res.Kept.Compressed != c.compressed || !reflect.DeepEqual(res.Check.Stats, c.stats) {
				t.Errorf("got status %q limit %q check %+v checker ran %v kept %+v\nchecker said %q",
					res.Status, res.Limit, res.Check, res.Checker != nil, res.Kept, res.CheckerOutput)
			}
			if c.maxWall > 0 && res.Wall > c.maxWall {
				t.Errorf("pair took %s, limit %s", res.Wall, c.limits.Wall)
			}
			if res.Checker != nil && res.CPU < res.Solver.CPU+res.Checker.CPU {
				t.Errorf("CPU %s is not the sum of the solver's and the checker's", res.CPU)
			}
		})
	}
}
