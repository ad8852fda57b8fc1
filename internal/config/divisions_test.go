package config

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// The tracks each year's table has (the tracks that year ran).
var tableTracks = map[int][]benchmark.Track{
	2019: {benchmark.SingleQuery, benchmark.Incremental, benchmark.UnsatCore, benchmark.ModelValidation},
	2020: {benchmark.SingleQuery, benchmark.Incremental, benchmark.UnsatCore, benchmark.ModelValidation},
	2021: {benchmark.SingleQuery, benchmark.Incremental, benchmark.UnsatCore, benchmark.ModelValidation, benchmark.Cloud, benchmark.Parallel},
	2022: benchmark.Tracks,
	2023: benchmark.Tracks,
	2024: benchmark.Tracks,
	2025: benchmark.Tracks,
}

var logicName = regexp.MustCompile(`^(QF_)?[A-Z]+$`)

// TestDivisionTablesEmbedded checks every embedded table: it parses, has
// the tracks of its year and no other, no empty division, no logic in two
// divisions of a track, and logic names that are SMT-LIB logic names.
func TestDivisionTablesEmbedded(t *testing.T) {
	all, err := loadTables()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != LastTableYear-FirstTableYear+1 {
		t.Fatalf("%d tables, want one a year from %d to %d", len(all), FirstTableYear, LastTableYear)
	}
	for y := FirstTableYear; y <= LastTableYear; y++ {
		want := map[string]bool{}
		for _, tr := range tableTracks[y] {
			want[trackKey(tr)] = true
		}
		if len(want) == 0 {
			t.Errorf("%d: no tracks listed in the test", y)
		}
		for key := range all[y] {
			if !want[key] {
				t.Errorf("%d: unexpected track %s", y, key)
			}
		}
		for key := range want {
			divs, ok := all[y][key]
			if !ok {
				t.Errorf("%d: no %s", y, key)
				continue
			}
			in := map[string]string{}
			for d, ls := range divs {
				if len(ls) == 0 {
					t.Errorf("%d %s: division %s has no logic", y, key, d)
				}
				for _, l := range ls {
					if !logicName.MatchString(l) {
						t.Errorf("%d %s: division %s: %q is not a logic name", y, key, d, l)
					}
					if other, ok := in[l]; ok {
						t.Errorf("%d %s: %s is in %s and %s", y, key, l, other, d)
					}
					in[l] = d
				}
			}
		}
	}
}

// TestDivisionCounts checks the number of divisions per track, as the
// published tables and result pages give them.
func TestDivisionCounts(t *testing.T) {
	want := map[int]map[benchmark.Track]int{
		2019: {benchmark.SingleQuery: 55, benchmark.Incremental: 20, benchmark.UnsatCore: 55, benchmark.ModelValidation: 1},
		2020: {benchmark.SingleQuery: 70, benchmark.Incremental: 33, benchmark.UnsatCore: 70, benchmark.ModelValidation: 6},
		2021: {benchmark.SingleQuery: 18, benchmark.Incremental: 17, benchmark.UnsatCore: 18, benchmark.ModelValidation: 6, benchmark.Cloud: 18, benchmark.Parallel: 18},
		2022: {benchmark.SingleQuery: 19, benchmark.Incremental: 17, benchmark.UnsatCore: 19, benchmark.ModelValidation: 7, benchmark.Proof: 19, benchmark.Cloud: 19, benchmark.Parallel: 19},
		2023: {benchmark.SingleQuery: 19, benchmark.Incremental: 17, benchmark.UnsatCore: 19, benchmark.ModelValidation: 13, benchmark.Proof: 19, benchmark.Cloud: 19, benchmark.Parallel: 19},
		2024: {benchmark.SingleQuery: 19, benchmark.Incremental: 17, benchmark.UnsatCore: 19, benchmark.ModelValidation: 13, benchmark.Proof: 19, benchmark.Cloud: 19, benchmark.Parallel: 19},
		2025: {benchmark.SingleQuery: 19, benchmark.Incremental: 17, benchmark.UnsatCore: 19, benchmark.ModelValidation: 13, benchmark.Parallel: 19},
	}
	for y, tracks := range want {
		for tr, n := range tracks {
			tab, err := Table(y, tr)
			if err != nil {
				t.Fatal(err)
			}
			if len(tab) != n {
				t.Errorf("%d %s: %d divisions, want %d", y, tr, len(tab), n)
			}
		}
	}
}

// TestOneLogicPerDivision: in 2019 and 2020 every division is one logic,
// named by it (the 2021 tables are the first to group logics).
func TestOneLogicPerDivision(t *testing.T) {
	for _, y := range []int{2019, 2020} {
		for _, tr := range tableTracks[y] {
			tab, err := Table(y, tr)
			if err != nil {
				t.Fatal(err)
			}
			for d, ls := range tab {
				if len(ls) != 1 || ls[0] != d {
					t.Errorf("%d %s: division %s = %v", y, tr, d, ls)
				}
			}
		}
	}
	tab, err := Table(2021, benchmark.SingleQuery)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab["Arith"]) != 4 {
		t.Errorf("2021 Arith = %v, want LIA, LRA, NIA, NRA", tab["Arith"])
	}
}

// TestDivisionFacts: which division a logic is in, per year and track, as
// the published tables (and, where named, the result pages) say.
func TestDivisionFacts(t *testing.T) {
	cases := []struct {
		year     int
		track    benchmark.Track
		logic    string
		division string
	}{
		{2019, benchmark.SingleQuery, "QF_BV", "QF_BV"},
		{2019, benchmark.ModelValidation, "QF_BV", "QF_BV"},
		{2020, benchmark.ModelValidation, "QF_LIRA", "QF_LIRA"},
		{2020, benchmark.Incremental, "QF_UFBVLIA", "QF_UFBVLIA"},
		// 2021: datatypes still in QF_Equality (QF_Equality-single-query.md
		// of 2021 lists QF_DT and QF_UFDT).
		{2021, benchmark.SingleQuery, "QF_DT", "QF_Equality"},
		{2021, benchmark.SingleQuery, "UFFPDTLIRA", "Equality+MachineArith"},
		{2021, benchmark.ModelValidation, "QF_UFLIA", "QF_Equality+LinearArith"},
		{2021, benchmark.Incremental, "QF_UFBVLIA", "QF_Equality+Bitvec+Arith"},
		{2021, benchmark.Cloud, "QF_SNIA", "QF_Strings"},
		// 2022: QF_Datatypes split from QF_Equality.
		{2022, benchmark.SingleQuery, "QF_DT", "QF_Datatypes"},
		{2022, benchmark.Proof, "UFDT", "Equality"},
		{2022, benchmark.Parallel, "QF_UFDTLIRA", "QF_Equality+LinearArith"},
		// 2023: the model-validation divisions of the final table
		// (QF_ADT+BitVec-model-validation.md, 2023-07-06).
		{2023, benchmark.ModelValidation, "QF_ABV", "QF_ADT+BitVec"},
		{2023, benchmark.ModelValidation, "QF_AX", "QF_ADT+LinArith"},
		{2023, benchmark.SingleQuery, "QF_UFBVDT", "QF_Equality+Bitvec"},
		{2023, benchmark.Incremental, "ABVFPLRA", "Equality+MachineArith"},
		// 2024: the smtcomp tool's names; UFNIRA and QF_BVLRA are new.
		{2024, benchmark.SingleQuery, "UFNIRA", "Equality_NonLinearArith"},
		{2024, benchmark.SingleQuery, "AUFBVDTNIRA", "Equality_MachineArith"},
		// 2025: five more Equality+MachineArith logics.
		{2025, benchmark.SingleQuery, "AUFBVFPDTNIRA", "Equality_MachineArith"},
		{2025, benchmark.UnsatCore, "UFBVDTLIA", "Equality_MachineArith"},
		{2025, benchmark.Parallel, "UFBVFPDTNIRA", "Equality_MachineArith"},
		{2025, benchmark.Incremental, "QF_BVLRA", "QF_Equality_Bitvec_Arith"},
		{2024, benchmark.Incremental, "QF_BVLRA", "QF_Equality_Bitvec_Arith"},
		{2024, benchmark.ModelValidation, "QF_AX", "QF_ADT_LinArith"},
		{2024, benchmark.Cloud, "QF_LIA", "QF_LinearIntArith"},
	}
	for _, c := range cases {
		divs, unlisted, err := Divisions(c.year, c.track, []string{c.logic})
		if err != nil {
			t.Fatal(err)
		}
		if len(unlisted) != 0 || len(divs) != 1 || strings.Join(divs[c.division], ",") != c.logic {
			t.Errorf("%d %s %s: divisions %v, unlisted %v; want %s", c.year, c.track, c.logic, divs, unlisted, c.division)
		}
	}
}

// TestDivisionsUnlisted: logics outside the year's table (or a track the
// year did not run) are divisions of their own and are returned; before
// 2019 every logic is a division and nothing is unlisted; after the last
// table, the last table is used and TableYear says so.
func TestDivisionsUnlisted(t *testing.T) {
	cases := []struct {
		year     int
		track    benchmark.Track
		logics   []string
		want     string // division=logics;... sorted
		unlisted string
	}{
		{2022, benchmark.SingleQuery, []string{"QF_IDL", "QF_LIA", "QF_UF", "QF_AX", "FOO"}, "FOO=FOO;QF_Equality=QF_AX,QF_UF;QF_LinearIntArith=QF_IDL,QF_LIA", "FOO"},
		{2019, benchmark.Incremental, []string{"QF_BV", "QF_UF"}, "QF_BV=QF_BV;QF_UF=QF_UF", "QF_UF"},
		{2019, benchmark.Cloud, []string{"QF_BV"}, "QF_BV=QF_BV", "QF_BV"},
		{2021, benchmark.SingleQuery, []string{"QF_UFBVDT"}, "QF_UFBVDT=QF_UFBVDT", "QF_UFBVDT"},
		{2018, benchmark.SingleQuery, []string{"QF_IDL", "QF_LIA", "FOO"}, "FOO=FOO;QF_IDL=QF_IDL;QF_LIA=QF_LIA", ""},
		{2024, benchmark.SingleQuery, []string{"UFBVDTLIA"}, "UFBVDTLIA=UFBVDTLIA", "UFBVDTLIA"},
		{2026, benchmark.SingleQuery, []string{"UFNIRA", "QF_NEW"}, "Equality_NonLinearArith=UFNIRA;QF_NEW=QF_NEW", "QF_NEW"},
	}
	for _, c := range cases {
		divs, unlisted, err := Divisions(c.year, c.track, c.logics)
		if err != nil {
			t.Fatal(err)
		}
		var parts []string
		for d, ls := range divs {
			parts = append(parts, d+"="+strings.Join(ls, ","))
		}
		sort.Strings(parts)
		if got := strings.Join(parts, ";"); got != c.want {
			t.Errorf("%d %s: divisions %s, want %s", c.year, c.track, got, c.want)
		}
		if got := strings.Join(unlisted, ","); got != c.unlisted {
			t.Errorf("%d %s: unlisted %s, want %s", c.year, c.track, got, c.unlisted)
		}
	}
	for _, c := range []struct {
		year, table int
		exact       bool
	}{{2018, 0, false}, {2019, 2019, true}, {2023, 2023, true}, {2024, 2024, true}, {2025, 2025, true}, {2026, 2025, false}} {
		if ty, exact := TableYear(c.year); ty != c.table || exact != c.exact {
			t.Errorf("TableYear(%d) = %d, %v; want %d, %v", c.year, ty, exact, c.table, c.exact)
		}
	}
}

// TestParseDivisionsErrors: a broken table is refused with the track.
func TestParseDivisionsErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`{`, "divisions:"},
		{`{"track_incremental": ["QF_BV"]}`, "no track_single_query"},
		{`{"track_single_query": 3}`, "track_single_query: want a list"},
	} {
		_, err := ParseDivisions([]byte(c.src), benchmark.SingleQuery)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.src, err, c.want)
		}
	}
	if _, err := parseDivisionTable([]byte(`{"track_cloud": {"X": 1}}`)); err == nil || !strings.Contains(err.Error(), "track_cloud") {
		t.Errorf("parseDivisionTable: %v", err)
	}
}
