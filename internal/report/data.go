package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/smtarena/smtarena/internal/score"
)

// registerData adds the downloads: every table as CSV and JSON, the
// official results JSON, and the official site's YAML result pages.
func (s *Site) registerData() {
	for _, td := range s.tracks {
		td := td
		for _, d := range td.divs {
			for _, sc := range append([]*scope{d}, d.logics...) {
				sc := sc
				s.add("data/"+sc.base+".csv", func(w *bytes.Buffer) { scopeCSV(w, sc) })
				s.add("data/"+sc.base+".json", func(w *bytes.Buffer) { scopeJSON(w, sc) })
			}
		}
		base := "data/t/" + slug(td.name)
		s.add(base+"/results.csv", func(w *bytes.Buffer) { s.resultsCSV(w, td) })
		if rep := td.in.Score; rep != nil {
			s.add(base+"/scores.csv", func(w *bytes.Buffer) { _ = score.WriteCSV(w, rep) })
			s.add(base+"/official.json", func(w *bytes.Buffer) { _ = score.WriteJSON(w, rep, s.in.Generated) })
			for _, pg := range score.Pages(rep, s.in.Generated) {
				s.add(base+"/yaml/"+slug(pg.Name), func(w *bytes.Buffer) { w.WriteString(pg.Text) })
			}
			if rep.Year >= 2024 && rep.Compat == score.Official {
				if pages, err := score.WebPages(rep, s.in.Generated); err == nil {
					for _, pg := range pages {
						s.add(base+"/web/"+slug(pg.Name), func(w *bytes.Buffer) { w.WriteString(pg.Text) })
					}
				}
			}
		}
	}
	s.add("data/wrong.csv", func(w *bytes.Buffer) { s.refsCSV(w, s.wrong) })
	s.add("data/wrong.json", func(w *bytes.Buffer) {
		out := make([]map[string]string, 0, len(s.wrong))
		for _, r := range s.wrong {
			rec := s.resultRecord(s.tracks[r.t], r.r)
			m := make(map[string]string, len(rec))
			for i, h := range resultHeader {
				m[h] = rec[i]
			}
			out = append(out, m)
		}
		writeJSON(w, out)
	})
	s.add("data/disagreements.csv", func(w *bytes.Buffer) {
		cw := csv.NewWriter(w)
		_ = cw.Write([]string{"track", "division", "benchmark", "sat", "unsat"})
		for _, d := range s.disagree {
			_ = cw.Write([]string{d.track, d.division, s.benches[d.bench].path, strings.Join(d.sat, " "), strings.Join(d.unsat, " ")})
		}
		cw.Flush()
	})
	s.add("data/disagreements.json", func(w *bytes.Buffer) {
		type rec struct {
			Track     string   `json:"track"`
			Division  string   `json:"division"`
			Benchmark string   `json:"benchmark"`
			Sat       []string `json:"sat"`
			Unsat     []string `json:"unsat"`
		}
		out := []rec{}
		for _, d := range s.disagree {
			out = append(out, rec{d.track, d.division, s.benches[d.bench].path, d.sat, d.unsat})
		}
		writeJSON(w, out)
	})
	s.add("data/entrants.json", func(w *bytes.Buffer) { writeJSON(w, s.in.Meta.Entrants) })
}

func writeJSON(w *bytes.Buffer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	_ = enc.Encode(v) // values built here always encode
}

// tableRow is one line of a scope's downloadable table.
type tableRow struct {
	Kind        string  `json:"kind"`
	Rank        int     `json:"rank"`
	Solver      string  `json:"solver"`
	Competitive bool    `json:"competing"`
	Winner      bool    `json:"winner"`
	Error       float64 `json:"error"`
	Correct     float64 `json:"correct"`
	CPU         float64 `json:"cpu"`
	Wall        float64 `json:"wall"`
	Solved      int     `json:"solved"`
	SolvedSat   int     `json:"solved_sat"`
	SolvedUnsat int     `json:"solved_unsat"`
	Unsolved    int     `json:"unsolved"`
	Abstained   int     `json:"abstained"`
	Timeout     int     `json:"timeout"`
	Memout      int     `json:"memout"`
}

func scopeRows(sc *scope) []tableRow {
	out := []tableRow{}
	if sc.score == nil {
		return out
	}
	for _, rk := range sc.score.Rankings {
		for _, e := range rk.Entries {
			out = append(out, tableRow{string(rk.Kind), e.Rank, e.Solver, e.Competitive, e.Solver == rk.Winner && rk.Winner != "",
				e.Error, e.Correct, e.CPU, e.Wall, e.Solved, e.SolvedSat, e.SolvedUnsat, e.Unsolved, e.Abstained, e.Timeout, e.Memout})
		}
	}
	return out
}

func scopeCSV(w *bytes.Buffer, sc *scope) {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"kind", "rank", "solver", "competing", "winner", "error", "correct", "cpu", "wall", "solved", "solved_sat",
		"solved_unsat", "unsolved", "abstained", "timeout", "memout"})
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	for _, r := range scopeRows(sc) {
		_ = cw.Write([]string{r.Kind, strconv.Itoa(r.Rank), r.Solver, strconv.FormatBool(r.Competitive), strconv.FormatBool(r.Winner),
			f(r.Error), f(r.Correct), f(r.CPU), f(r.Wall), strconv.Itoa(r.Solved), strconv.Itoa(r.SolvedSat), strconv.Itoa(r.SolvedUnsat),
			strconv.Itoa(r.Unsolved), strconv.Itoa(r.Abstained), strconv.Itoa(r.Timeout), strconv.Itoa(r.Memout)})
	}
	cw.Flush()
}

func scopeJSON(w *bytes.Buffer, sc *scope) {
	writeJSON(w, struct {
		Track    string     `json:"track"`
		Division string     `json:"division"`
		Logic    string     `json:"logic,omitempty"`
		Results  int        `json:"results"`
		Rows     []tableRow `json:"rows"`
	}{sc.t.name, sc.div, map[bool]string{true: sc.name}[sc.name != sc.div], len(sc.results), scopeRows(sc)})
}

var resultHeader = []string{"track", "division", "solver", "configuration", "benchmark", "status", "answer", "expected", "cpu", "wall",
	"memory_mb", "wrong", "solved", "extra"}

func (s *Site) resultRecord(td *trackData, ri int32) []string {
	r := &td.in.Results[ri]
	info := td.res[ri]
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	return []string{td.name, info.div, r.Solver, r.Configuration, r.BenchmarkPath, r.Status, r.Answer, r.Expected, f(r.CPU), f(r.Wall),
		f(r.MemoryMB), strconv.FormatBool(info.wrong), strconv.FormatBool(info.solved), r.Extra}
}

func (s *Site) resultsCSV(w *bytes.Buffer, td *trackData) {
	cw := csv.NewWriter(w)
	_ = cw.Write(resultHeader)
	for ri := range td.in.Results {
		_ = cw.Write(s.resultRecord(td, int32(ri)))
	}
	cw.Flush()
}

func (s *Site) refsCSV(w *bytes.Buffer, refs []ref) {
	cw := csv.NewWriter(w)
	_ = cw.Write(resultHeader)
	for _, r := range refs {
		_ = cw.Write(s.resultRecord(s.tracks[r.t], r.r))
	}
	cw.Flush()
}

func (s *Site) downloadsPage(p *page) {
	p.raw("<p>Every table of the site as CSV and JSON; the official results JSON (PodiumDivision records) and the result pages with the YAML front matter the official website's layouts read.</p>")
	for _, td := range s.tracks {
		base := "data/t/" + slug(td.name)
		p.raw("<h2>")
		p.text(td.name + " track")
		p.raw("</h2><ul><li>")
		p.link(base+"/results.csv", "every result (CSV)")
		p.raw("</li>")
		if rep := td.in.Score; rep != nil {
			p.raw("<li>")
			p.link(base+"/scores.csv", "every division's scores (CSV)")
			p.raw("</li><li>")
			p.link(base+"/official.json", "official results JSON")
			p.raw("</li><li>YAML pages: ")
			for i, pg := range score.Pages(rep, s.in.Generated) {
				if i > 0 {
					p.raw(", ")
				}
				p.link(base+"/yaml/"+slug(pg.Name), pg.Name)
			}
			p.raw("</li>")
		}
		p.raw("<li>Per division: ")
		for i, d := range td.divs {
			if i > 0 {
				p.raw(", ")
			}
			p.text(d.name + " ")
			p.link("data/"+d.base+".csv", "CSV")
			p.raw(" ")
			p.link("data/"+d.base+".json", "JSON")
		}
		p.raw("</li></ul>")
	}
	p.raw("<h2>Across tracks</h2><ul><li>")
	p.links("</li><li>", "data/wrong.csv", "wrong answers (CSV)", "data/wrong.json", "wrong answers (JSON)", "data/disagreements.csv", "disagreements (CSV)",
		"data/disagreements.json", "disagreements (JSON)", "data/entrants.json", "entrants (JSON)")
	p.raw("</li></ul>")
}
