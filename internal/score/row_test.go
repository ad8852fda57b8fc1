package score

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// TestRowSize guards the size of a Row: a track's rows are held all at
// once (issue 13), so what most rows lack stays behind Source, which rows
// that have none of it leave nil.
func TestRowSize(t *testing.T) {
	if s := unsafe.Sizeof(Row{}); s > 152 {
		t.Errorf("a Row is %d bytes, want at most 152", s)
	}
	for _, c := range []struct {
		extra string
		want  bool
	}{
		{``, false},
		{`{"result":"unsat","core-size":3}`, false},
		{`{"model_validator_status":"-"}`, false},
		{`{"pair id":"12"}`, true},
		{`{"solver id":"7"}`, true},
		{`{"model_validator_status":"VALID"}`, true},
	} {
		r, err := RowOf("s", "non-incremental/QF_UF/f/x.smt2", "complete", "unsat", "", 1, 1, c.extra)
		if err != nil || (r.Source != nil) != c.want {
			t.Errorf("%s: Source %v (%v), want one: %t", c.extra, r.Source, err, c.want)
		}
	}
}

// TestRowOfSpellings: RowOf reads a key, else its other spelling
// (underscores for spaces or the other way round); the key itself wins
// over the other spelling, the last of a key given twice wins, and the
// keys whose presence counts (solved, model_validator_exception, rerun
// file) count only as spelled.
func TestRowOfSpellings(t *testing.T) {
	for _, c := range []struct {
		extra string
		check func(r Row) bool
	}{
		{`{"solver_id":"7"}`, func(r Row) bool { return r.Solver == "7" && r.Name() == "s" }},
		{`{"solver id":"8","solver_id":"7"}`, func(r Row) bool { return r.Solver == "8" }},
		{`{"solver_id":"7","solver id":"8","solver id":"9"}`, func(r Row) bool { return r.Solver == "9" }},
		{`{"num check sat":5}`, func(r Row) bool { return r.CheckSats == 5 }},
		{`{"num_check_sat":5,"num check sat":6}`, func(r Row) bool { return r.CheckSats == 5 }},
		{`{"pair_id":"12","job_file":"j.csv","configuration_id":"3"}`, func(r Row) bool { return r.Pair() == "12" && r.Job() == "j.csv" && r.Config() == "3" }},
		{`{"rerun_file":"r.csv"}`, func(r Row) bool { return !r.Rerun() }},
		{`{"rerun file":"r.csv"}`, func(r Row) bool { return r.Rerun() }},
		{`{"wrong answers":2}`, func(r Row) bool { return r.WrongAnswers == 0 }},
		{`{"wrong_answers":2}`, func(r Row) bool { return r.WrongAnswers == 2 }},
		{`{"solved":3,"correct-answers":0}`, func(r Row) bool { return r.CorrectAnswers == 3 }},
		{`{"model validator error":"x"}`, func(r Row) bool { return r.ModelError() == "x" && r.ModelException() == noException }},
		{`{"model_validator_error":"x","model validator exception":"y"}`, func(r Row) bool { return r.ModelException() == noException }},
		{`{"model_validator_error":"x","model_validator_exception":"y"}`, func(r Row) bool { return r.ModelException() == "y" }},
		{`{"core-size":4,"nb_answers":4,"result":"unsat","result-is-erroneous":"True","parsable-unsat-core":0}`,
			func(r Row) bool { return r.CoreSize == 4 && r.Result == "unsat" && r.CoreErroneous && r.CoreIllFormed }},
		{`{"model_validator_status":" valid "}`, func(r Row) bool { return r.Model() == "VALID" }},
		{`{"reduction":2.0}`, func(r Row) bool { return r.Reduction == 2 }},
		{`{"reduction":3e10,"core-size":-3e10}`, func(r Row) bool { return r.Reduction == math.MaxInt32 && r.CoreSize == math.MinInt32 }},
	} {
		r, err := RowOf("s", "non-incremental/QF_UF/f/x.smt2", "complete", "unsat", "", 1, 1, c.extra)
		if err != nil || !c.check(r) {
			t.Errorf("%s: %v %+v", c.extra, err, r)
		}
	}
}

// TestExtraSlotOf: the table finds every spelling the map has, and no
// other key.
func TestExtraSlotOf(t *testing.T) {
	for name, want := range extraSlots {
		if got, ok := extraSlotOf(name); !ok || got != want {
			t.Errorf("%q: %v %v, want %v", name, got, ok, want)
		}
	}
	for _, k := range []string{"", "nb_answers", "x", "result ", "core size", "Result", "solver-id"} {
		if _, ok := extraSlotOf(k); ok {
			t.Errorf("%q found", k)
		}
	}
}

// TestRowReader: a RowReader reads every row as ReadRow does, an Extra
// object seen before included, past the number it keeps too, and refuses
// what ReadRow refuses.
func TestRowReader(t *testing.T) {
	extras := append([]string{"", "{}", `{"solver id":"8","solver_id":"7"}`, `{"num check sat":5}`, `{"check_sats":3,"num_check_sat":0}`,
		`{"solved":3,"correct-answers":0}`, `{"model_validator_error":"x"}`, `{"rerun file":"r.csv","job file":"j"}`}, extraSeeds...)
	for i := range maxSeen + 100 {
		extras = append(extras, fmt.Sprintf(`{"pair id":"%d","result":"sat"}`, i))
	}
	for _, solver := range []string{"s", "t"} {
		var rr RowReader
		for round := range 3 {
			for _, x := range extras {
				var got, want Row
				errGot := rr.Read(&got, solver, "non-incremental/QF_UF/f/x.smt2", "complete", "unsat", "", 1, 2, x)
				errWant := ReadRow(&want, solver, "non-incremental/QF_UF/f/x.smt2", "complete", "unsat", "", 1, 2, x)
				if (errGot == nil) != (errWant == nil) || !reflect.DeepEqual(got, want) {
					t.Fatalf("round %d, %s: %+v %v, want %+v %v", round, x, got, errGot, want, errWant)
				}
			}
		}
	}
	var rr RowReader
	var r Row
	if err := rr.Read(&r, "s", "p.smt2", "", "", "", 0, 0, `{"a":`); err == nil || !strings.Contains(err.Error(), "p.smt2: extra columns") {
		t.Errorf("bad extra: %v", err)
	}
}
