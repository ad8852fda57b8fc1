package score

import (
	"strconv"
	"strings"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// The official computation of the cloud and parallel tracks of 2021-2023
// (tools/scoring/score.py as 2022/scoring/make_mds.sh and 2023/scoring/
// make_mds.sh call it: -T ct or -T pt, -t 1200, -D new-divisions.json).
// docs/scoring.md lists where it departs from the rules.

// aOther is an answer the 2022 AWS join script (2022/results/cloud-
// parallel/join.py) copied from the AWS runs as it was: "timeout",
// "unknown", "error", "failure". score.py takes only "starexec-unknown"
// for no answer, so on a benchmark of known status such a row is a wrong
// answer (and makes its solver unsound for the removal of disagreements);
// it is never a correct one. 2021's mapResults.py and 2023's join.py
// turned these strings into starexec-unknown, so only 2022 has them.
const aOther uint8 = aUnsat + 1

// decided says whether an answer is sat or unsat.
func decided(a uint8) bool { return a == aSat || a == aUnsat }

// rawAWSAnswers says whether the rows' answers are the 2022 AWS strings
// that the official script took for answers.
func (s *scorer) rawAWSAnswers() bool {
	return s.official && s.o.Year == 2022 && (s.o.Track == benchmark.Cloud || s.o.Track == benchmark.Parallel)
}

// answerOf interns a row's answer; see aOther.
func (s *scorer) answerOf(a string) uint8 {
	x := parseAnswer(a)
	if x == aUnknown && s.rawAWSAnswers() {
		if t := strings.TrimSpace(a); t != "" && t != "starexec-unknown" {
			return aOther
		}
	}
	return x
}

// logicPages says whether the official computation scores every logic of
// a division on its own as well (score.py with a divisions map, -D, as
// 2021-2023 ran it): every logic gets a page, each division's page lists
// its logics with their benchmarks (even a division of one logic), and
// "abstained" is the page's benchmarks less the solved and unsolved rows.
func (s *scorer) logicPages() bool {
	return officialLogicPages(s.o.Compat, s.o.Year) && len(s.o.Divisions) > 0
}

func officialLogicPages(c Compat, year int) bool {
	return c == Official && year >= 2021 && year <= 2023
}

// orderLogics puts a division's logics in the order of the divisions map,
// as score.py lists them (it sorts a copy and prints the original).
func (s *scorer) orderLogics(d *Division, di int) {
	pos := map[string]int{}
	for i, li := range s.divLogic[di] {
		pos[s.logics[li]] = i
	}
	ls := d.Logics
	for i := 1; i < len(ls); i++ {
		for j := i; j > 0 && pos[ls[j].Logic] < pos[ls[j-1].Logic]; j-- {
			ls[j], ls[j-1] = ls[j-1], ls[j]
		}
	}
}

// logicPages are the pages of the logics of every division, which score.py
// writes beside the divisions' when it is given a divisions map (2021-
// 2023): QF_LIA-cloud.md beside QF_LinearIntArith-cloud.md. A logic named
// like a division gets none (score.py would mix the two in one group).
func logicPages(rep *Report, date string) []Page {
	if !officialLogicPages(rep.Compat, rep.Year) {
		return nil
	}
	divs := map[string]bool{}
	for i := range rep.Divisions {
		divs[rep.Divisions[i].Name] = true
	}
	var out []Page
	for i := range rep.Divisions {
		for j := range rep.Divisions[i].PerLogic {
			l := &rep.Divisions[i].PerLogic[j]
			if divs[l.Name] {
				continue
			}
			out = append(out, Page{Name: l.Name + pageExt(rep), Text: divisionPage(rep, l, date)})
		}
	}
	return out
}

// listsLogics says whether a division page of one logic lists it:
// score.py does on a division's page (not on a logic's) when it has a
// divisions map.
func listsLogics(rep *Report, d *Division) bool {
	return officialLogicPages(rep.Compat, rep.Year) && len(d.Logics) == 1 && d.Logics[0].Logic != d.Name
}

// memLimit is the mem_limit a page prints: score.py prints "N/A" for the
// cloud and parallel tracks, whose machines had no set limit.
func memLimit(rep *Report) string {
	if rep.Compat == Official && (rep.Track == benchmark.Cloud || rep.Track == benchmark.Parallel) {
		return "N/A"
	}
	return strconv.Itoa(rep.MemLimit)
}

// timeOnlySolved: from 2023 the rules (rules23.tex, "Wall-Clock Time
// Score", "CPU Time Score") count no time for a benchmark not correctly
// solved within the limit, and the 2023 pages show it: 2023's
// Equality+LinearArith-parallel.md gives iProver one solved benchmark,
// 102 unsolved and a WallScore of 45.246; in its 24-seconds score 97 of
// Vampire's 103 rows time out and its WallScore is that of the 6 solved.
// 2022's pages still count every row's time (QF_LIA-cloud.md: cvc5-cloud,
// 1 solved, WallScore 26489.009).
func (s *scorer) timeOnlySolved() bool {
	return s.o.Year == 2023 && s.o.Track != benchmark.Incremental
}

// OfficialExperimental is what the organisers' make_mds.sh of a year gave
// score.py as --expdivs, the divisions marked experimental on the
// competition-wide pages (model validation only; the proof-exhibition
// track, 2022-2023, had every division experimental and no scores):
//   - 2020/scoring/make_mds.sh: QF_LIA, QF_IDL, QF_LRA, QF_RDL, QF_LIRA;
//   - 2021/scoring/make_mds.sh (commit a58ff5c68957d98b31b3998768c9ef295c70e7a8):
//     QF_Equality, QF_Equality+LinearArith, QF_Equality+Bitvec, the
//     divisions of the logics of 2021/experimental.csv;
//   - 2022/scoring/make_mds.sh (commit 4a5a0afafd62de33675f56edd41b08e7355763b3)
//     and 2023/scoring/make_mds.sh (commit c1a9f916b44c9c93931bf7c77c381a65a1c7a957):
//     QF_FPArith alone, though 2023/experimental.csv lists six more
//     (QF_ADT+BitVec, QF_ADT+LinArith, QF_Datatypes,
//     QF_Equality+NonLinearArith, QF_NonLinearIntArith,
//     QF_NonLinearRealArith).
func OfficialExperimental(year int, track benchmark.Track) []string {
	if track != benchmark.ModelValidation {
		return nil
	}
	switch year {
	case 2020:
		return []string{"QF_LIA", "QF_IDL", "QF_LRA", "QF_RDL", "QF_LIRA"}
	case 2021:
		return []string{"QF_Equality", "QF_Equality+LinearArith", "QF_Equality+Bitvec"}
	case 2022, 2023:
		return []string{"QF_FPArith"}
	}
	return nil
}
