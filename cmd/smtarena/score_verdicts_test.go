package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/store"
)

// TestScoreModelVerdicts scores model-validation results written into a
// store as compete writes them (model_validator_status, model_reason) and
// as an import without verdicts has them: score prints each solver's
// verdicts and reasons per division in table, csv and json, and only a
// note when the results carry none.
func TestScoreModelVerdicts(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, extra func(solver string, i int) string) string {
		db := filepath.Join(dir, name+".db")
		st, err := store.Open(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		var rs []store.Result
		for i := 0; i < 4; i++ {
			for _, s := range []string{"good", "bad", "mute"} {
				rs = append(rs, store.Result{Competition: name, Year: 2022, Track: "model-validation", Solver: s,
					BenchmarkPath: fmt.Sprintf("non-incremental/QF_LIA/f/b%d.smt2", i), Status: "complete", Answer: "sat", Expected: "sat",
					CPU: 1, Wall: 1, Extra: extra(s, i), SourceKey: fmt.Sprintf("%s:%d", s, i)})
			}
			rs = append(rs, store.Result{Competition: name, Year: 2022, Track: "model-validation", Solver: "good",
				BenchmarkPath: fmt.Sprintf("non-incremental/QF_BV/f/c%d.smt2", i), Status: "complete", Answer: "sat", Expected: "sat",
				CPU: 1, Wall: 1, Extra: extra("good", i), SourceKey: fmt.Sprintf("bv:%d", i)})
		}
		if _, err := st.AddResults(context.Background(), rs); err != nil {
			t.Fatal(err)
		}
		return db
	}
	db := write("own", func(s string, i int) string {
		v := map[string]string{"good": "VALID", "bad": "INVALID", "mute": "UNKNOWN"}[s]
		reason := map[string]string{"good": "", "bad": "bad-model", "mute": "no-output"}[s]
		if s == "mute" && i == 3 {
			reason = "parse-error"
		}
		b, _ := json.Marshal(map[string]any{"model_validator_status": v, "model_reason": reason, "model_detail": "x"})
		return string(b)
	})
	code, out, errs := runCLI(t, "", "score", "--db", db, "--rules", "2022", "--track", "model-validation")
	if code != 0 {
		t.Fatalf("score: %d %s\n%s", code, errs, out)
	}
	for _, want := range []string{"model-validation verdicts", "verdicts and reasons",
		"good    4        4      0        0        VALID: 4",
		"bad     4        0      4        0        INVALID bad-model: 4",
		"mute    4        0      0        4        UNKNOWN no-output: 3, UNKNOWN parse-error: 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("score table lacks %q:\n%s", want, out)
		}
	}
	// the QF_BV division's verdicts are its own
	bv, _, _ := strings.Cut(out, "QF_LinearIntArith:")
	if _, bv, _ = strings.Cut(bv, "QF_Bitvec:"); !strings.Contains(bv, "VALID: 4") || strings.Contains(bv, "mute") {
		t.Errorf("the QF_Bitvec division's verdicts are wrong:\n%s", out)
	}
	code, out, errs = runCLI(t, "", "score", "--db", db, "--rules", "2022", "--track", "model-validation", "--format", "csv", "--division", "QF_LinearIntArith")
	if code != 0 || !strings.Contains(out, ",model_valid,model_invalid,model_unknown,model_verdicts\n") ||
		!strings.Contains(out, ",mute,") || !strings.Contains(out, ",0,0,4,UNKNOWN no-output: 3; UNKNOWN parse-error: 1\n") ||
		!strings.Contains(out, ",0,4,0,INVALID bad-model: 4\n") {
		t.Errorf("score csv: %d %s\n%s", code, errs, out)
	}
	code, out, errs = runCLI(t, "", "score", "--db", db, "--rules", "2022", "--track", "model-validation", "--format", "json")
	var js struct {
		Divisions []struct {
			Division      string `json:"division"`
			ModelVerdicts []struct {
				Name                    string
				Results                 int
				Valid, Invalid, Unknown int
				Verdicts                map[string]int
			} `json:"model_verdicts"`
		} `json:"divisions"`
	}
	if err := json.Unmarshal([]byte(out), &js); code != 0 || err != nil {
		t.Fatalf("score json: %d %v %s\n%s", code, err, errs, out)
	}
	found := false
	for _, d := range js.Divisions {
		for _, v := range d.ModelVerdicts {
			if d.Division == "QF_LinearIntArith" && v.Name == "bad" {
				found = v.Results == 4 && v.Invalid == 4 && v.Verdicts["INVALID bad-model"] == 4
			}
		}
	}
	if !found {
		t.Errorf("score json lacks bad's verdicts:\n%s", out)
	}

	// results without verdicts (an import of the official table without
	// the validator's columns): a note, no error
	bare := write("bare", func(string, int) string { return "{}" })
	code, out, errs = runCLI(t, "", "score", "--db", bare, "--rules", "2022", "--track", "model-validation")
	if code != 0 || strings.Contains(out, "verdicts and reasons") || !strings.Contains(out, "no model-validation verdicts in these results") {
		t.Errorf("score without verdicts: %d %s\n%s", code, errs, out)
	}
	code, out, errs = runCLI(t, "", "score", "--db", bare, "--rules", "2022", "--track", "model-validation", "--format", "csv")
	if code != 0 || strings.Contains(out, "model_verdicts") {
		t.Errorf("score csv without verdicts: %d %s\n%s", code, errs, out)
	}
}
