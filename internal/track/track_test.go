package track

import (
	"reflect"
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
	if args, _ := (Solver{Package: "/p", Config: "fast"}).SingleQueryArgs("/b", sandbox.Protocol2022); !reflect.DeepEqual(args, []string{"/p/bin/starexec_run_fast", "/b"}) {
		t.Errorf("package: %v", args)
	}
}
