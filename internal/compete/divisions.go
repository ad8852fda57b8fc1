package compete

import (
	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/config"
)

// teamOf is the team a solver counts for: its team, or its own name when
// none is given (each such solver is a team of its own, as in scoring).
func teamOf(s *config.Solver) string {
	if s.Team != "" {
		return s.Team
	}
	return s.Name
}

// entrants counts who competes in some logics of a track: the teams of the
// competitive solvers that support at least one of them (2018 §7.1, 2022
// §6: "at least two substantially different solvers (i.e., solvers from
// two different teams)"), or the competitive solvers themselves under the
// rules before 2018 (2014 §2: "at least two solvers are submitted"; 2006
// has no rule and is read as 2014). Solvers the organisers add
// (competitive = false) do not count.
func entrants(def *config.Competition, t benchmark.Track, logics []string) int {
	seen := map[string]bool{}
	for i := range def.Solvers {
		s := &def.Solvers[i]
		if !s.IsCompetitive() || !solverInDivision(s, t, logics) {
			continue
		}
		who := teamOf(s)
		if def.Rules < 2018 {
			who = s.Name
		}
		seen[who] = true
	}
	return len(seen)
}

// Competitive reports whether a division of a track (its logics) is
// competitive: entered by competitive solvers of two different teams
// (2018, 2022), or by two competitive solvers (2006, 2014). The proof
// exhibition track is never competitive (2022 §5.8).
func Competitive(def *config.Competition, t benchmark.Track, logics []string) bool {
	if t == benchmark.Proof {
		return false
	}
	return entrants(def, t, logics) >= 2
}

// runLogics decides which logics of a track are run. 2022 §6 does not run
// non-competitive divisions, and 2022 §3 does not run a logic of a
// competitive division that only one team's competitive solvers enter
// (read with §6's team rule: two solvers of one team are one entrant).
// The 2018 and 2014 rules run every division and declare winners only in
// competitive ones (2018 §7.1: "Scores will be computed for all solvers
// and divisions"; 2014 §4: the others are "exhibition divisions"). The
// proof exhibition track has no winners and runs every division a solver
// enters. skipped lists the divisions (or logics) left out, with why.
func runLogics(def *config.Competition, t benchmark.Track, divisions map[string][]string) (run map[string]bool, skipped []skippedDivision) {
	run = map[string]bool{}
	for d, ls := range divisions {
		if def.Rules < 2022 || t == benchmark.Proof {
			for _, l := range ls {
				run[l] = true
			}
			continue
		}
		if !Competitive(def, t, ls) {
			skipped = append(skipped, skippedDivision{Division: d, Reason: "division not competitive: fewer than two teams"})
			continue
		}
		for _, l := range ls {
			if entrants(def, t, []string{l}) >= 2 {
				run[l] = true
			} else {
				skipped = append(skipped, skippedDivision{Division: d, Logic: l, Reason: "logic not competitive: fewer than two teams"})
			}
		}
	}
	return run, skipped
}

// skippedDivision is a division, or a logic of one, that is not run.
type skippedDivision struct {
	Division, Logic, Reason string
}
