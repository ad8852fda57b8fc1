package config_test

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/score"
	"github.com/smtarena/smtarena/internal/testenv"
)

func sortedTable(m map[string][]string) map[string][]string {
	out := map[string][]string{}
	for d, ls := range m {
		c := append([]string(nil), ls...)
		sort.Strings(c)
		out[d] = c
	}
	return out
}

// TestTablesMatchShared: the built-in tables of 2019, 2020 and 2022 are
// the published files the shared official data holds, track by track.
func TestTablesMatchShared(t *testing.T) {
	dir := testenv.Shared(t, "official-results")
	for _, c := range []struct {
		year int
		file string
	}{{2019, "2019/divisions.json"}, {2020, "2020/divisions.json"}, {2022, "2022/new-divisions.json"}} {
		data, err := os.ReadFile(filepath.Join(dir, c.file))
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range benchmark.Tracks {
			want, err := config.ParseDivisions(data, tr)
			if err != nil {
				want = nil // the year did not run the track
			}
			got, err := config.Table(c.year, tr)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(sortedTable(got), sortedTable(want)) && (len(got) > 0 || len(want) > 0) {
				t.Errorf("%d %s: built-in table differs from %s", c.year, tr, c.file)
			}
		}
	}
}

// TestTable2024MatchesDefs: the built-in 2024 table is the tracks table
// of the smtcomp tool's defs.py the 2024 results were computed with, as
// --defs reads it (division names are the enumeration's).
func TestTable2024MatchesDefs(t *testing.T) {
	dir := testenv.Shared(t, "official-results/2024/submissions/smtcomp")
	src, err := os.ReadFile(filepath.Join(dir, "defs.py"))
	if err != nil {
		t.Fatal(err)
	}
	defs, err := score.ParseSMTCOMPDefs(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range benchmark.Tracks {
		got, err := config.Table(2024, tr)
		if err != nil {
			t.Fatal(err)
		}
		want := defs.Divisions(tr)
		if len(want) == 0 {
			t.Errorf("%s: defs.py has no table", tr)
		}
		if !reflect.DeepEqual(sortedTable(got), sortedTable(want)) {
			t.Errorf("%s: built-in 2024 table differs from defs.py", tr)
		}
	}
}
