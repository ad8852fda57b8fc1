package model

import (
	"time"

	"github.com/smtarena/smtarena/internal/smtlib"
)

// Verdict is the validator's judgement, as the 2022 rules (§5.5) name it.
type Verdict string

// The verdicts.
const (
	Valid   Verdict = "VALID"   // sat and a full model that satisfies every assertion
	Invalid Verdict = "INVALID" // unsat, or a model that falsifies an assertion
	Unknown Verdict = "UNKNOWN" // anything else; the Reason says what
)

// Reason is the class of a verdict other than VALID. docs/model-validation.md
// describes each and how it maps to dolmen's and the pySMT script's verdicts.
type Reason string

// The reasons.
const (
	ReasonNone              Reason = ""
	ReasonUnsat             Reason = "unsat"              // INVALID: the solver answered unsat
	ReasonBadModel          Reason = "bad-model"          // INVALID: an assertion is false under the model
	ReasonNoOutput          Reason = "no-output"          // no check-sat answer, or no model after sat
	ReasonUnknownAnswer     Reason = "unknown-answer"     // the solver answered unknown
	ReasonParseError        Reason = "parse-error"        // the response is not SMT-LIB
	ReasonMissingDefinition Reason = "missing-definition" // a declared symbol has no definition
	ReasonExtraDefinition   Reason = "extra-definition"   // the model defines what the benchmark does not declare
	ReasonSortError         Reason = "sort-error"         // a definition or value of the wrong sort
	ReasonCyclicDefinition  Reason = "cyclic-definition"  // definitions that refer to themselves
	ReasonPartialFunction   Reason = "partial-function"   // a value of a partial function the model does not give
	ReasonUnsupported       Reason = "unsupported"        // a theory or construct the validator does not evaluate
	ReasonTruncated         Reason = "truncated"          // the response ends in the middle of the model
	ReasonResource          Reason = "resource"           // the validator's own time or memory limit
)

// Reasons lists every reason a verdict can carry, INVALID ones first.
var Reasons = []Reason{ReasonUnsat, ReasonBadModel, ReasonNoOutput, ReasonUnknownAnswer,
	ReasonParseError, ReasonMissingDefinition, ReasonExtraDefinition, ReasonSortError,
	ReasonCyclicDefinition, ReasonPartialFunction, ReasonUnsupported, ReasonTruncated, ReasonResource}

// Result is a verdict with what justifies it.
type Result struct {
	Verdict Verdict `json:"verdict"`
	Reason  Reason  `json:"reason,omitempty"`
	// Detail says in words what was found: the false assertion, the
	// missing symbol, the unsupported construct.
	Detail string `json:"detail,omitempty"`
	// Position is where in the benchmark (an assertion, a declaration) or,
	// for response problems, in the response the verdict points.
	Position string `json:"position,omitempty"`
	// Assertion is the false assertion, in canonical form, cut to a few
	// hundred bytes.
	Assertion string `json:"assertion,omitempty"`
	// Assertions is how many assertions were evaluated, False how many of
	// them are false under the model.
	Assertions int `json:"assertions"`
	False      int `json:"false,omitempty"`
	// Explain holds the values of the false assertion's subterms down to
	// where it turns false (Options.Explain).
	Explain []string `json:"explain,omitempty"`
	// Notes are problems that did not decide the verdict (an extra
	// definition when an assertion is false, ...).
	Notes []string      `json:"notes,omitempty"`
	Time  time.Duration `json:"-"`
	// Seconds is Time for JSON.
	Seconds float64 `json:"seconds"`
}

// String is the first line of the CLI's output: the verdict and its reason.
func (r Result) String() string {
	if r.Reason == ReasonNone {
		return string(r.Verdict)
	}
	return string(r.Verdict) + " " + string(r.Reason)
}

// Options tune a validation.
type Options struct {
	// NeededOnly accepts a model that leaves out symbols no assertion
	// needs (dolmen's reading since 2023); the default is the 2022 rules'
	// "all and only the user-declared symbols".
	NeededOnly bool
	// Explain records the values of the false assertion's subterms.
	Explain bool
	// Timeout bounds the validation's time (0: none); MaxMemory the Go
	// heap in bytes (0: none). Reaching either gives UNKNOWN resource.
	Timeout   time.Duration
	MaxMemory uint64
	// MaxResponse bounds the bytes of one response (0: smtlib's default).
	MaxResponse int
	// Mode is passed to the benchmark's parser.
	Mode smtlib.Mode
}
