package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildWithoutCgo: the README says a binary built with CGO_ENABLED=0
// can neither run solvers nor open an SQLite store, and says so. It must
// build, then, and say so.
func TestBuildWithoutCgo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "smtarena")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"exec", "--", "/bin/true"}, "built without cgo"},
		{[]string{"index", "--db", filepath.Join(dir, "s.db"), dir}, "requires cgo"},
	} {
		cmd := exec.Command(bin, c.args...)
		out, _ := cmd.CombinedOutput()
		if cmd.ProcessState.ExitCode() != exitBadInput || !strings.Contains(string(out), c.want) {
			t.Errorf("%v without cgo: exit %d, %q; want %d and %q", c.args, cmd.ProcessState.ExitCode(), out, exitBadInput, c.want)
		}
	}
	// What needs no C works.
	p := writeFile(t, "a.smt2", "(set-logic QF_UF)  (check-sat)")
	if out, err := exec.Command(bin, "fmt", p).Output(); err != nil || string(out) != "(set-logic QF_UF)\n(check-sat)\n" {
		t.Errorf("fmt without cgo: %v %q", err, out)
	}
}
