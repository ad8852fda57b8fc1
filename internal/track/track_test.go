package track

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/sandbox"
)

func TestJudgeSingleQuery(t *testing.T) {
	for _, tc := range []struct {
		out      string
		reason   sandbox.Reason
		expected string
		want     Verdict
	}{
		{"sat\n", sandbox.Completed, "sat", Verdict{Answer: "sat", Status: "complete"}},
		{"success\nsuccess\nunsat\n", sandbox.Completed, "unsat", Verdict{Answer: "unsat", Status: "complete"}},
		{"unsat\n", sandbox.Completed, "sat", Verdict{Answer: "unsat", Status: "complete", Wrong: true}},
		{"sat\n", sandbox.Completed, "unknown", Verdict{Answer: "sat", Status: "complete"}},
		{"(error \"x\")\n", sandbox.Completed, "sat", Verdict{Status: "abort"}},
		{"", sandbox.CPUTime, "sat", Verdict{Status: "timeout"}},
		{"unsat\n", sandbox.WallTime, "unsat", Verdict{Answer: "unsat", Status: "timeout"}},
		{"warning: x\n  sat  \nunsat\n", sandbox.Completed, "sat", Verdict{Answer: "sat", Status: "complete"}},
		{"", sandbox.Memory, "sat", Verdict{Status: "memout"}},
	} {
		if got := JudgeSingleQuery([]byte(tc.out), tc.reason, tc.expected); got != tc.want {
			t.Errorf("%q %s: %+v, want %+v", tc.out, tc.reason, got, tc.want)
		}
	}
}

func TestCommand(t *testing.T) {
	s := Solver{Command: []string{"z3", "-smt2", "{file}"}}
	if args, stdin := s.SingleQueryArgs("/b.smt2", sandbox.Protocol2022); !reflect.DeepEqual(args, []string{"z3", "-smt2", "/b.smt2"}) || stdin {
		t.Errorf("%v %v", args, stdin)
	}
	if args, _ := (Solver{Command: []string{"cvc5"}}).SingleQueryArgs("/b.smt2", sandbox.Protocol2022); !reflect.DeepEqual(args, []string{"cvc5", "/b.smt2"}) {
		t.Errorf("%v", args)
	}
	if args, stdin := s.SingleQueryArgs("/b.smt2", sandbox.Protocol2005); !reflect.DeepEqual(args, []string{"z3", "-smt2"}) || !stdin {
		t.Errorf("2005: %v %v", args, stdin)
	}
}

// TestPackage runs the argv of a StarExec-style package: its scripts run
// from bin/ with the benchmark as $1 (and nothing more), the incremental
// one with no argument.
func TestPackage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pkg with space")
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"starexec_run_default", "starexec_run_fast", "smtcomp_run_incremental"} {
		script := "#!/bin/sh\necho \"" + name + " $(pwd) $# $1\"\n"
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args []string) string {
		t.Helper()
		out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	s := Solver{Package: dir}
	args, stdin := s.SingleQueryArgs("/b 1.smt2", sandbox.Protocol2022)
	if got := run(args); stdin || got != "starexec_run_default "+bin+" 1 /b 1.smt2" {
		t.Errorf("default: %q (stdin %v)", got, stdin)
	}
	if !slices.Contains(args, dir) {
		t.Errorf("the package directory is not an argument, so the sandbox would not keep it visible: %q", args)
	}
	s.Config = "fast"
	if got := run(s.IncrementalArgv()); got != "smtcomp_run_incremental "+bin+" 0" {
		t.Errorf("incremental: %q", got)
	}
	args, stdin = s.SingleQueryArgs("/b.smt2", sandbox.Protocol2005)
	if got := run(args); !stdin || got != "starexec_run_fast "+bin+" 0" {
		t.Errorf("2005: %q (stdin %v)", got, stdin)
	}
}

func TestProofArgs(t *testing.T) {
	s := Solver{Command: []string{"z3"}, CheckerCommand: []string{"/c/check", "--in", "{file}", "--proof={output}"}}
	if got := strings.Join(s.ProofArgs("b.smt2"), " "); got != "z3 b.smt2" {
		t.Errorf("proof args: %q", got)
	}
	if got := strings.Join(s.CheckerArgs("b.smt2", "o.txt"), " "); got != "/c/check --in b.smt2 --proof=o.txt" {
		t.Errorf("checker args: %q", got)
	}
	s = Solver{Command: []string{"z3"}, ProofCommand: []string{"z3", "proof=true", "{file}"}, CheckerCommand: []string{"check"}}
	if got := strings.Join(s.ProofArgs("b.smt2"), " "); got != "z3 proof=true b.smt2" {
		t.Errorf("proof command: %q", got)
	}
	if got := strings.Join(s.CheckerArgs("b.smt2", "o.txt"), " "); got != "check b.smt2 o.txt" {
		t.Errorf("checker appended: %q", got)
	}
	p := Solver{Package: "/pkg"}
	if got := p.CheckerArgs("b.smt2", "o.txt"); got[len(got)-3] != "smtcomp_checker" || got[len(got)-1] != "o.txt" {
		t.Errorf("package checker: %q", got)
	}
	if got := p.ProofArgs("b.smt2"); got[len(got)-2] != "smtcomp_solver" {
		t.Errorf("package solver: %q", got)
	}
}
