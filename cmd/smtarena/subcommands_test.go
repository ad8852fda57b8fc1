package main

import (
	"os"
	"strings"
	"testing"
)

// TestSubcommandNames: the table's names are the commands' own, so that a
// command line naming one builds exactly it.
func TestSubcommandNames(t *testing.T) {
	io := streams{strings.NewReader(""), &strings.Builder{}, &strings.Builder{}}
	seen := map[string]bool{}
	for _, sc := range subcommands {
		if got := sc.make(io).Name(); got != sc.name {
			t.Errorf("subcommands lists %q for the command named %q", sc.name, got)
		}
		if seen[sc.name] {
			t.Errorf("%q is listed twice", sc.name)
		}
		seen[sc.name] = true
	}
	if n := len(newRootCmd(io).Commands()); n != len(subcommands) {
		t.Errorf("root has %d commands, the table %d", n, len(subcommands))
	}
}

// TestHelpListsEverything: help, a typo and no command at all still see
// every subcommand.
func TestHelpListsEverything(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}, {}} {
		code, out, errOut := runCLI(t, "", args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		for _, sc := range subcommands {
			if !strings.Contains(out, "  "+sc.name+" ") {
				t.Errorf("%v: %q not listed:\n%s", args, sc.name, out)
			}
		}
	}
	code, _, errOut := runCLI(t, "", "validate-mdoel")
	if code != exitBadInput || !strings.Contains(errOut, "validate-model") {
		t.Errorf("a typo: exit %d, %q; want a suggestion of validate-model", code, errOut)
	}
	code, out, _ := runCLI(t, "", "validate-model", "--help")
	if code != exitOK || !strings.Contains(out, "--needed-only") {
		t.Errorf("validate-model --help: exit %d:\n%s", code, out)
	}
}

// TestPanicReported: a panic in a command becomes one line and exit 3, its
// stack in a file.
func TestPanicReported(t *testing.T) {
	var errb strings.Builder
	code := reportPanic("boom", []byte("goroutine 1 [running]:\nmain.f()"), &errb)
	if code != exitInternal || !strings.HasPrefix(errb.String(), "smtarena: internal error: boom; this is a bug") {
		t.Fatalf("exit %d, %q", code, errb.String())
	}
	_, file, ok := strings.Cut(strings.TrimSpace(errb.String()), "stack in ")
	if !ok {
		t.Fatalf("no stack file named: %q", errb.String())
	}
	file = strings.TrimSuffix(file, ")")
	data, err := os.ReadFile(file)
	os.Remove(file)
	if err != nil || !strings.Contains(string(data), "main.f()") {
		t.Errorf("stack file %s: %v %q", file, err, data)
	}
}
