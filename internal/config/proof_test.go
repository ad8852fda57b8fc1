package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProofSettings: the proof track's checker, its probe, the output
// limit and the lint setting are checked, and a checker given by a
// relative path is relative to the competition file.
func TestProofSettings(t *testing.T) {
	proof := strings.Replace(good, `tracks = ["single-query"]`, `tracks = ["single-query", "proof"]`, 1) + "[tracks.proof]\nwall_limit = \"20m\"\nprobe = 3\n"
	for src, want := range map[string]string{
		proof: "solver z3: enters the proof track: give checker_command",
		strings.Replace(good, "wall_limit = 30", "wall_limit = 30\nprobe = 2", 1):      "[tracks.single-query]: probe is a setting of the proof track",
		strings.Replace(good, "wall_limit = 30", "wall_limit = 30\noutput_mb = -1", 1): "must not be negative",
		"lint = \"maybe\"\n" + good: `lint = "maybe": want "exclude" or "warn"`,
	} {
		if _, err := load(t, src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want %q, got %v", want, err)
		}
	}
	withChecker := strings.Replace(proof, `command = ["z3", "{file}"]`, `command = ["z3", "{file}"]`+"\n"+`checker_command = ["bin/check", "{file}", "{output}"]`, 1)
	c, err := load(t, withChecker)
	if err != nil {
		t.Fatal(err)
	}
	s := c.Solvers[0]
	if s.CheckerCommand[0] != filepath.Join(c.Dir(), "bin", "check") || c.Tracks["proof"].Probe != 3 || c.Lint != LintExclude {
		t.Errorf("checker %v, probe %d, lint %q", s.CheckerCommand, c.Tracks["proof"].Probe, c.Lint)
	}
	// A package needs bin/smtcomp_solver and bin/smtcomp_checker.
	dir := t.TempDir()
	bin := filepath.Join(dir, "pkg", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"starexec_run_default", "smtcomp_solver"} {
		os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"), 0o755)
	}
	p := filepath.Join(dir, "c.toml")
	os.WriteFile(p, []byte(strings.Replace(proof, `command = ["z3", "{file}"]`, `package = "pkg"`, 1)), 0o644)
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "smtcomp_checker") {
		t.Errorf("package without smtcomp_checker: %v", err)
	}
	os.WriteFile(filepath.Join(bin, "smtcomp_checker"), []byte("#!/bin/sh\n"), 0o755)
	if _, err := Load(p); err != nil {
		t.Errorf("complete package: %v", err)
	}
}
