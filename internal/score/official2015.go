package score

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// The official computation of SMT-COMP 2015-2018. Those years' pages were
// not written by tools/scoring/score.py (2019 on) but by the OCaml programs
// of tools/results-processing/ in the SMT-COMP repository (commit
// 9ff1cdd372d05006ff0063afd56520aa7610d770: competition.ml and scoring.ml
// for the main track, compute_app_html.ml for the application
// (incremental) track, compute_ucore_html.ml for the unsat-core track; the
// versions stored are 2018's, earlier years ran earlier versions of the
// same programs). What they do, as smtarena reproduces it with --compat
// official --year 2015..2018 (docs/scoring.md, "2015-2018"):
//
//   - A run is read as StarExec wrote it: no memout or timeout penalty, the
//     measured CPU and wall-clock times; a run whose status is "pending
//     submission", "run script error" or "enqueued" is pending (neither
//     correct nor wrong, its times counted all the same).
//   - Main track: an answer is correct when the benchmark's status is that
//     answer or unknown, wrong when it is the other one, whatever the run's
//     status (raw_score). Application track: e = 1 and n = 0 when the run
//     has a wrong answer, else n = its correct answers. Unsat-core track: a
//     completed run with an answer is wrong when it said sat, its core is
//     erroneous or not parsable (parsable-unsat-core other than "true"),
//     else n is its reduction.
//   - The parallel score sums these as they are; the sequential score (not
//     published for the application track) zeroes e and n of a run whose
//     CPU time passed T and cuts that time to T (seq_score); the wall-clock
//     time is left as measured.
//   - From 2016 the main and unsat-core tracks weigh benchmarks by family
//     (the directory holding the file), e and n times N (alpha'_b * N, "Tjark's
//     fix"), times by alpha'_b alone; 2015 weighs nothing (its pages print
//     whole numbers of correct answers).
//   - Solvers are ranked by e, then n, both rounded to two decimals
//     (hackfp), then CPU time (sequential) or wall-clock then CPU time
//     (parallel). A division has a winner, the best competitive solver,
//     when it has two competitive solvers (2015: of two teams; the families
//     table of competition.ml), whatever that solver solved.
//   - Main track only: a solver with a wrong answer on a benchmark of known
//     status is unsound, and unknown-status benchmarks that sound solvers
//     answered both sat and unsat are removed, per division (each division
//     was a job of its own). The application and unsat-core programs
//     remove nothing.
//   - Solvers are the export's solver column (names), not StarExec ids.

// legacy says whether the scores are the official computation of 2015-2018.
func (s *scorer) legacy() bool { return s.official && legacyYear(s.o.Year) }

func legacyYear(year int) bool { return year >= 2015 && year <= 2018 }

// legacyKinds are the scores the 2015-2018 pages publish: the application
// track only the parallel one, the others both.
func legacyKinds(track benchmark.Track) []Kind {
	if track == benchmark.Incremental {
		return []Kind{Parallel}
	}
	return []Kind{Sequential, Parallel}
}

// legacyWeighted says whether a 2015-2018 track weighs benchmarks by family.
func legacyWeighted(year int, track benchmark.Track) bool {
	return year >= 2016 && track != benchmark.Incremental
}

// legacyScore is a run as the 2015-2018 programs score it (raw_score and
// seq_score).
func (s *scorer) legacyScore(r *rec, m *mode) (b bscore) {
	b.in = true
	b.timeout, b.memout = r.status == stTimeout, r.status == stMemout
	b.c, b.w = r.cpu, r.wall
	pending := r.status == stOther
	if !pending {
		switch s.o.Track {
		case benchmark.Incremental:
			if r.wrong > 0 {
				b.e = 1
			} else {
				b.n = float64(r.correct)
				b.solved = r.checks > 0 && r.correct == r.checks
			}
		case benchmark.UnsatCore:
			if r.status == stComplete && r.answer != aUnknown {
				// parsable-unsat-core other than "true" ("-"
				// included) is an unparsable core: the program's
				// default is false.
				if r.answer == aSat || r.coreErr || !r.coreOK {
					b.e = 1
				} else {
					b.n, b.solved = float64(r.reduct), true
				}
			}
		default:
			if decided(r.answer) {
				if r.expected == aUnknown || r.answer == r.expected {
					b.n, b.solved = 1, true
					b.sat, b.unsat = r.answer == aSat, r.answer == aUnsat
				} else {
					b.e = 1
				}
			}
		}
	}
	if m.seq && r.cpu > m.limit {
		b.e, b.n, b.solved, b.sat, b.unsat = 0, 0, false, false, false
		b.c = m.limit
	}
	if s.o.Track == benchmark.Incremental {
		b.unsolved = max(r.checks-int32(b.n), 0)
	} else if !b.solved {
		b.unsolved = 1
	}
	return b
}

// hundredths is OCaml's hackfp: x rounded to two decimals, half away from
// zero, as the programs compare e and n.
func hundredths(x float64) float64 { return math.Round(100 * x) }

// legacyCompare orders two entries as compare_seq and compare_parall do.
func legacyCompare(m *mode, a, b *Entry) int {
	c := firstOf(fcmp(hundredths(a.Error), hundredths(b.Error)), fcmp(hundredths(b.Correct), hundredths(a.Correct)))
	if c != 0 {
		return c
	}
	if m.seq {
		return fcmp(a.CPU, b.CPU)
	}
	return firstOf(fcmp(a.Wall, b.Wall), fcmp(a.CPU, b.CPU))
}

// legacyWinner names the best competitive solver of a division that has
// two competitive solvers, whatever it solved; "" otherwise.
func legacyWinner(rk *Ranking, competitive bool) string {
	if !competitive {
		return ""
	}
	for i := range rk.Entries {
		if rk.Entries[i].Competitive {
			return rk.Entries[i].Solver
		}
	}
	return ""
}

// droppedLegacy says why the official computation of 2015-2018 did not
// score a row: where the results hold reruns of timed-out pairs (2017),
// the original runs that timed out, as
// 2018/report/analysis/merge-2017-main-track-reruns.sh (SMT-COMP
// repository, commit 231efdbff17ba5865696f36dfb46f665d8f8513b) merged
// them: every row of the main job whose status says timeout is dropped
// and every rerun row kept; before 2017 the main track's benchmarks of unknown status
// were not part of the competition (they ran apart, with pages of their
// own: smt-comp.github.io 2016/results/*-unknown.md; score.py's
// skip_unknowns, "as done prior to 2017", and its -u option for the
// 2015-2018 report).
func droppedLegacy(r *Row, year int, track benchmark.Track, reruns bool) string {
	if reruns && !r.Rerun() && track == benchmark.SingleQuery && strings.HasPrefix(r.Status, "timeout") {
		return fmt.Sprintf("%d main track: a timeout of the main job, run again (Main_Track_Rerun_Timeouts)", year)
	}
	if year <= 2016 && track == benchmark.SingleQuery && parseAnswer(r.Expected) == aUnknown {
		return fmt.Sprintf("%d main track: a benchmark of unknown status, scored apart (the *-unknown pages)", year)
	}
	return ""
}

// legacyNonCompeting says whether a division had no winner by the
// organisers' decision: 2018's main track QF_SLIA (competition.ml,
// non_competing_division), and any division given as experimental.
func (s *scorer) legacyNonCompeting(division string) bool {
	if s.o.Year == 2018 && s.o.Track == benchmark.SingleQuery && division == "QF_SLIA" {
		return true
	}
	return slices.Contains(s.o.Experimental, division)
}

// OfficialSolvers is the registry that the programs of a year had built
// in, for --compat official without a registration table: the StarExec
// solver names mapped to the names the pages print, and the solvers the
// pages mark non-competing. Only 2018's programs are published
// (tools/results-processing at commits 9ff1cdd (scoring.ml:
// solver_short_names, non_competitive_solver), 2131bf5
// (compute_app_html.ml) and 33ef4c9 (compute_ucore_html.ml)); nil for
// other years.
func OfficialSolvers(year int, track benchmark.Track) Registry {
	if year != 2018 {
		return nil
	}
	reg := Registry{}
	add := func(nonCompeting []string, pairs ...string) {
		for i := 0; i+1 < len(pairs); i += 2 {
			name := pairs[i+1]
			reg[pairs[i]] = Solver{Name: name, Competitive: !slices.Contains(nonCompeting, pairs[i]), Team: name}
		}
	}
	switch track {
	case benchmark.Incremental:
		add([]string{"MathSAT", "Z3"},
			"Boolector", "Boolector", "CVC4", "CVC4", "MathSAT", "mathsat-5.5.2", "SMTInterpol", "SMTInterpol",
			"Yices", "Yices2", "Z3", "z3-4.7.1")
	case benchmark.UnsatCore:
		add([]string{"mathsat-5.5.2-linux-x86_64-Unsat-Core", "z3-4.7.1"},
			"master-2018-06-10-b19c840-proofs-unsat_cores", "CVC4", "SMTInterpol-2.5-19-g0d39cdee", "SMTInterpol",
			"mathsat-5.5.2-linux-x86_64-Unsat-Core", "mathsat-5.5.2", "Yices 2.6.0", "Yices 2.6.0", "z3-4.7.1", "z3-4.7.1")
	case benchmark.SingleQuery:
		add([]string{"z3-4.7.1", "mathsat-5.5.2-linux-x86_64-Main"},
			"Alt-Ergo-SMTComp-2018", "Alt-Ergo", "AProVE NIA 2014", "AProVE", "Boolector", "Boolector",
			"COLIBRI 10_06_18 v2038", "COLIBRI", "Ctrl-Ergo-SMTComp-2018", "Ctrl-Ergo",
			"CVC4-experimental-idl-2", "CVC4-experimental-idl-2", "master-2018-06-10-b19c840-competition-default", "CVC4",
			"mathsat-5.5.2-linux-x86_64-Main", "MathSAT", "Minkeyrink MT", "Minkeyrink-MT", "Minkeyrink ST", "Minkeyrink-ST",
			"opensmt2", "opensmt2", "Q3B", "Q3B", "SMTInterpol-2.5-19-g0d39cdee", "SMTInterpol",
			"SMTRAT-MCSAT-final", "SMTRAT-MCSAT", "SMTRAT-Rat-final", "SMTRAT-Rat", "SPASS-SATT", "SPASS-SATT",
			"STP-CMS-mt-2018", "STP-CMS-mt-2018", "STP-CMS-st-2018", "STP-CMS-st-2018", "STP-Riss-st-2018", "STP-Riss-st-2018",
			"vampire-4.3-smt", "vampire 4.3 (test)", "veriT", "veriT", "veriT+raSAT+Reduce", "veriT+raSAT+Reduce",
			"Yices 2.6.0", "Yices 2.6.0", "z3-4.7.1", "z3-4.7.1")
	default:
		return nil
	}
	return reg
}
