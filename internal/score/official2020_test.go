package score

import (
	"regexp"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
)

func TestExcludeKey(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"QF_LIA/fam/x.smt2", "QF_LIA/fam/x.smt2"},
		{"./QF_LIA/fam/x.smt2", "QF_LIA/fam/x.smt2"},
		{"non-incremental/QF_LIA/fam/x.smt2", "QF_LIA/fam/x.smt2"},
		{"incremental/ALIA/fam/x.smt2", "ALIA/fam/x.smt2"},
		{"Competition - Unsat Core track/QF_LIA/fam/x.smt2", "QF_LIA/fam/x.smt2"},
		{"  QF_BV/a b/x.smt2\r", "QF_BV/a b/x.smt2"},
	} {
		if got := ExcludeKey(c.in); got != c.want {
			t.Errorf("ExcludeKey(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestExclusions(t *testing.T) {
	list, err := ParseExclusion("bl.txt", strings.NewReader("# comment\n./QF_LIA/a/1.smt2\n\nQF_LIA/a/2.smt2\n"))
	if err != nil || len(list.Benchmarks) != 2 {
		t.Fatalf("%+v %v", list, err)
	}
	patch, err := ParseExclusion("p.csv", strings.NewReader("pair id,benchmark,solver,configuration,result\n7,X/QF_LIA/a/3.smt2,s,c,starexec-unknown\n"))
	if err != nil || patch.Patch["7"] != "starexec-unknown" {
		t.Fatalf("%+v %v", patch, err)
	}
	rows := []Row{
		{Solver: "s", Benchmark: "non-incremental/QF_LIA/a/1.smt2", Answer: "sat"},
		{Solver: "t", Benchmark: "non-incremental/QF_LIA/a/1.smt2", Answer: "sat"},
		{Solver: "s", Benchmark: "non-incremental/QF_LIA/a/2.smt2", Answer: "sat"},
		{Solver: "s", Benchmark: "non-incremental/QF_LIA/a/3.smt2", Answer: "sat", Source: &RowSource{Pair: "7"}},
		{Solver: "s", Benchmark: "non-incremental/QF_LIA/a/4.smt2", Answer: "sat", Source: &RowSource{Pair: "8"}},
	}
	kept, counts := applyExclusions(rows, []Exclusion{list, patch})
	if len(kept) != 2 || kept[0].Answer != "starexec-unknown" || kept[1].Answer != "sat" {
		t.Errorf("kept %+v", kept)
	}
	if counts[0] != (Excluded{"bl.txt", 3}) || counts[1] != (Excluded{"p.csv", 1}) {
		t.Errorf("counts %+v", counts)
	}
}

func TestOfficialModelError(t *testing.T) {
	for _, c := range []struct {
		model, err, exc string
		want            bool
	}{
		{"VALID", "none", "-", false},
		{"INVALID", "wrong_model", "-", true},
		{"INVALID", "unhandled_exception", "Line 1, Col 0: sat expected", false},
		{"INVALID", "unhandled_exception", "Line 3, Col 1: ( expected", false},
		{"INVALID", "unhandled_exception", "-", false},
		{"INVALID", "unhandled_exception", "Undefined function x", true},
		{"UNKNOWN", "unhandled_exception", "Undefined function x", false},
	} {
		r := Row{Source: &RowSource{Model: c.model, ModelError: c.err, ModelException: c.exc}}
		if got := officialModelError(&r); got != c.want {
			t.Errorf("%+v: %t, want %t", c, got, c.want)
		}
	}
}

func TestOfficialRows2020(t *testing.T) {
	rows := []Row{
		{Solver: "1", Benchmark: "incremental/QF_ANIA/a/2.smt2", Source: &RowSource{Job: "Job_info_2019.csv"}},
		{Solver: "2", Benchmark: "incremental/QF_ANIA/a/1.smt2", Source: &RowSource{Job: "Job_info_fixed.csv"}},
		{Solver: "3", Benchmark: "incremental/QF_ANIA/a/1.smt2", Source: &RowSource{Job: "Job_info_orig.csv"}},
		{Solver: "4", Benchmark: "incremental/QF_BV/a/1.smt2", Source: &RowSource{Job: "Job_info_2019.csv"}},
	}
	kept, dropped := keepOfficialRows(append([]Row(nil), rows...), Options{Year: 2020, Track: benchmark.Incremental})
	var got []string
	for _, r := range kept {
		got = append(got, r.Solver)
	}
	// sorted by benchmark (QF_ANIA/a/1 before QF_BV/a/1), the main job
	// before the fixed one; the 2019 job's QF_ANIA row dropped
	if strings.Join(got, ",") != "3,2,4" || len(dropped) != 1 || dropped[0].Rows != 1 {
		t.Errorf("incremental: kept %v, dropped %+v", got, dropped)
	}
	kept, dropped = keepOfficialRows(append([]Row(nil), rows...), Options{Year: 2020, Track: benchmark.UnsatCore})
	if len(kept) != 2 || dropped[0].Rows != 2 {
		t.Errorf("unsat-core: kept %+v, dropped %+v", kept, dropped)
	}
	sq := []Row{
		{Solver: "24160", Benchmark: "non-incremental/QF_LIA/a.smt2", Source: &RowSource{Job: "Job_info_2019.csv"}},
		{Solver: "29388", Benchmark: "non-incremental/QF_LIA/a.smt2", Source: &RowSource{Job: "Job_info_2019.csv"}},
		{Solver: "24160", Benchmark: "non-incremental/QF_LIA/a.smt2", Source: &RowSource{Job: "Job_info_orig.csv"}},
		{Solver: "5", Benchmark: "non-incremental/QF_LIA/a.smt2", Source: &RowSource{Job: "Job_info_2019.csv"}},
	}
	if kept, _ := keepOfficialRows(sq, Options{Year: 2020, Track: benchmark.SingleQuery}); len(kept) != 2 {
		t.Errorf("single-query: kept %+v", kept)
	}
	if kept, dropped := keepOfficialRows(append([]Row(nil), rows...), Options{Year: 2019, Track: benchmark.UnsatCore}); len(kept) != 4 || dropped != nil {
		t.Errorf("2019: kept %+v, dropped %+v", kept, dropped)
	}
	reg := Registry{"900": {Name: "S-conf"}}
	kept, _ = keepOfficialRows([]Row{{Solver: "1", Source: &RowSource{Config: "900"}}, {Solver: "2", Source: &RowSource{Config: "901"}}}, Options{Year: 2022, Solvers: reg})
	if kept[0].Solver != "900" || kept[1].Solver != "2" {
		t.Errorf("2022: %+v", kept)
	}
}

func TestDecisionsAndLibraryKinds(t *testing.T) {
	status, err := ParseExclusion("sq-decision.csv", strings.NewReader("benchmark,decided status\nQF_LIA/a/1.smt2,unsat\n"))
	if err != nil || status.Status["QF_LIA/a/1.smt2"] != "unsat" {
		t.Fatalf("%+v %v", status, err)
	}
	inc, err := ParseExclusion("inc-decision.csv", strings.NewReader("benchmark,wrong answers,solver,solver id\nQF_BVFP/a/1.smt2,2,M,40\nQF_BVFP/a/1.smt2,1,B,41\n"))
	if err != nil || inc.WrongIncremental["QF_BVFP/a/1.smt2"] != "41" {
		t.Fatalf("%+v %v", inc, err)
	}
	kinds, err := ParseExclusion("SMT-LIB_excluded.txt", strings.NewReader("incremental/QF_BV/a/1.smt2\nnon-incremental/QF_LIA/a/1.smt2\n"))
	if err != nil {
		t.Fatal(err)
	}
	rows := []Row{
		{Solver: "40", Benchmark: "incremental/QF_BVFP/a/1.smt2", CorrectAnswers: 5},
		{Solver: "41", Benchmark: "incremental/QF_BVFP/a/1.smt2", CorrectAnswers: 5},
		{Solver: "1", Benchmark: "non-incremental/QF_LIA/a/1.smt2", Expected: "starexec-unknown"},
		{Solver: "1", Benchmark: "incremental/QF_LIA/a/1.smt2"},
		{Solver: "1", Benchmark: "non-incremental/QF_BV/a/1.smt2"},
		{Solver: "1", Benchmark: "incremental/QF_BV/a/1.smt2"},
	}
	kept, counts := applyExclusions(rows, []Exclusion{status, inc, kinds})
	if len(kept) != 4 || kept[0].WrongAnswers != 0 || kept[1].WrongAnswers != 1 || kept[1].CorrectAnswers != 0 {
		t.Errorf("kept %+v", kept)
	}
	if counts[0].Rows != 2 || counts[1].Rows != 1 || counts[2].Rows != 2 { // a decision applies to every row of its benchmark path
		t.Errorf("counts %+v", counts)
	}
	for _, r := range kept {
		if r.Benchmark == "non-incremental/QF_BV/a/1.smt2" || r.Benchmark == "incremental/QF_LIA/a/1.smt2" {
			continue
		}
		if r.Benchmark == "non-incremental/QF_LIA/a/1.smt2" || r.Benchmark == "incremental/QF_BV/a/1.smt2" {
			t.Errorf("%s: excluded in its own library only, but kept", r.Benchmark)
		}
	}
}

func TestOfficialRows2021(t *testing.T) {
	for _, c := range []struct {
		track benchmark.Track
		row   Row
		drop  bool
	}{
		{benchmark.UnsatCore, Row{Status: "post-processor error", Benchmark: "non-incremental/UF/a.smt2"}, true},
		{benchmark.UnsatCore, Row{Status: "complete", Benchmark: "non-incremental/UF/a.smt2"}, false},
		{benchmark.SingleQuery, Row{Solver: "33746", Benchmark: "non-incremental/QF_SLIA/a.smt2"}, true},
		{benchmark.Incremental, Row{Benchmark: "incremental/QF_AUFBVNIA/a.smt2"}, true},
		{benchmark.Incremental, Row{Benchmark: "incremental/QF_UFBVLIA/a.smt2"}, true},
		{benchmark.Incremental, Row{Benchmark: "incremental/QF_UFBV/a.smt2"}, false},
	} {
		kept, _ := keepOfficialRows([]Row{c.row}, Options{Year: 2021, Track: c.track})
		if (len(kept) == 0) != c.drop {
			t.Errorf("%s %+v: dropped %t, want %t", c.track, c.row, len(kept) == 0, c.drop)
		}
	}
}

func TestExclusionLibraryByName(t *testing.T) {
	inc, _ := ParseExclusion("blacklists.tar.xz:blacklist_incremental_arraytype.txt", strings.NewReader("ALIA/a.smt2\n"))
	non, _ := ParseExclusion("blacklists.tar.xz:blacklist_nonincremental_nonlinear.txt", strings.NewReader("LIA/b.smt2\n"))
	rows := []Row{
		{Benchmark: "incremental/ALIA/a.smt2"}, {Benchmark: "non-incremental/ALIA/a.smt2"},
		{Benchmark: "incremental/LIA/b.smt2"}, {Benchmark: "non-incremental/LIA/b.smt2"},
	}
	kept, counts := applyExclusions(rows, []Exclusion{inc, non})
	if len(kept) != 2 || kept[0].Benchmark != "non-incremental/ALIA/a.smt2" || kept[1].Benchmark != "incremental/LIA/b.smt2" || counts[0].Rows != 1 || counts[1].Rows != 1 {
		t.Errorf("kept %+v, counts %+v", kept, counts)
	}
}

// The single-query largest-contribution page prints the sat, unsat and 24 s
// winners as one block, as score.py does (2020's
// largest-contribution-single-query.md).
func TestContributionPageWinnerBlock(t *testing.T) {
	var rows []Row
	for _, s := range []string{"A", "B", "C"} {
		for _, b := range []string{"a", "b"} {
			rows = append(rows, Row{Solver: s, Benchmark: "non-incremental/QF_LIA/f/" + b + ".smt2", Status: "complete", Answer: "sat", Expected: "sat", CPU: 1, Wall: 1})
		}
	}
	rep, err := Score(rows, Options{Rules: 2020, Year: 2020, Track: benchmark.SingleQuery, Compat: Official})
	if err != nil {
		t.Fatal(err)
	}
	page := contributionPage(rep, "")
	want := regexp.MustCompile(`\nwinner_seq: [^\n]+\n\nwinner_par: [^\n]+\n\nwinner_sat: [^\n]+\nwinner_unsat: [^\n]+\nwinner_24s: [^\n]+\n\nsequential:\n`)
	if !want.MatchString(page) {
		t.Errorf("page:\n%s\nwant the block\n%s", page, want)
	}
}
