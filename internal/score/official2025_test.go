package score

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// rows2025 are single-query results of three divisions: in QF_Bitvec a
// derived solver (Bitwuzla-MachBV), its base solver (Bitwuzla-MachBV-base,
// not competitive, better than it) and cvc5; in QF_Strings two solvers of
// one family (Z3-Noodler, Z3-Noodler-Mocha); in QF_FPArith only a
// non-competitive solver.
func rows2025() []Row {
	var rows []Row
	add := func(solver, path, ans, exp string, wall float64) {
		rows = append(rows, Row{Solver: solver, Benchmark: path, Result: ans, Answer: ans, Expected: exp, Wall: wall, CPU: wall})
	}
	for i, exp := range []string{"sat", "unsat", "sat", "unsat"} {
		p := "non-incremental/QF_BV/f/" + string(rune('a'+i)) + ".smt2"
		add("Bitwuzla-MachBV-base", p, exp, exp, 2)
		ans := exp
		if i == 3 {
			ans = "unknown"
		}
		add("Bitwuzla-MachBV", p, ans, exp, 1)
		if i < 2 {
			add("cvc5", p, exp, exp, 5)
		} else {
			add("cvc5", p, "Timeout", exp, 1201)
		}
	}
	add("Z3-Noodler", "non-incremental/QF_S/f/x.smt2", "sat", "sat", 1)
	add("Z3-Noodler-Mocha", "non-incremental/QF_S/f/x.smt2", "sat", "sat", 2)
	add("Z3-Owl-base", "non-incremental/QF_FP/f/y.smt2", "sat", "sat", 1)
	return rows
}

func options2025(year int) Options {
	return Options{Rules: 2024, Year: year, Track: benchmark.SingleQuery, Compat: Official,
		Divisions: map[string][]string{"QF_Bitvec": {"QF_BV"}, "QF_Strings": {"QF_S"}, "QF_FPArith": {"QF_FP"}},
		Solvers: Registry{
			"Bitwuzla-MachBV":      {Name: "Bitwuzla-MachBV", Competitive: true},
			"Bitwuzla-MachBV-base": {Name: "Bitwuzla-MachBV-base"},
			"cvc5":                 {Name: "cvc5", Competitive: true},
			"Z3-Noodler":           {Name: "Z3-Noodler", Competitive: true},
			"Z3-Noodler-Mocha":     {Name: "Z3-Noodler-Mocha", Competitive: true},
			"Z3-Owl-base":          {Name: "Z3-Owl-base"},
		},
		BaseSolvers: map[string]string{"Bitwuzla-MachBV": "Bitwuzla-MachBV-base"}}
}

// TestOfficial2025Podium checks what the 2025 tool does to a division
// page (generate_website_page.py at 061c204f: podium_steps, get_winner,
// is_competitive_division) and that 2024 stays as it was.
func TestOfficial2025Podium(t *testing.T) {
	rep, err := Score(rows2025(), options2025(2025))
	if err != nil {
		t.Fatal(err)
	}
	if rep.TimeLimit != 1200 || rep.MemLimit != 20480 {
		t.Errorf("limits %v %d, want 1200 20480", rep.TimeLimit, rep.MemLimit)
	}
	div := func(name string) *Division {
		for i := range rep.Divisions {
			if rep.Divisions[i].Name == name {
				return &rep.Divisions[i]
			}
		}
		t.Fatalf("no division %s", name)
		return nil
	}
	bv := div("QF_Bitvec")
	names := func(r *Ranking) string {
		var ns []string
		for _, e := range r.Entries {
			ns = append(ns, e.Solver)
		}
		return strings.Join(ns, ",")
	}
	// The base solver solved most, but is listed after the competitive
	// solvers and does not win.
	if got := names(bv.Ranking(Parallel)); got != "Bitwuzla-MachBV,cvc5,Bitwuzla-MachBV-base" {
		t.Errorf("QF_Bitvec order %s", got)
	}
	if w := bv.Ranking(Parallel).Winner; w != "Bitwuzla-MachBV" {
		t.Errorf("QF_Bitvec winner %q", w)
	}
	if !bv.Competitive {
		t.Error("QF_Bitvec: two families (bitwuzla, cvc5) make it competitive")
	}
	if st := div("QF_Strings"); st.Competitive || st.Ranking(Parallel).Winner != "Z3-Noodler" {
		t.Errorf("QF_Strings: one family (z3) is not competitive, yet has a winner: %v %q", st.Competitive, st.Ranking(Parallel).Winner)
	}
	if w := div("QF_FPArith").Ranking(Parallel).Winner; w != "" {
		t.Errorf("QF_FPArith: no competitive solver, winner %q", w)
	}
	// The biggest lead takes the first two of the reordered list.
	var lead *Lead
	for i, l := range rep.BiggestLead[Parallel] {
		if l.Division == "QF_Bitvec" {
			lead = &rep.BiggestLead[Parallel][i]
		}
	}
	if lead == nil || lead.First != "Bitwuzla-MachBV" || lead.Second != "cvc5" || math.Abs(lead.Correctness-4.0/3) > 1e-12 {
		t.Errorf("QF_Bitvec lead %+v", lead)
	}

	pages, err := WebPages(rep, "2025-08-11")
	if err != nil {
		t.Fatal(err)
	}
	var page map[string]json.RawMessage
	for _, p := range pages {
		if p.Name == "qf_bitvec-single-query.md" {
			if err := json.Unmarshal([]byte(p.Text), &page); err != nil {
				t.Fatal(err)
			}
			// Field order of PodiumDivision: is_competitive after division.
			if i, j := strings.Index(p.Text, `"division"`), strings.Index(p.Text, `"is_competitive"`); i < 0 || j < i || j > strings.Index(p.Text, `"track"`) {
				t.Errorf("is_competitive not between division and track:\n%.400s", p.Text)
			}
		}
	}
	if string(page["is_competitive"]) != "true" || string(page["winner_par"]) != `"Bitwuzla-MachBV"` {
		t.Fatalf("page: is_competitive %s, winner_par %s", page["is_competitive"], page["winner_par"])
	}
	var steps []struct {
		Name            string `json:"name"`
		BaseSolver      string `json:"baseSolver"`
		DeltaBaseSolver int    `json:"deltaBaseSolver"`
		Competing       string `json:"competing"`
		CorrectScore    int    `json:"correctScore"`
	}
	if err := json.Unmarshal(page["parallel"], &steps); err != nil {
		t.Fatal(err)
	}
	want := []string{"Bitwuzla-MachBV Bitwuzla-MachBV-base -1 yes 3", "cvc5  0 yes 2", "Bitwuzla-MachBV-base  0 no 4"}
	for i, s := range steps {
		got := strings.Join([]string{s.Name, s.BaseSolver, itoa(s.DeltaBaseSolver), s.Competing, itoa(s.CorrectScore)}, " ")
		if i >= len(want) || got != want[i] {
			t.Errorf("step %d: %q", i, got)
		}
	}

	// 2024: every solver competes, ranked by score; no new fields.
	rep24, err := Score(rows2025(), options2025(2024))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range rep24.Divisions {
		if d.Name == "QF_Bitvec" {
			if got := names(d.Ranking(Parallel)); got != "Bitwuzla-MachBV-base,Bitwuzla-MachBV,cvc5" || d.Ranking(Parallel).Winner != "Bitwuzla-MachBV-base" {
				t.Errorf("2024 order %s, winner %q", got, d.Ranking(Parallel).Winner)
			}
		}
	}
	pages, err = WebPages(rep24, "2024-07-08")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		for _, k := range []string{"is_competitive", "baseSolver", "deltaBaseSolver", `"no"`} {
			if strings.Contains(p.Text, k) {
				t.Errorf("2024 page %s has %s", p.Name, k)
			}
		}
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// TestFamily2025 checks is_competitive_division's family of a name: up to
// the first "-", lower-cased.
func TestFamily2025(t *testing.T) {
	for name, want := range map[string]string{"Z3-Owl": "z3", "z3siri": "z3siri", "Z3-alpha": "z3", "cvc5": "cvc5",
		"bv_decide-nokernel": "bv_decide", "OpenSMT (min-ucore)": "opensmt (min", "STP-Parti-Bitwuzla": "stp"} {
		if got := family(name); got != want {
			t.Errorf("family(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestBaseSolvers2025 reads a base-solver map from defs.py and, without
// one, infers it from the submissions ("X-base", not competitive, beside
// X).
func TestBaseSolvers2025(t *testing.T) {
	src := []byte(`class Logic(EnumAutoInt):
    QF_BV = "QF_BV"

tracks: dict[Track, dict[Division, set[Logic]]] = {
    Track.SingleQuery: {
        Division.QF_Bitvec: {
            Logic.QF_BV,
        },
    },
}

class Config:
    current_year = 2025
    baseSolverMap2025 = {
        "Bitwuzla-MachBV": "Bitwuzla-MachBV-base",
        "Z3-Owl": "Z3-Owl-base",
    }
`)
	d, err := ParseSMTCOMPDefs(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.BaseSolvers) != 2 || d.BaseSolvers["Z3-Owl"] != "Z3-Owl-base" {
		t.Errorf("parsed %v", d.BaseSolvers)
	}
	subs := map[string][]byte{
		"a.json": []byte(`{"name": "Z3-Owl", "participations": []}`),
		"b.json": []byte(`{"name": "Z3-Owl-base", "competitive": false, "participations": []}`),
		"c.json": []byte(`{"name": "cvc5-base", "competitive": false, "participations": []}`),
		"d.json": []byte(`{"name": "Yices2-base", "participations": []}`),
		"e.json": []byte(`{"name": "Yices2", "participations": []}`),
	}
	got, err := d.BaseSolversOf(subs)
	if err != nil || got["Z3-Owl"] != "Z3-Owl-base" {
		t.Errorf("from defs.py: %v %v", got, err)
	}
	d.BaseSolvers = nil
	got, err = d.BaseSolversOf(subs)
	if err != nil || len(got) != 1 || got["Z3-Owl"] != "Z3-Owl-base" {
		t.Errorf("inferred %v %v (want only Z3-Owl: cvc5 has no submission, Yices2-base competes)", got, err)
	}
	if _, err := d.BaseSolversOf(map[string][]byte{"x.json": []byte(`{`)}); err == nil || !strings.Contains(err.Error(), "x.json") {
		t.Errorf("bad submission: %v", err)
	}
}

// TestDefsOneLineSets: a tracks table written with a division's set on
// its own line ({Logic.A, Logic.B}) or with comments reads as the
// one-logic-a-line form black writes.
func TestDefsOneLineSets(t *testing.T) {
	src := []byte(`class Logic(EnumAutoInt):
    QF_BV = "QF_BV"
    QF_ABV = "QF_ABV"
    QF_UFBV = "QF_UFBV"

tracks: dict[Track, dict[Division, set[Logic]]] = {
    Track.SingleQuery: {
        Division.QF_Bitvec: {Logic.QF_BV},
        Division.QF_Equality_Bitvec: {Logic.QF_ABV, Logic.QF_UFBV},  # not Logic.QF_AUFBV this year
    },
    Track.Incremental: {
        Division.QF_Bitvec: {
            Logic.QF_BV,  # Logic.QF_ABV was here
        },
    },
}
`)
	d, err := ParseSMTCOMPDefs(src)
	if err != nil {
		t.Fatal(err)
	}
	got := d.Divisions(benchmark.SingleQuery)
	if strings.Join(got["QF_Bitvec"], ",") != "QF_BV" || strings.Join(got["QF_Equality_Bitvec"], ",") != "QF_ABV,QF_UFBV" {
		t.Errorf("single query: %v", got)
	}
	if inc := d.Divisions(benchmark.Incremental); strings.Join(inc["QF_Bitvec"], ",") != "QF_BV" || len(inc) != 1 {
		t.Errorf("incremental: %v", inc)
	}
}
