package validate

import (
	"fmt"
	"sort"

	"github.com/smtarena/smtarena/internal/smtlib"
)

// Named lists a benchmark's top-level assertions: how many there are, and
// the names of the named ones, in order.
type Named struct {
	Asserts int
	Names   []string
	set     map[string]bool
}

// Has reports whether name names an assertion.
func (n Named) Has(name string) bool { return n.set[name] }

// Assertions reads the top-level assertions of a script (the file the
// solver was given), naming file in errors.
func Assertions(file string, src []byte) (Named, error) {
	s, err := smtlib.Parse(file, src, 0)
	if err != nil {
		return Named{}, fmt.Errorf("assertions: %w", err)
	}
	n := Named{set: map[string]bool{}}
	for _, c := range s.Commands() {
		if c.Kind != smtlib.CmdAssert || s.CmdNumArgs(c) != 1 {
			continue
		}
		n.Asserts++
		t := s.CmdArg(c, 0)
		if s.Kind(t) != smtlib.KindAnnotated {
			continue
		}
		args := s.Args(t)
		for i := 1; i+1 < len(args); i += 2 {
			if s.Name(args[i]) == ":named" && s.Kind(args[i+1]) == smtlib.KindSymbol {
				name := s.Name(args[i+1])
				if !n.set[name] {
					n.set[name] = true
					n.Names = append(n.Names, name)
				}
			}
		}
	}
	return n, nil
}

// Judgement is a solver's unsat-core answer judged against its benchmark,
// before validation: the facts both readings are computed from.
type Judgement struct {
	Answer  string    `json:"answer"`
	Asserts int       `json:"asserts"` // N: the benchmark's top-level assertions
	Core    CoreState `json:"core_state"`
	// Given is the number of names the solver gave, duplicates included.
	Given int `json:"core_given"`
	// Names are the distinct names that name assertions, sorted: the core
	// that is validated.
	Names []string `json:"core"`
	// Duplicates are names given more than once; Unknown names that are no
	// assertion's (both sorted, each once).
	Duplicates []string `json:"core_duplicates,omitempty"`
	Unknown    []string `json:"core_unknown,omitempty"`
	Message    string   `json:"core_message,omitempty"`
	// UnknownNoError: the solver answered unknown and then did not answer
	// get-unsat-core with an error, as the rules require (2018 and 2022
	// §5.4); reported only, the answer scores as unknown either way.
	UnknownNoError bool `json:"unknown_without_error,omitempty"`
}

// Judge judges a response against the benchmark's assertions.
func Judge(r Response, n Named) Judgement {
	j := Judgement{Answer: r.Answer, Asserts: n.Asserts, Core: r.Core, Given: len(r.Names), Message: r.Message}
	if r.Answer == "unknown" && r.Core != CoreError {
		j.UnknownNoError = true
	}
	if r.Answer != "unsat" || r.Core != CoreList {
		return j
	}
	seen := map[string]int{}
	for _, name := range r.Names {
		seen[name]++
	}
	j.Names = []string{}
	for name, k := range seen {
		if k > 1 {
			j.Duplicates = append(j.Duplicates, name)
		}
		if n.Has(name) {
			j.Names = append(j.Names, name)
		} else {
			j.Unknown = append(j.Unknown, name)
		}
	}
	sort.Strings(j.Names)
	sort.Strings(j.Duplicates)
	sort.Strings(j.Unknown)
	return j
}

// Validated reports whether the core has something to validate: an unsat
// answer with a list of names.
func (j Judgement) Validated() bool { return j.Answer == "unsat" && j.Core == CoreList }

// Reading says how a core's duplicate names and names that are no
// assertion's count.
type Reading int

const (
	// ReadRules reads the core as a set of names: a duplicate counts once;
	// a name that is no assertion's makes the core ill-formed (the 2018
	// text: "contains names of formulas that have not been asserted";
	// 2022 §7.1.4 "not wellformed"), which the rules year scores.
	ReadRules Reading = iota
	// ReadOfficial reads it as the official post-processor did (2016-2023,
	// unsat-core-track/process): the core's size is the number of distinct
	// names the scrambler's -core option parsed, invented ones included,
	// and only an (error ...) or unsupported after unsat, or a core the
	// scrambler cannot parse (none at all included), makes it
	// unparsable; the reduction is not clamped.
	ReadOfficial
)

// Scored is what the scoring reads of an unsat-core result: the fields of
// score.Row the importers fill from the official columns.
type Scored struct {
	Reduction int `json:"reduction"`
	CoreSize  int `json:"core_size"`
	// Erroneous: a sat answer, or a core its validators refuted.
	Erroneous bool `json:"erroneous"`
	// IllFormed: the core is not a well-formed answer (StarExec's
	// parsable-unsat-core = false).
	IllFormed bool `json:"ill_formed"`
}

// Score reads a judged result with its core's verdict (validated is false
// when the validators refuted the core) under a reading.
func (j Judgement) Score(validated bool, rd Reading) Scored {
	var s Scored
	if j.Answer == "sat" {
		s.Erroneous = true
		return s
	}
	if j.Answer != "unsat" {
		return s
	}
	if rd == ReadOfficial {
		if j.Core != CoreList {
			s.IllFormed = true
			return s
		}
		s.CoreSize = len(j.Names) + len(j.Unknown)
		s.Reduction = j.Asserts - s.CoreSize
	} else {
		switch j.Core {
		case CoreMissing, CoreError:
			// "unsat but no response to get-unsat-core: no reduction, as
			// if the whole benchmark were the core"
			s.CoreSize = j.Asserts
			return s
		case CoreMalformed:
			s.IllFormed = true
			return s
		}
		if len(j.Unknown) > 0 {
			s.IllFormed = true
			return s
		}
		s.CoreSize = len(j.Names)
		s.Reduction = max(j.Asserts-s.CoreSize, 0)
	}
	if !validated {
		// Refuted: e = 1, n = 0 (the size is dropped too, so that no
		// one fills the reduction back in from it).
		s.Erroneous, s.Reduction, s.CoreSize = true, 0, 0
	}
	return s
}
