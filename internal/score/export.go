package score

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// Page is one published result page: a Markdown file whose YAML front
// matter holds the numbers (the SMT-COMP website's _results_YEAR pages).
type Page struct {
	Name string // e.g. QF_LIA-incremental.md
	Text string
}

// trackKey is the track's key in the pages (track_single_query; a
// challenge track's: track_single_query_challenge).
func trackKey(rep *Report) string {
	k := "track_" + strings.ReplaceAll(string(rep.Track), "-", "_")
	if rep.Challenge {
		k += "_challenge"
	}
	return k
}

// pageExt ends the names of the track's pages (-single-query.md; a
// challenge track's: -challenge-non-incremental.md, as it is stored).
func pageExt(rep *Report) string {
	switch {
	case rep.Challenge:
		return "-" + (Options{Track: rep.Track, Challenge: true}).StoredTrack() + ".md"
	case rep.Track == benchmark.Proof:
		return "-proof-exhibition.md"
	}
	return "-" + string(rep.Track) + ".md"
}

// pyFloat prints a float as Python's repr does (the official pages are
// written by Python): shortest round-trip digits, ".0" on integers.
func pyFloat(x float64) string {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return fmt.Sprint(x)
	}
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// round3 is Python's round(x, 3).
func round3(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 3, 64), 64)
	return v
}

// num prints a score: an integer when it is one (pandas sums of integer
// columns), else a Python float.
func num(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatInt(int64(x), 10)
	}
	return pyFloat(x)
}

func winnerOr(w string) string {
	if w == "" {
		return `"-"`
	}
	return w
}

var winnerKey = map[Kind]string{Sequential: "winner_seq", Parallel: "winner_par", Sat: "winner_sat", Unsat: "winner_unsat", TwentyFour: "winner_24s"}

// Pages renders a report as the SMT-COMP website's result pages (the 2019
// layout that the pages in official-results/2019/pages have): one page per
// division, the biggest lead and largest contribution pages (2022 rules),
// and the track's summary page. date is the resultdate line's value.
func Pages(rep *Report, date string) []Page {
	var out []Page
	for i := range rep.Divisions {
		out = append(out, Page{Name: rep.Divisions[i].Name + pageExt(rep), Text: divisionPage(rep, &rep.Divisions[i], date)})
	}
	out = append(out, logicPages(rep, date)...)
	if rep.Rules == 2022 {
		out = append(out, Page{Name: "biggest-lead" + pageExt(rep), Text: leadPage(rep, date)},
			Page{Name: "largest-contribution" + pageExt(rep), Text: contributionPage(rep, date)})
	}
	out = append(out, Page{Name: "results" + pageExt(rep), Text: summaryPage(rep)})
	return out
}

func divisionPage(rep *Report, d *Division, date string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\nlayout: result\nresultdate: %s\n\nyear: %d\n\ndivisions: divisions_%d\nparticipants: participants_%d\n\n", date, rep.Year, rep.Year, rep.Year)
	if rep.Year >= 2020 {
		fmt.Fprintf(&b, "disagreements: disagreements_%d\n", rep.Year)
	}
	fmt.Fprintf(&b, "division: %s\ntrack: %s\nn_benchmarks: %d\ntime_limit: %s\nmem_limit: %s\n", d.Name, trackKey(rep),
		d.Benchmarks, num(rep.TimeLimit), memLimit(rep))
	if len(d.Logics) > 1 || listsLogics(rep, d) {
		b.WriteString("logics:")
		for i, l := range d.Logics {
			if i == 0 {
				fmt.Fprintf(&b, "\n- %s: %d", l.Logic, l.Benchmarks)
			} else {
				fmt.Fprintf(&b, "\n  %s: %d", l.Logic, l.Benchmarks)
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	for _, r := range d.Rankings {
		fmt.Fprintf(&b, "%s: %s\n", winnerKey[r.Kind], winnerOr(r.Winner))
		if r.Kind == TwentyFour {
			b.WriteString("\n")
		}
	}
	for _, r := range d.Rankings {
		fmt.Fprintf(&b, "%s:\n", r.Kind)
		for _, e := range r.Entries {
			writeStep(&b, rep, &e)
		}
	}
	b.WriteString("---\n")
	return b.String()
}

func writeStep(b *strings.Builder, rep *Report, e *Entry) {
	comp := `"no"`
	if e.Competitive {
		comp = `"yes"`
	}
	fmt.Fprintf(b, "- name: %s\n  competing: %s\n  errorScore: %s\n  correctScore: %s\n", e.Solver, comp, num(e.Error), num(e.Correct))
	t := rep.Track
	if t != benchmark.Parallel && t != benchmark.Cloud {
		fmt.Fprintf(b, "  CPUScore: %s\n", pyFloat(round3(e.CPU)))
	}
	fmt.Fprintf(b, "  WallScore: %s\n", pyFloat(round3(e.Wall)))
	if t == benchmark.SingleQuery || t == benchmark.Parallel || t == benchmark.Cloud {
		fmt.Fprintf(b, "  solved: %d\n  solved_sat: %d\n  solved_unsat: %d\n", e.Solved, e.SolvedSat, e.SolvedUnsat)
	}
	if t != benchmark.UnsatCore && t != benchmark.ModelValidation {
		fmt.Fprintf(b, "  unsolved: %d\n", e.Unsolved)
		if rep.Compat != Official || rep.Year >= 2021 {
			fmt.Fprintf(b, "  abstained: %d\n", e.Abstained)
		}
	}
	fmt.Fprintf(b, "  timeout: %d\n  memout: %d\n", e.Timeout, e.Memout)
	if rep.Rules == 2006 {
		fmt.Fprintf(b, "  points: %s\n  time: %s\n  unknown: %d\n  wrong: %d\n  disqualified: %t\n", num(e.Points), pyFloat(round3(e.Time)), e.Unknown, e.Wrong, e.Disqualified)
	}
}

func compHeader(rep *Report, date, recognition string) string {
	return fmt.Sprintf("---\nlayout: result_comp\nresultdate: %s\n\nyear: %d\n\nresults: results_%d\nparticipants: participants_%d\n\ntrack: %s\nrecognition: %s\n",
		date, rep.Year, rep.Year, rep.Year, trackKey(rep), recognition)
}

func leadPage(rep *Report, date string) string {
	lines := []string{compHeader(rep, date, "biggest_lead")}
	var body []string
	for _, k := range rep.Kinds {
		ls := rep.BiggestLead[k]
		w := `"-"`
		for _, l := range ls {
			if !rep.Experimental[l.Division] {
				w = l.First
				break
			}
		}
		lines = append(lines, fmt.Sprintf("%s: %s", winnerKey[k], w))
		var es []string
		for _, l := range ls {
			es = append(es, fmt.Sprintf("- name: %s\n  second: %s\n  correctScore: %.8f\n  timeScore: %.8f\n  division: %s%s",
				l.First, l.Second, l.Correctness, l.Time, l.Division, experimentalLine(rep, l.Division)))
		}
		body = append(body, string(k)+":\n"+strings.Join(es, "\n"))
	}
	return strings.Join(lines, "\n") + "\n" + strings.Join(body, "\n") + "\n---\n"
}

func contributionPage(rep *Report, date string) string {
	lines := []string{compHeader(rep, date, "largest_contribution")}
	var body []string
	for _, k := range rep.Kinds {
		cs := rep.LargestContribution[k]
		w := `"-"`
		for _, c := range cs {
			if !rep.Experimental[c.Division] {
				w = c.Solver
				break
			}
		}
		// score.py writes the sat, unsat and 24 s winners as one block
		// ("winner_sat: ...\nwinner_unsat: ...\nwinner_24s: ...\n"), the
		// others each followed by a blank line (2020 single query).
		if k == Sat || k == Unsat {
			lines = append(lines, fmt.Sprintf("%s: %s", winnerKey[k], w))
		} else {
			lines = append(lines, fmt.Sprintf("%s: %s\n", winnerKey[k], w))
		}
		var es []string
		for _, c := range cs {
			exp := experimentalLine(rep, c.Division)
			if rep.Compat == Official && (k == Sat || k == Unsat || k == TwentyFour) && exp != "" {
				// score.py lists these three without --expdivs
				// (md_comp_get_div_largest_contribution(lc_sat.get(year,
				// ''))): every line says false.
				exp = "\n  experimental: false"
			}
			es = append(es, fmt.Sprintf("- name: %s\n  correctScore: %.8f\n  timeScore: %.8f\n  division: %s%s",
				c.Solver, c.Correctness, c.Time, c.Division, exp))
		}
		body = append(body, string(k)+":\n"+strings.Join(es, "\n"))
	}
	return strings.Join(lines, "\n") + "\n" + strings.Join(body, "\n") + "\n---\n"
}

// experimentalLine is the "experimental:" field that the competition-wide
// pages have from 2020 on (score.py's --expdivs).
func experimentalLine(rep *Report, division string) string {
	// The script prints the field since --expdivs came in (2020, when the
	// model-validation pages were made again in October with it); the
	// 2020 incremental and unsat-core pages, made in July, do not have it.
	if rep.Year < 2020 || (rep.Year == 2020 && len(rep.Experimental) == 0) {
		return ""
	}
	return fmt.Sprintf("\n  experimental: %t", rep.Experimental[division])
}

func summaryPage(rep *Report) string {
	var ks []string
	for _, k := range rep.Kinds {
		ks = append(ks, string(k))
	}
	dis := ""
	if rep.Year >= 2020 {
		dis = fmt.Sprintf("disagreements: disagreements_%d\n", rep.Year)
	}
	return fmt.Sprintf("---\nlayout: results_summary\ntrack: %s\nscores: %s\nyear: %d\nresults: results_%d\ndivisions: divisions_%d\nparticipants: participants_%d\n%s---\n",
		trackKey(rep), strings.Join(ks, ","), rep.Year, rep.Year, rep.Year, rep.Year, dis)
}

// WriteYAML writes every page, each preceded by a comment naming its file.
func WriteYAML(w io.Writer, rep *Report, date string) error {
	for _, p := range Pages(rep, date) {
		if _, err := fmt.Fprintf(w, "# %s\n%s", p.Name, p.Text); err != nil {
			return err
		}
	}
	return nil
}

// The official results JSON: the SMT-COMP website's PodiumDivision and
// PodiumStep records (smtcomp/generate_website_page.py), inside a
// results_summary object, with the competition-wide rankings beside.
type jsonStep struct {
	Name         string   `json:"name"`
	Competing    string   `json:"competing"`
	ErrorScore   float64  `json:"errorScore"`
	CorrectScore float64  `json:"correctScore"`
	CPUScore     float64  `json:"CPUScore"`
	WallScore    float64  `json:"WallScore"`
	Solved       int      `json:"solved"`
	SolvedSat    int      `json:"solved_sat"`
	SolvedUnsat  int      `json:"solved_unsat"`
	Unsolved     int      `json:"unsolved"`
	Abstained    int      `json:"abstained"`
	Timeout      int      `json:"timeout"`
	Memout       int      `json:"memout"`
	Rank         int      `json:"rank,omitempty"`
	Points       *float64 `json:"points,omitempty"`
	Time         *float64 `json:"time,omitempty"`
	Unknown      *int     `json:"unknown,omitempty"`
	Wrong        *int     `json:"wrong,omitempty"`
	Disqualified bool     `json:"disqualified,omitempty"`
}

type jsonDivision struct {
	ResultDate    string         `json:"resultdate"`
	Year          int            `json:"year"`
	Divisions     string         `json:"divisions"`
	Participants  string         `json:"participants"`
	Disagreements string         `json:"disagreements"`
	Division      string         `json:"division"`
	IsCompetitive bool           `json:"is_competitive"`
	Track         string         `json:"track"`
	NBenchmarks   int            `json:"n_benchmarks"`
	TimeLimit     float64        `json:"time_limit"`
	MemLimit      int            `json:"mem_limit"`
	Logics        map[string]int `json:"logics"`
	WinnerSeq     string         `json:"winner_seq"`
	WinnerPar     string         `json:"winner_par"`
	WinnerSat     string         `json:"winner_sat"`
	WinnerUnsat   string         `json:"winner_unsat"`
	Winner24s     string         `json:"winner_24s"`
	Sequential    []jsonStep     `json:"sequential"`
	Parallel      []jsonStep     `json:"parallel"`
	Sat           []jsonStep     `json:"sat"`
	Unsat         []jsonStep     `json:"unsat"`
	TwentyFour    []jsonStep     `json:"twentyfour"`
	PerLogic      []jsonDivision `json:"per_logic,omitempty"`
	Layout        string         `json:"layout"`
	// smtarena's addition: the model validator's verdicts per solver.
	ModelVerdicts []jsonVerdicts `json:"model_verdicts,omitempty"`
}

// jsonVerdicts is a solver's model-validation verdicts in a division.
type jsonVerdicts struct {
	Name     string         `json:"name"`
	Results  int            `json:"results"`
	Valid    int            `json:"valid"`
	Invalid  int            `json:"invalid"`
	Unknown  int            `json:"unknown"`
	Verdicts map[string]int `json:"verdicts"`
}

type jsonLead struct {
	Name         string  `json:"name"`
	Second       string  `json:"second"`
	CorrectScore float64 `json:"correctScore"`
	TimeScore    float64 `json:"timeScore"`
	Division     string  `json:"division"`
}

type jsonContribution struct {
	Name         string  `json:"name"`
	CorrectScore float64 `json:"correctScore"`
	TimeScore    float64 `json:"timeScore"`
	Division     string  `json:"division"`
}

type jsonSummary struct {
	Track               string                      `json:"track"`
	Rules               int                         `json:"rules"`
	RuleSet             int                         `json:"rule_set"`
	Document            int                         `json:"rules_text,omitempty"` // from 2019: the year's text applied
	Compat              string                      `json:"compat,omitempty"`
	Divisions           []jsonDivision              `json:"divisions"`
	Disagreements       []Disagreement              `json:"disagreements"`
	BiggestLead         map[Kind][]jsonLead         `json:"biggest_lead,omitempty"`
	LargestContribution map[Kind][]jsonContribution `json:"largest_contribution,omitempty"`
	CompetitionWide     map[Kind][]WideScore        `json:"competition_wide,omitempty"`
	Recognitions        []Recognition               `json:"recognitions,omitempty"`
	Layout              string                      `json:"layout"`
}

func stepsOf(rep *Report, r *Ranking) []jsonStep {
	out := []jsonStep{}
	if r == nil {
		return out
	}
	for _, e := range r.Entries {
		comp := "no"
		if e.Competitive {
			comp = "yes"
		}
		st := jsonStep{Name: e.Solver, Competing: comp, ErrorScore: e.Error, CorrectScore: e.Correct,
			CPUScore: math.Round(e.CPU*1e6) / 1e6, WallScore: math.Round(e.Wall*1e6) / 1e6, Solved: e.Solved, SolvedSat: e.SolvedSat,
			SolvedUnsat: e.SolvedUnsat, Unsolved: e.Unsolved, Abstained: e.Abstained, Timeout: e.Timeout, Memout: e.Memout, Rank: e.Rank}
		if rep.Rules == 2006 {
			p, t, u, w := e.Points, e.Time, e.Unknown, e.Wrong
			st.Points, st.Time, st.Unknown, st.Wrong, st.Disqualified = &p, &t, &u, &w, e.Disqualified
		}
		out = append(out, st)
	}
	return out
}

func jsonDiv(rep *Report, d *Division, date string) jsonDivision {
	j := jsonDivision{ResultDate: date, Year: rep.Year, Divisions: fmt.Sprintf("divisions_%d", rep.Year),
		Participants: fmt.Sprintf("participants_%d", rep.Year), Disagreements: fmt.Sprintf("disagreements_%d", rep.Year),
		Division: d.Name, IsCompetitive: d.Competitive, Track: trackKey(rep), NBenchmarks: d.Benchmarks,
		TimeLimit: rep.TimeLimit, MemLimit: rep.MemLimit, Logics: map[string]int{}, Layout: "result"}
	for _, l := range d.Logics {
		j.Logics[l.Logic] = l.Benchmarks
	}
	w := func(k Kind) string {
		if r := d.Ranking(k); r != nil && r.Winner != "" {
			return r.Winner
		}
		return "-"
	}
	j.WinnerSeq, j.WinnerPar, j.WinnerSat, j.WinnerUnsat, j.Winner24s = w(Sequential), w(Parallel), w(Sat), w(Unsat), w(TwentyFour)
	j.Sequential, j.Parallel, j.Sat = stepsOf(rep, d.Ranking(Sequential)), stepsOf(rep, d.Ranking(Parallel)), stepsOf(rep, d.Ranking(Sat))
	j.Unsat, j.TwentyFour = stepsOf(rep, d.Ranking(Unsat)), stepsOf(rep, d.Ranking(TwentyFour))
	for i := range d.PerLogic {
		j.PerLogic = append(j.PerLogic, jsonDiv(rep, &d.PerLogic[i], date))
	}
	for _, v := range d.Verdicts {
		j.ModelVerdicts = append(j.ModelVerdicts, jsonVerdicts{Name: v.Solver, Results: v.Results, Valid: v.Valid, Invalid: v.Invalid, Unknown: v.Unknown, Verdicts: v.Verdicts})
	}
	return j
}

// WriteJSON writes the report in the shape of the official results JSON.
func WriteJSON(w io.Writer, rep *Report, date string) error {
	out := jsonSummary{Track: trackKey(rep), Rules: rep.Asked, RuleSet: rep.Rules, Document: rep.Document, Compat: string(rep.Compat), Layout: "results_summary",
		Divisions: []jsonDivision{}, Disagreements: rep.Disagreements, CompetitionWide: rep.CompetitionWide, Recognitions: rep.Recognitions}
	if out.Disagreements == nil {
		out.Disagreements = []Disagreement{}
	}
	for i := range rep.Divisions {
		out.Divisions = append(out.Divisions, jsonDiv(rep, &rep.Divisions[i], date))
	}
	if rep.BiggestLead != nil {
		out.BiggestLead = map[Kind][]jsonLead{}
		for k, ls := range rep.BiggestLead {
			out.BiggestLead[k] = []jsonLead{}
			for _, l := range ls {
				out.BiggestLead[k] = append(out.BiggestLead[k], jsonLead{Name: l.First, Second: l.Second, CorrectScore: l.Correctness, TimeScore: l.Time, Division: l.Division})
			}
		}
		out.LargestContribution = map[Kind][]jsonContribution{}
		for k, cs := range rep.LargestContribution {
			out.LargestContribution[k] = []jsonContribution{}
			for _, c := range cs {
				out.LargestContribution[k] = append(out.LargestContribution[k], jsonContribution{Name: c.Solver, CorrectScore: c.Correctness, TimeScore: c.Time, Division: c.Division})
			}
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

var csvHeader = []string{"division", "logic", "kind", "rank", "solver", "competing", "winner", "error", "correct", "cpu", "wall",
	"solved", "solved_sat", "solved_unsat", "unsolved", "abstained", "timeout", "memout"}

// WriteCSV writes one line per division, score kind and solver (per-logic
// breakdowns with their logic in the second column).
func WriteCSV(w io.Writer, rep *Report) error {
	cw := csv.NewWriter(w)
	head := csvHeader
	if rep.Rules == 2006 {
		head = append(append([]string(nil), head...), "points", "time", "unknown", "wrong", "disqualified")
	}
	verdicts := hasVerdicts(rep)
	if verdicts {
		head = append(append([]string(nil), head...), "model_valid", "model_invalid", "model_unknown", "model_verdicts")
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	byDiv := map[string]*Division{}
	for i := range rep.Divisions {
		byDiv[rep.Divisions[i].Name] = &rep.Divisions[i]
	}
	verdictsOf := func(div, solver string) SolverVerdicts {
		if d := byDiv[div]; d != nil {
			for _, v := range d.Verdicts {
				if v.Solver == solver {
					return v
				}
			}
		}
		return SolverVerdicts{}
	}
	var emit func(div, logic string, d *Division) error
	emit = func(div, logic string, d *Division) error {
		for _, r := range d.Rankings {
			for _, e := range r.Entries {
				rec := []string{div, logic, string(r.Kind), strconv.Itoa(e.Rank), e.Solver, yesNo(e.Competitive), strconv.FormatBool(e.Solver == r.Winner),
					num(e.Error), num(e.Correct), pyFloat(round3(e.CPU)), pyFloat(round3(e.Wall)),
					strconv.Itoa(e.Solved), strconv.Itoa(e.SolvedSat), strconv.Itoa(e.SolvedUnsat), strconv.Itoa(e.Unsolved),
					strconv.Itoa(e.Abstained), strconv.Itoa(e.Timeout), strconv.Itoa(e.Memout)}
				if rep.Rules == 2006 {
					rec = append(rec, num(e.Points), pyFloat(round3(e.Time)), strconv.Itoa(e.Unknown), strconv.Itoa(e.Wrong), strconv.FormatBool(e.Disqualified))
				}
				if verdicts {
					v := verdictsOf(div, e.Solver)
					rec = append(rec, strconv.Itoa(v.Valid), strconv.Itoa(v.Invalid), strconv.Itoa(v.Unknown), v.VerdictList("; "))
				}
				if err := cw.Write(rec); err != nil {
					return err
				}
			}
		}
		for i := range d.PerLogic {
			if err := emit(div, d.PerLogic[i].Name, &d.PerLogic[i]); err != nil {
				return err
			}
		}
		return nil
	}
	for i := range rep.Divisions {
		if err := emit(rep.Divisions[i].Name, "", &rep.Divisions[i]); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// WriteTable writes the report for a terminal: per division and score,
// the ranking; then the competition-wide rankings and recognitions. The
// 2006 rules get the paper's columns (Score, Time, Unsat, Sat, Unknown,
// Timeout, Wrong).
func WriteTable(w io.Writer, rep *Report) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	compat := ""
	if rep.Compat == Official {
		compat = ", official computation"
	}
	rules := strconv.Itoa(rep.Rules)
	switch {
	case rep.Compat == Official && rep.Year >= 2024:
		rules, compat = strconv.Itoa(rep.Asked), ", official computation (the smtcomp tool)"
	case rep.Compat == Official && rep.Year >= 2019:
		rules, compat = strconv.Itoa(rep.Asked), fmt.Sprintf(", official computation (score.py of %d)", rep.Year)
	case rep.Compat == Official && legacyYear(rep.Year):
		rules, compat = strconv.Itoa(rep.Asked), fmt.Sprintf(", official computation (the results-processing programs of %d)", rep.Year)
	case rep.Document != 0 && rep.Document != rep.Asked:
		rules = fmt.Sprintf("%d (the %d text)", rep.Asked, rep.Document)
	case rep.Document != 0:
		rules = strconv.Itoa(rep.Asked)
	case rep.Asked != rep.Rules:
		rules = fmt.Sprintf("%d (the %d document's §7)", rep.Asked, rep.Rules)
	}
	fmt.Fprintf(tw, "%s track of %d, %s rules%s, T = %s s\n", rep.Track, rep.Year, rules, compat, num(rep.TimeLimit))
	var div func(d *Division, indent string)
	div = func(d *Division, indent string) {
		comp := ""
		if !d.Competitive {
			comp = ", not competitive"
		}
		if d.Experimental {
			comp += ", experimental"
		}
		fmt.Fprintf(tw, "\n%s%s: %d benchmarks%s\n", indent, d.Name, d.Benchmarks, comp)
		for _, r := range d.Rankings {
			fmt.Fprintf(tw, "%s  %s: winner %s\n", indent, r.Kind, winnerOr(r.Winner))
			if rep.Rules == 2006 {
				fmt.Fprintf(tw, "%s    rank\tsolver\tScore\tTime\tUnsat\tSat\tUnknown\tTimeout\tWrong\t\n", indent)
				for _, e := range r.Entries {
					note := ""
					if e.Disqualified {
						note = "disqualified"
					}
					fmt.Fprintf(tw, "%s    %s\t%s\t%s\t%.1f\t%d\t%d\t%d\t%d\t%d\t%s\n", indent, rankOf(e), e.Solver, num(e.Points), e.Time,
						e.SolvedUnsat, e.SolvedSat, e.Unknown, e.Timeout, e.Wrong, note)
				}
				continue
			}
			fmt.Fprintf(tw, "%s    rank\tsolver\terror\tcorrect\tCPU\twall\tsolved\tunsolved\ttimeout\tmemout\t\n", indent)
			for _, e := range r.Entries {
				fmt.Fprintf(tw, "%s    %s\t%s\t%s\t%s\t%.3f\t%.3f\t%d\t%d\t%d\t%d\t\n", indent, rankOf(e), e.Solver, num(e.Error), fmtScore(e.Correct),
					e.CPU, e.Wall, e.Solved, e.Unsolved, e.Timeout, e.Memout)
			}
		}
		if len(d.Verdicts) > 0 {
			fmt.Fprintf(tw, "%s  model-validation verdicts\n", indent)
			fmt.Fprintf(tw, "%s    solver\tresults\tvalid\tinvalid\tunknown\tverdicts and reasons\t\n", indent)
			for _, v := range d.Verdicts {
				fmt.Fprintf(tw, "%s    %s\t%d\t%d\t%d\t%d\t%s\t\n", indent, v.Solver, v.Results, v.Valid, v.Invalid, v.Unknown, v.VerdictList(", "))
			}
		}
		for i := range d.PerLogic {
			div(&d.PerLogic[i], indent+"  ")
		}
	}
	for i := range rep.Divisions {
		div(&rep.Divisions[i], "")
	}
	if rep.Track == benchmark.ModelValidation && len(rep.Divisions) > 0 && !hasVerdicts(rep) {
		fmt.Fprintf(tw, "\n(no model-validation verdicts in these results)\n")
	}
	if len(rep.Disagreements) > 0 {
		fmt.Fprintf(tw, "\n%d benchmarks removed: sound solvers disagreed\n", len(rep.Disagreements))
		for _, d := range rep.Disagreements {
			fmt.Fprintf(tw, "  %s\t%s\tsat: %s\tunsat: %s\n", d.Division, d.Benchmark, strings.Join(d.Sat, ", "), strings.Join(d.Unsat, ", "))
		}
	}
	for _, k := range rep.Kinds {
		if ls := rep.BiggestLead[k]; len(ls) > 0 {
			fmt.Fprintf(tw, "\nbiggest lead, %s\n", k)
			for _, l := range ls {
				fmt.Fprintf(tw, "  %s\tover %s\t%.8f\t%.8f\t%s\n", l.First, l.Second, l.Correctness, l.Time, l.Division)
			}
		}
		if cs := rep.LargestContribution[k]; len(cs) > 0 {
			fmt.Fprintf(tw, "\nlargest contribution, %s\n", k)
			for _, c := range cs {
				fmt.Fprintf(tw, "  %s\t%.8f\t%.8f\t%s\n", c.Solver, c.Correctness, c.Time, c.Division)
			}
		}
		if ws := rep.CompetitionWide[k]; len(ws) > 0 {
			fmt.Fprintf(tw, "\ncompetition-wide score, %s\n", k)
			for _, x := range ws {
				fmt.Fprintf(tw, "  %s\t%.6f\t%d divisions\t%s\n", x.Solver, x.Score, x.Divisions, map[bool]string{true: "", false: "(not competing)"}[x.Competitive])
			}
		}
	}
	if len(rep.Recognitions) > 0 {
		fmt.Fprintf(tw, "\nrecognitions\n")
		for _, r := range rep.Recognitions {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", r.Name, r.Solver, r.Division, fmtScore(r.Value), r.Note)
		}
	}
	return tw.Flush()
}

func rankOf(e Entry) string {
	if e.Rank == 0 {
		return "-"
	}
	return strconv.Itoa(e.Rank)
}

func fmtScore(x float64) string {
	if x == math.Trunc(x) {
		return num(x)
	}
	return strconv.FormatFloat(x, 'f', 4, 64)
}

// hasVerdicts tells whether some division has model-validation verdicts.
func hasVerdicts(rep *Report) bool {
	for _, d := range rep.Divisions {
		if len(d.Verdicts) > 0 {
			return true
		}
	}
	return false
}
