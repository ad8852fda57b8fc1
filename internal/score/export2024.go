package score

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// The website of 2024 on is rendered by Hugo from JSON files that the
// smtcomp tool writes into web/content/results (generate_website_page.py:
// export_results): one PodiumDivision per division and per logic
// (DIVISION-TRACK.md), a PodiumBiggestLead and a PodiumLargestContribution
// per track, and a PodiumSummaryResults (results-TRACK.md). WebPages writes
// the same records, field for field and in the same order, so that a
// re-scored year can be published with the official site's layouts.

type webStep struct {
	Name string `json:"name"`
	// 2025 on (PodiumStep.baseSolver, deltaBaseSolver): nil before.
	BaseSolver      *string `json:"baseSolver,omitempty"`
	DeltaBaseSolver *int64  `json:"deltaBaseSolver,omitempty"`
	Competing       string  `json:"competing"`
	ErrorScore      int64   `json:"errorScore"`
	CorrectScore    int64   `json:"correctScore"`
	CPUScore        float64 `json:"CPUScore"`
	WallScore       float64 `json:"WallScore"`
	Solved          int     `json:"solved"`
	SolvedSat       int     `json:"solved_sat"`
	SolvedUnsat     int     `json:"solved_unsat"`
	Unsolved        int     `json:"unsolved"`
	Abstained       int     `json:"abstained"`
	Timeout         int     `json:"timeout"`
	Memout          int     `json:"memout"`
}

type webDivision struct {
	ResultDate    string         `json:"resultdate"`
	Year          int            `json:"year"`
	Divisions     string         `json:"divisions"`
	Participants  string         `json:"participants"`
	Disagreements string         `json:"disagreements"`
	Division      string         `json:"division"`
	IsCompetitive *bool          `json:"is_competitive,omitempty"` // 2025 on
	Track         string         `json:"track"`
	NBenchmarks   int            `json:"n_benchmarks"`
	TimeLimit     int            `json:"time_limit"`
	MemLimit      int            `json:"mem_limit"`
	Logics        map[string]int `json:"logics"`
	WinnerSeq     string         `json:"winner_seq"`
	WinnerPar     string         `json:"winner_par"`
	WinnerSat     string         `json:"winner_sat"`
	WinnerUnsat   string         `json:"winner_unsat"`
	Winner24s     string         `json:"winner_24s"`
	Sequential    []webStep      `json:"sequential"`
	Parallel      []webStep      `json:"parallel"`
	Sat           []webStep      `json:"sat"`
	Unsat         []webStep      `json:"unsat"`
	TwentyFour    []webStep      `json:"twentyfour"`
	Layout        string         `json:"layout"`
}

type webLead struct {
	Name         string  `json:"name"`
	Second       string  `json:"second"`
	CorrectScore float64 `json:"correctScore"`
	TimeScore    float64 `json:"timeScore"`
	Division     string  `json:"division"`
}

type webContribution struct {
	Name         string  `json:"name"`
	CorrectScore float64 `json:"correctScore"`
	TimeScore    float64 `json:"timeScore"`
	Division     string  `json:"division"`
	Experimental string  `json:"experimental"`
}

type webCross[T any] struct {
	ResultDate   string `json:"resultdate"`
	Year         int    `json:"year"`
	Results      string `json:"results"`
	Participants string `json:"participants"`
	Track        string `json:"track"`
	Recognition  string `json:"recognition"`
	WinnerSeq    string `json:"winner_seq"`
	WinnerPar    string `json:"winner_par"`
	WinnerSat    string `json:"winner_sat"`
	WinnerUnsat  string `json:"winner_unsat"`
	Winner24s    string `json:"winner_24s"`
	Sequential   []T    `json:"sequential"`
	Parallel     []T    `json:"parallel"`
	Sat          []T    `json:"sat"`
	Unsat        []T    `json:"unsat"`
	TwentyFour   []T    `json:"twentyfour"`
	Layout       string `json:"layout"`
}

type webOverall struct {
	Name              string  `json:"name"`
	Contribution      float64 `json:"contribution"`
	Division          string  `json:"division"`
	TieBreakTimeScore float64 `json:"tieBreakTimeScore"`
}

// webBestOverall is the tool's PodiumBestOverall (2025 on).
type webBestOverall struct {
	ResultDate       string       `json:"resultdate"`
	Year             int          `json:"year"`
	Results          string       `json:"results"`
	Participants     string       `json:"participants"`
	Track            string       `json:"track"`
	Recognition      string       `json:"recognition"`
	WinnerSeq        string       `json:"winner_seq"`
	WinnerPar        string       `json:"winner_par"`
	WinnerSat        string       `json:"winner_sat"`
	WinnerUnsat      string       `json:"winner_unsat"`
	Winner24s        string       `json:"winner_24s"`
	WinnerSeqScore   float64      `json:"winner_seq_score"`
	WinnerParScore   float64      `json:"winner_par_score"`
	WinnerSatScore   float64      `json:"winner_sat_score"`
	WinnerUnsatScore float64      `json:"winner_unsat_score"`
	Winner24sScore   float64      `json:"winner_24s_score"`
	Sequential       []webOverall `json:"sequential"`
	Parallel         []webOverall `json:"parallel"`
	Sat              []webOverall `json:"sat"`
	Unsat            []webOverall `json:"unsat"`
	TwentyFour       []webOverall `json:"twentyfour"`
	Layout           string       `json:"layout"`
}

func bestOverallPage(rep *Report, date string) webBestOverall {
	y := rep.Year
	b := webBestOverall{ResultDate: date, Year: y, Results: fmt.Sprintf("results_%d", y), Participants: fmt.Sprintf("participants_%d", y),
		Track: trackKey(rep), Recognition: "best_overall", Layout: "result_comp"}
	get := func(k Kind) ([]webOverall, string, float64) {
		out := []webOverall{}
		for _, l := range rep.BestOverall[k] {
			out = append(out, webOverall{Name: l.Solver, Contribution: round6(l.Contribution), Division: l.Division, TieBreakTimeScore: round6(l.TieBreakTime)})
		}
		w, sc := OverallWinner(rep.BestOverall[k])
		if w == "" {
			w = "-"
		}
		return out, w, round6(sc)
	}
	b.Sequential, b.WinnerSeq, b.WinnerSeqScore = get(Sequential)
	b.Parallel, b.WinnerPar, b.WinnerParScore = get(Parallel)
	b.Sat, b.WinnerSat, b.WinnerSatScore = get(Sat)
	b.Unsat, b.WinnerUnsat, b.WinnerUnsatScore = get(Unsat)
	b.TwentyFour, b.Winner24s, b.Winner24sScore = get(TwentyFour)
	return b
}

type webSummary struct {
	Track     string        `json:"track"`
	Divisions []webDivision `json:"divisions"`
	Layout    string        `json:"layout"`
}

// round6 is the tool's float_6dig: Python's round(x, 6).
func round6(x float64) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return x
	}
	var r float64
	fmt.Sscan(fmt.Sprintf("%.6f", x), &r)
	return r
}

// webSuffix is the tool's page_track_suffix.
func webSuffix(t benchmark.Track) string {
	if t == benchmark.Proof {
		return "proof-exhibition"
	}
	return string(t)
}

func webSteps(rep *Report, r *Ranking) []webStep {
	out := []webStep{}
	if r == nil {
		return out
	}
	for i := range r.Entries {
		e := &r.Entries[i]
		comp := "yes" // 2024: the tool's TODO, every solver is marked competing
		st := webStep{Name: e.Solver, ErrorScore: int64(e.Error), CorrectScore: int64(e.Correct),
			CPUScore: round6(e.CPU), WallScore: round6(e.Wall), Solved: e.Solved, SolvedSat: e.SolvedSat, SolvedUnsat: e.SolvedUnsat,
			Unsolved: e.Unsolved, Abstained: e.Abstained, Timeout: e.Timeout, Memout: e.Memout}
		if rep.Year >= 2025 {
			if !e.Competitive {
				comp = "no"
			}
			b, d := baseDelta(rep.BaseSolvers, r, e)
			st.BaseSolver, st.DeltaBaseSolver = &b, &d
		}
		st.Competing = comp
		out = append(out, st)
	}
	return out
}

func webDiv(rep *Report, d *Division, date string, logics bool) webDivision {
	y := rep.Year
	w := webDivision{ResultDate: date, Year: y, Divisions: fmt.Sprintf("divisions_%d", y), Participants: fmt.Sprintf("participants_%d", y),
		Disagreements: fmt.Sprintf("disagreements_%d", y), Division: d.Name, Track: trackKey(rep), NBenchmarks: d.Benchmarks,
		TimeLimit: int(rep.TimeLimit), MemLimit: rep.MemLimit, Logics: map[string]int{}, Layout: "result"}
	if y >= 2025 {
		c := d.Competitive
		w.IsCompetitive = &c
	}
	if logics {
		for _, l := range d.Logics {
			w.Logics[l.Logic] = l.Benchmarks
		}
	}
	win := func(k Kind) string {
		if r := d.Ranking(k); r != nil && r.Winner != "" {
			return r.Winner
		}
		return "-"
	}
	w.WinnerSeq, w.WinnerPar, w.WinnerSat, w.WinnerUnsat, w.Winner24s = win(Sequential), win(Parallel), win(Sat), win(Unsat), win(TwentyFour)
	w.Sequential, w.Parallel, w.Sat = webSteps(rep, d.Ranking(Sequential)), webSteps(rep, d.Ranking(Parallel)), webSteps(rep, d.Ranking(Sat))
	w.Unsat, w.TwentyFour = webSteps(rep, d.Ranking(Unsat)), webSteps(rep, d.Ranking(TwentyFour))
	return w
}

func crossHeader[T any](rep *Report, date, recognition string, lines map[Kind][]T, winner func(T) string) webCross[T] {
	y := rep.Year
	c := webCross[T]{ResultDate: date, Year: y, Results: fmt.Sprintf("results_%d", y), Participants: fmt.Sprintf("participants_%d", y),
		Track: trackKey(rep), Recognition: recognition, Layout: "result_comp"}
	get := func(k Kind) ([]T, string) {
		ls := lines[k]
		if ls == nil {
			ls = []T{}
		}
		if len(ls) == 0 {
			return ls, "-"
		}
		return ls, winner(ls[0])
	}
	c.Sequential, c.WinnerSeq = get(Sequential)
	c.Parallel, c.WinnerPar = get(Parallel)
	c.Sat, c.WinnerSat = get(Sat)
	c.Unsat, c.WinnerUnsat = get(Unsat)
	c.TwentyFour, c.Winner24s = get(TwentyFour)
	return c
}

// WebPages renders a report as the JSON records of the website of 2024
// on, named as the tool names them (lower-case division or logic, then the
// track: qf_lia-incremental.md, biggest-lead-cloud.md, results-cloud.md).
func WebPages(rep *Report, date string) ([]Page, error) {
	suf := webSuffix(rep.Track)
	var out []Page
	at := map[string]int{}
	add := func(name string, v any) error {
		data, err := json.MarshalIndent(v, "", " ")
		if err != nil {
			return err
		}
		p := Page{Name: name + "-" + suf + ".md", Text: string(data)}
		if i, ok := at[p.Name]; ok {
			// A logic named as its division (no division table): the
			// tool writes the logic's record last, over the division's.
			out[i] = p
			return nil
		}
		at[p.Name] = len(out)
		out = append(out, p)
		return nil
	}
	summary := webSummary{Track: trackKey(rep), Divisions: []webDivision{}, Layout: "results_summary"}
	for i := range rep.Divisions {
		d := &rep.Divisions[i]
		w := webDiv(rep, d, date, true)
		if err := add(strings.ToLower(d.Name), w); err != nil {
			return nil, err
		}
		summary.Divisions = append(summary.Divisions, w)
		for j := range d.PerLogic {
			if err := add(strings.ToLower(d.PerLogic[j].Name), webDiv(rep, &d.PerLogic[j], date, false)); err != nil {
				return nil, err
			}
		}
	}
	if rep.BestOverall != nil {
		if err := add("best-overall", bestOverallPage(rep, date)); err != nil {
			return nil, err
		}
	}
	leads := map[Kind][]webLead{}
	for k, ls := range rep.BiggestLead {
		for _, l := range ls {
			leads[k] = append(leads[k], webLead{Name: l.First, Second: l.Second, CorrectScore: round6(l.Correctness), TimeScore: round6(l.Time), Division: l.Division})
		}
	}
	if err := add("biggest-lead", crossHeader(rep, date, "biggest_lead", leads, func(l webLead) string { return l.Name })); err != nil {
		return nil, err
	}
	contribs := map[Kind][]webContribution{}
	for k, cs := range rep.LargestContribution {
		for _, c := range cs {
			contribs[k] = append(contribs[k], webContribution{Name: c.Solver, CorrectScore: round6(c.Correctness), TimeScore: round6(c.Time),
				Division: c.Division, Experimental: "false"})
		}
	}
	if err := add("largest-contribution", crossHeader(rep, date, "largest_contribution", contribs, func(c webContribution) string { return c.Name })); err != nil {
		return nil, err
	}
	if err := add("results", summary); err != nil {
		return nil, err
	}
	return out, nil
}

// WriteWebJSON writes the pages of WebPages as one JSON object, file name
// to record.
func WriteWebJSON(w io.Writer, rep *Report, date string) error {
	pages, err := WebPages(rep, date)
	if err != nil {
		return err
	}
	all := map[string]json.RawMessage{}
	for _, p := range pages {
		all[p.Name] = json.RawMessage(p.Text)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(all)
}
