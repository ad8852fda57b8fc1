package validate

import "fmt"

// Rule is how a core's verdict follows from its validators' answers.
type Rule string

const (
	// RuleRefute (2018-2022 §5.4): "the unsatisfiability of an unsat core
	// is refuted if the number of validation solvers whose result is sat
	// exceeds the number of checking solvers whose result is unsat". A
	// tie, and a core every validator timed out on, stand.
	RuleRefute Rule = "2018"
	// RuleConfirm (2026): a core is validated only if more validators say
	// unsat than sat. A tie, and a core every validator timed out on, do
	// not stand: the result is erroneous, as the smtcomp tool's
	// UnsatCoreNotValidated is.
	RuleConfirm Rule = "2026"
)

// ParseRule reads a decision rule: "2018" (also "2022", "refute") or
// "2026" ("confirm"); "" is the 2018 rule.
func ParseRule(s string) (Rule, error) {
	switch s {
	case "", "2018", "2019", "2020", "2021", "2022", "2023", "refute":
		return RuleRefute, nil
	case "2026", "confirm":
		return RuleConfirm, nil
	}
	return "", fmt.Errorf("decision rule %q: want 2018 (refuted when more validators say sat than unsat) or 2026 (validated only when more say unsat than sat)", s)
}

// Verdict is a core's verdict with the counts it was decided on.
type Verdict struct {
	Rule      Rule `json:"rule"`
	Validated bool `json:"validated"`
	Sat       int  `json:"sat"`
	Unsat     int  `json:"unsat"`
	Other     int  `json:"other"` // unknown, timeouts, crashes
}

// String is "validated" or "refuted" with the counts.
func (v Verdict) String() string {
	w := "refuted"
	if v.Validated {
		w = "validated"
	}
	return fmt.Sprintf("%s (%d unsat, %d sat, %d other; rule %s)", w, v.Unsat, v.Sat, v.Other, v.Rule)
}

// Decide decides a verdict from the validators' answers (sat, unsat, or
// anything else for no answer).
func (r Rule) Decide(answers []string) Verdict {
	v := Verdict{Rule: r}
	for _, a := range answers {
		switch a {
		case "sat":
			v.Sat++
		case "unsat":
			v.Unsat++
		default:
			v.Other++
		}
	}
	if r == RuleConfirm {
		v.Validated = v.Unsat > v.Sat
	} else {
		v.Validated = v.Sat <= v.Unsat
	}
	return v
}
