package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/testenv"
	"github.com/spf13/cobra"
)

// TestReadmeCommands: README.md documents every subcommand, documents none
// that does not exist, and every --flag its headings and example command
// lines give is a flag of that command (a renamed flag shows here, not in
// a newcomer's terminal).
func TestReadmeCommands(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(testenv.Root(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(src)
	io := streams{strings.NewReader(""), &strings.Builder{}, &strings.Builder{}}
	root := newRootCmd(io)
	for _, sc := range subcommands {
		if !strings.Contains(readme, "`smtarena "+sc.name) {
			t.Errorf("README.md does not document smtarena %s", sc.name)
		}
	}
	heading := regexp.MustCompile("(?m)^### `smtarena ([^`]*)`")
	for _, m := range heading.FindAllStringSubmatch(readme, -1) {
		checkFlags(t, root, "heading", m[1])
	}
	// Example command lines: indented code, also after a "$ " prompt,
	// with their continuation lines.
	var lines []string
	cont := false
	for _, l := range strings.Split(readme, "\n") {
		if cont {
			lines[len(lines)-1] = strings.TrimSuffix(lines[len(lines)-1], "\\") + " " + strings.TrimSpace(l)
		} else if s, ok := strings.CutPrefix(l, "    "); ok {
			s = strings.TrimPrefix(strings.TrimSpace(s), "$ ")
			if rest, ok := strings.CutPrefix(s, "smtarena "); ok {
				lines = append(lines, rest)
			} else {
				continue
			}
		} else {
			continue
		}
		cont = strings.HasSuffix(strings.TrimSpace(l), "\\")
	}
	if len(lines) < 40 {
		t.Fatalf("found only %d example command lines in README.md", len(lines))
	}
	for _, l := range lines {
		checkFlags(t, root, "example", l)
	}
	// The commands' own --help examples likewise.
	for _, c := range root.Commands() {
		for _, l := range strings.Split(strings.ReplaceAll(c.Example, "\\\n", " "), "\n") {
			if _, rest, ok := strings.Cut(l, "smtarena "); ok {
				checkFlags(t, root, "--help example of "+c.Name(), rest)
			}
		}
	}
}

// checkFlags finds the command a README line names and checks that each
// --flag before a "--" (after which a solver's own arguments come) is one
// of its flags.
func checkFlags(t *testing.T, root *cobra.Command, what, line string) {
	t.Helper()
	if i := strings.Index(line, " #"); i >= 0 {
		line = line[:i]
	}
	words := strings.Fields(line)
	if len(words) == 0 {
		return
	}
	cmd, _, err := root.Find(words[:1])
	if err != nil || cmd == root {
		t.Errorf("README %s %q: no command %q", what, line, words[0])
		return
	}
	for _, w := range words[1:] {
		if sub, _, err := cmd.Find([]string{w}); err == nil && sub != cmd {
			cmd = sub // generate qf_lia
			continue
		}
		if w == "--" {
			return
		}
		for _, alt := range strings.Split(strings.Trim(w, "[]."), "|") {
			name, ok := strings.CutPrefix(alt, "--")
			if !ok || name == "" {
				continue
			}
			name, _, _ = strings.Cut(name, "=")
			name = strings.TrimRight(name, "].,")
			if cmd.Flags().Lookup(name) == nil && name != "help" {
				t.Errorf("README %s %q: smtarena %s has no flag --%s", what, line, cmd.Name(), name)
			}
		}
	}
}
