package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestValidateModelCLI: the command's contract: the first line is the
// verdict, --json one object, "-" reads standard input, exit 0 whenever a
// verdict is reached and 2 for bad usage or an unreadable benchmark.
func TestValidateModelCLI(t *testing.T) {
	bench := writeFile(t, "b.smt2", "(set-logic QF_LIA)\n(declare-fun x () Int)\n(declare-fun y () Int)\n(assert (> x (+ y 1)))\n(check-sat)\n")
	good := writeFile(t, "good.out", "sat\n((define-fun x () Int 3) (define-fun y () Int 1))\n")
	bad := writeFile(t, "bad.out", "sat\n((define-fun x () Int 2) (define-fun y () Int 1))\n")

	code, out, errOut := runCLI(t, "", "validate-model", bench, good)
	if code != exitOK || firstLine(out) != "VALID" {
		t.Errorf("good model: exit %d, %q %s", code, out, errOut)
	}
	code, out, _ = runCLI(t, "", "validate-model", "--explain", bench, bad)
	if code != exitOK || firstLine(out) != "INVALID bad-model" || !strings.Contains(out, "b.smt2:4:") {
		t.Errorf("bad model: exit %d, %q", code, out)
	}
	code, out, _ = runCLI(t, "sat\n((define-fun x () Int 3))\n", "validate-model", bench, "-")
	if code != exitOK || firstLine(out) != "UNKNOWN missing-definition" {
		t.Errorf("stdin, y missing: exit %d, %q", code, out)
	}
	code, out, _ = runCLI(t, "", "validate-model", "--json", "--memory", "64", bench, bad)
	var res struct{ Verdict, Reason, Position string }
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != exitOK || res.Verdict != "INVALID" || res.Reason != "bad-model" {
		t.Errorf("--json: exit %d, %q (%v)", code, out, err)
	}
	for _, args := range [][]string{
		{"validate-model", bench + ".missing", good},
		{"validate-model", bench},
		{"validate-model", "--full-model", "--needed-only", bench, good},
	} {
		if code, _, errOut := runCLI(t, "", args...); code != exitBadInput || errOut == "" {
			t.Errorf("%v: exit %d, %q; want 2 and a message", args, code, errOut)
		}
	}
}

// TestValidateModelProcess: the same as a process of its own, with the
// binary's own main (no signal handlers for validate-model).
func TestValidateModelProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := t.TempDir() + "/smtarena"
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	bench := writeFile(t, "b.smt2", "(set-logic QF_BV)\n(declare-fun a () (_ BitVec 8))\n(assert (= (bvadd a #x01) #x00))\n(check-sat)\n")
	resp := writeFile(t, "r.out", "sat\n((define-fun a () (_ BitVec 8) #xff))\n")
	out, err := exec.Command(bin, "validate-model", bench, resp).Output()
	if err != nil || firstLine(string(out)) != "VALID" {
		t.Errorf("validate-model: %v, %q", err, out)
	}
	cmd := exec.Command(bin, "validate-model", bench, bench+".missing")
	out, _ = cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != exitBadInput || !strings.Contains(string(out), "missing") {
		t.Errorf("missing response: exit %d, %q", cmd.ProcessState.ExitCode(), out)
	}
	os.Remove(bin)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
