package main

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A result of the smtcomp tool's results JSON as main.py writes it
// (defs.Result; nb_answers only in the incremental and unsat-core files,
// exclude_defaults leaving it out of the others).
func result2025(track, solver, logic, name, word string, nb int) map[string]any {
	r := map[string]any{"track": track, "solver": solver,
		"file":   map[string]any{"incremental": track == "Incremental", "logic": logic, "family": []string{"20250101-fam"}, "name": name},
		"result": word, "cpu_time": 1.5, "wallclock_time": 1.25, "memory_usage": 1048576.0}
	if track == "Incremental" || track == "UnsatCore" {
		r["nb_answers"] = nb
	}
	return r
}

func writeGz(t *testing.T, path string, v any) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	enc := json.NewEncoder(zw)
	enc.SetIndent("", " ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

const defs2025 = `class Logic(EnumAutoInt):
    QF_BV = "QF_BV"
    QF_LIA = "QF_LIA"


class Division(EnumAutoInt):
    QF_Bitvec = "QF_Bitvec"
    QF_LinearIntArith = "QF_LinearIntArith"


tracks: dict[Track, dict[Division, set[Logic]]] = {
    Track.SingleQuery: {
        Division.QF_Bitvec: {
            Logic.QF_BV,
        },
    },
    Track.Incremental: {
        Division.QF_LinearIntArith: {
            Logic.QF_LIA,
        },
    },
    Track.UnsatCore: {
        Division.QF_Bitvec: {
            Logic.QF_BV,
        },
    },
    Track.ModelValidation: {
        Division.QF_Bitvec: {
            Logic.QF_BV,
        },
    },
    Track.Parallel: {
        Division.QF_Bitvec: {
            Logic.QF_BV,
        },
    },
}
`

// TestImportScore2025 imports files in the shape of the 2025 data
// (results-TRACK-2025.json.gz of every track the 2025 competition ran,
// benchmarks-2025.json.gz), named without a format word: each file's rows
// are all added, a second import adds none, and 2024's file of the same
// results stands beside them. It then scores the single-query and
// unsat-core tracks as the 2025 tool did and reads the website records:
// the base solver listed last and not competing, its derived solver
// winning with its delta, the division competitive (two families), the
// tool's resultdate without --date, an
// unsat core the validators refuted counted as an error.
func TestImportScore2025(t *testing.T) {
	tmp := t.TempDir()
	db := filepath.Join(tmp, "s.db")
	files := map[string][]map[string]any{
		"results-sq-2025.json.gz": {
			result2025("SingleQuery", "Bitwuzla-MachBV-base", "QF_BV", "a.smt2", "sat", 1),
			result2025("SingleQuery", "Bitwuzla-MachBV-base", "QF_BV", "b.smt2", "unsat", 1),
			result2025("SingleQuery", "Bitwuzla-MachBV-base", "QF_BV", "c.smt2", "sat", 1),
			result2025("SingleQuery", "Bitwuzla-MachBV", "QF_BV", "a.smt2", "sat", 1),
			result2025("SingleQuery", "Bitwuzla-MachBV", "QF_BV", "b.smt2", "unsat", 1),
			result2025("SingleQuery", "Bitwuzla-MachBV", "QF_BV", "c.smt2", "Timeout", 1),
			result2025("SingleQuery", "cvc5", "QF_BV", "a.smt2", "sat", 1),
			result2025("SingleQuery", "cvc5", "QF_BV", "b.smt2", "OutOfMemory", 1),
			result2025("SingleQuery", "cvc5", "QF_BV", "c.smt2", "unknown", 1),
		},
		"results-uc-2025.json.gz": {
			result2025("UnsatCore", "Bitwuzla-MachBV", "QF_BV", "b.smt2", "unsat", 2),
			result2025("UnsatCore", "cvc5", "QF_BV", "b.smt2", "UnsatCoreNotValidated", 1),
			result2025("UnsatCore", "cvc5", "QF_BV", "d.smt2", "unknown", 0),
		},
		"results-mv-2025.json.gz": {
			result2025("ModelValidation", "cvc5", "QF_BV", "a.smt2", "sat", 1),
			result2025("ModelValidation", "Bitwuzla-MachBV", "QF_BV", "a.smt2", "ModelUnsat", 1),
			result2025("ModelValidation", "cvc5", "QF_BV", "c.smt2", "ModelParsingError", 1),
		},
		"results-inc-2025.json.gz": {
			result2025("Incremental", "cvc5", "QF_LIA", "i.smt2", "incremental", 5),
			result2025("Incremental", "cvc5", "QF_LIA", "j.smt2", "IncrementalError", 0),
			result2025("Incremental", "cvc5", "QF_LIA", "k.smt2", "Timeout", 3),
		},
		"results-parallel-2025.json.gz": {
			result2025("Parallel", "cvc5", "QF_BV", "a.smt2", "sat", 1),
		},
	}
	var paths []string
	total := 0
	for name, rs := range files {
		p := filepath.Join(tmp, name)
		writeGz(t, p, map[string]any{"results": rs})
		paths = append(paths, p)
		total += len(rs)
	}
	bench := func(name, status string, asserts int) map[string]any {
		return map[string]any{"file": map[string]any{"incremental": false, "logic": "QF_BV", "family": []string{"20250101-fam"}, "name": name},
			"status": status, "asserts": asserts}
	}
	list := filepath.Join(tmp, "benchmarks-2025.json.gz")
	writeGz(t, list, map[string]any{
		"non_incremental": []any{bench("a.smt2", "sat", 3), bench("b.smt2", "unsat", 5), bench("c.smt2", "unknown", 2), bench("d.smt2", "unsat", 4)},
		"incremental": []any{map[string]any{"file": map[string]any{"incremental": true, "logic": "QF_LIA", "family": []string{"20250101-fam"}, "name": "i.smt2"},
			"check_sats": 7}},
	})

	c, errs := importCounts(t, 0, append([]string{"--db", db}, paths...)...)
	if c != [4]int{total, total, 0, 0} {
		t.Fatalf("first import: %v (want %d rows, all added)\n%s", c, total, errs)
	}
	if n := countResults(t, db, 2025); n != total {
		t.Errorf("%d results of 2025 stored, want %d", n, total)
	}
	if again, _ := importCounts(t, 0, append([]string{"--db", db}, paths...)...); again != [4]int{total, 0, total, 0} {
		t.Errorf("second import: %v", again)
	}
	// 2024's file of the same results: another year, all added.
	y24 := filepath.Join(tmp, "results-sq-2024.json.gz")
	writeGz(t, y24, map[string]any{"results": files["results-sq-2025.json.gz"]})
	if c, _ := importCounts(t, 0, "--db", db, y24); c != [4]int{9, 9, 0, 0} {
		t.Errorf("2024 beside 2025: %v", c)
	}
	if code, out, errs := runCLI(t, "", "import", "--db", db, list); code != 0 || !strings.Contains(out, "5 rows, 5 added") {
		t.Fatalf("import benchmarks: %d %s %s", code, out, errs)
	}

	defs := filepath.Join(tmp, "defs.py")
	os.WriteFile(defs, []byte(defs2025), 0o644)
	subs := filepath.Join(tmp, "submissions")
	os.MkdirAll(subs, 0o755)
	for name, body := range map[string]string{
		"machbv.json": `{"name": "Bitwuzla-MachBV", "participations": [{"tracks": ["SingleQuery", "UnsatCore", "ModelValidation"], "logics": ["QF_BV"]}]}`,
		"base.json":   `{"name": "Bitwuzla-MachBV-base", "competitive": false, "participations": [{"tracks": ["SingleQuery"], "logics": "QF_BV"}]}`,
		"cvc5.json":   `{"name": "cvc5", "participations": [{"tracks": ["SingleQuery", "UnsatCore", "ModelValidation", "Parallel"], "divisions": ["QF_Bitvec"]}, {"tracks": ["Incremental"], "logics": "QF_LIA"}]}`,
	} {
		os.WriteFile(filepath.Join(subs, name), []byte(body), 0o644)
	}
	score := func(track string) map[string]json.RawMessage {
		t.Helper()
		out := filepath.Join(tmp, "web-"+track)
		code, stdout, errs := runCLI(t, "", "score", "--db", db, "--rules", "2024", "--year", "2025", "--track", track, "--compat", "official",
			"--defs", defs, "--submissions", subs, "--format", "web-json", "--out", out)
		if code != 0 {
			t.Fatalf("score %s: %d %s %s", track, code, stdout, errs)
		}
		raw, err := os.ReadFile(filepath.Join(out, "qf_bitvec-"+track+".md"))
		if err != nil {
			t.Fatal(err)
		}
		var page map[string]json.RawMessage
		if err := json.Unmarshal(raw, &page); err != nil {
			t.Fatal(err)
		}
		return page
	}
	type step struct {
		Name            string `json:"name"`
		BaseSolver      string `json:"baseSolver"`
		DeltaBaseSolver int    `json:"deltaBaseSolver"`
		Competing       string `json:"competing"`
		ErrorScore      int    `json:"errorScore"`
		CorrectScore    int    `json:"correctScore"`
		Timeout         int    `json:"timeout"`
		Memout          int    `json:"memout"`
	}
	steps := func(page map[string]json.RawMessage) []step {
		var ss []step
		if err := json.Unmarshal(page["parallel"], &ss); err != nil {
			t.Fatal(err)
		}
		return ss
	}
	sq := score("single-query")
	if string(sq["resultdate"]) != `"2025-08-11"` {
		t.Errorf("resultdate %s, want the tool's 2025-08-11 without --date", sq["resultdate"])
	}
	if string(sq["is_competitive"]) != "true" || string(sq["winner_par"]) != `"Bitwuzla-MachBV"` || string(sq["time_limit"]) != "1200" {
		t.Errorf("single-query: is_competitive %s, winner %s, time_limit %s", sq["is_competitive"], sq["winner_par"], sq["time_limit"])
	}
	want := []step{
		{Name: "Bitwuzla-MachBV", BaseSolver: "Bitwuzla-MachBV-base", DeltaBaseSolver: -1, Competing: "yes", CorrectScore: 2, Timeout: 1},
		{Name: "cvc5", Competing: "yes", CorrectScore: 1, Memout: 1},
		{Name: "Bitwuzla-MachBV-base", Competing: "no", CorrectScore: 3},
	}
	if got := steps(sq); len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("single-query steps:\n got %+v\nwant %+v", got, want)
	}
	uc := score("unsat-core")
	ucs := steps(uc)
	if len(ucs) != 2 || ucs[0].Name != "Bitwuzla-MachBV" || ucs[0].CorrectScore != 3 || ucs[1].Name != "cvc5" || ucs[1].ErrorScore != 1 {
		t.Errorf("unsat-core steps: %+v (want Bitwuzla-MachBV reduction 5-2, cvc5 one error)", ucs)
	}
}
