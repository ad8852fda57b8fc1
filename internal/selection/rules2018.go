package selection

import "github.com/smtarena/smtarena/internal/benchmark"

// rules2018 follows section 6 of the 2018 rules: "All remaining benchmarks
// are used for the competition. There will be no further selection of
// benchmarks", so there is no random draw. The "inappropriate" benchmarks
// of step 1 are the organizers' call: leave them out of the candidates.
func (s *selector) rules2018(m []int) {
	for _, i := range m {
		c := &s.cands[i]
		switch s.opts.Track {
		case benchmark.Incremental:
			// "If an incremental benchmark contains a check-sat command
			// whose status is unknown, only the prefix of the benchmark up
			// to the preceding check-sat command is eligible ...; if the
			// benchmark's first check-sat command has unknown status, the
			// entire benchmark is ineligible."
			if k := knownPrefix(c); k > 0 {
				s.keep(i, k, All)
			} else {
				s.drop(FirstCheckSatUnknown, 1)
			}
		case benchmark.UnsatCore:
			// "The unsat-core track will use unsatisfiable main track
			// benchmarks": status unsat, not unknown ("for problems that
			// are known to be unsatisfiable").
			if c.Status == benchmark.Unsat {
				s.keep(i, c.CheckSats, All)
			} else {
				s.drop(WrongStatus, 1)
			}
		default:
			s.keep(i, c.CheckSats, All)
		}
	}
}

// knownPrefix is how many check-sats of an incremental script come before
// its first one of unknown status. A check-sat without a :status
// annotation (Statuses shorter than CheckSats) has unknown status; a
// script without check-sat has no eligible prefix.
func knownPrefix(c *Candidate) int {
	n := max(c.CheckSats, len(c.Statuses))
	for k := 0; k < n; k++ {
		if k >= len(c.Statuses) || (c.Statuses[k] != benchmark.Sat && c.Statuses[k] != benchmark.Unsat) {
			return k
		}
	}
	return n
}
