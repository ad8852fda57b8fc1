package compete

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/config"
)

// loadDef writes a competition with the given rules and [[solvers]] and
// loads it.
func loadDef(t *testing.T, rules int, solvers string) *config.Competition {
	t.Helper()
	path := filepath.Join(t.TempDir(), "c.toml")
	src := fmt.Sprintf("name = \"c\"\nrules = %d\n[seed]\nvalue = 1\n[tracks.single-query]\ncpu_limit = 1\n%s", rules, solvers)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	def, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return def
}

func solverTOML(name, team string, competitive bool, logics ...string) string {
	return fmt.Sprintf("[[solvers]]\nname = %q\nteam = %q\ncompetitive = %v\ntracks = [\"single-query\", \"proof\"]\nlogics = [\"%s\"]\ncommand = [\"true\"]\n",
		name, team, competitive, strings.Join(logics, `", "`))
}

// TestRunLogics: 2022 runs a division only with competitive solvers of two
// teams, and only its logics that two teams enter; 2018 and 2014 run
// everything, 2018 counting teams and 2014 solvers for competitiveness.
func TestRunLogics(t *testing.T) {
	divisions := map[string][]string{"Arith": {"QF_LIA", "QF_LRA"}, "Equality": {"QF_UF"}, "BV": {"QF_BV"}}
	solvers := solverTOML("a1", "A", true, "QF_LIA", "QF_LRA", "QF_UF") +
		solverTOML("a2", "A", true, "QF_UF", "QF_BV") + // same team as a1
		solverTOML("b", "B", true, "QF_LIA") +
		solverTOML("org", "Organisers", false, ".*") + // does not count
		solverTOML("c", "", true, "QF_BV") // no team: a team of its own
	cases := []struct {
		rules       int
		track       benchmark.Track
		run         []string
		competitive map[string]bool
	}{
		// Arith: A and B, but QF_LRA only A. Equality: only team A. BV:
		// A and c.
		{2022, benchmark.SingleQuery, []string{"QF_BV", "QF_LIA"}, map[string]bool{"Arith": true, "Equality": false, "BV": true}},
		{2018, benchmark.SingleQuery, []string{"QF_BV", "QF_LIA", "QF_LRA", "QF_UF"}, map[string]bool{"Arith": true, "Equality": false, "BV": true}},
		// 2014 counts solvers: a1 and a2 make Equality competitive.
		{2014, benchmark.SingleQuery, []string{"QF_BV", "QF_LIA", "QF_LRA", "QF_UF"}, map[string]bool{"Arith": true, "Equality": true, "BV": true}},
		// The proof exhibition runs everything, with no winner.
		{2022, benchmark.Proof, []string{"QF_BV", "QF_LIA", "QF_LRA", "QF_UF"}, map[string]bool{"Arith": false, "Equality": false, "BV": false}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%d-%s", c.rules, c.track), func(t *testing.T) {
			def := loadDef(t, c.rules, solvers)
			run, skipped := runLogics(def, c.track, divisions)
			var got []string
			for l, ok := range run {
				if ok {
					got = append(got, l)
				}
			}
			sort.Strings(got)
			if !reflect.DeepEqual(got, c.run) {
				t.Errorf("run %v, want %v (skipped %v)", got, c.run, skipped)
			}
			for d, want := range c.competitive {
				if got := Competitive(def, c.track, divisions[d]); got != want {
					t.Errorf("%s competitive = %v, want %v", d, got, want)
				}
			}
		})
	}
}
