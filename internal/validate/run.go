package validate

import (
	"bytes"
	"context"
	"time"

	"github.com/smtarena/smtarena/internal/sandbox"
	"github.com/smtarena/smtarena/internal/track"
)

// DefaultLimit is the validation time limit the rules anticipate ("around
// 5 minutes of wall-clock time per solver", 2018 §5.4); the official runs
// of 2021-2023 used 120 s.
const DefaultLimit = 300 * time.Second

// Run is one validator's run on a validation file.
type Run struct {
	Validator string  `json:"validator"`
	Answer    string  `json:"answer"` // sat, unsat, or unknown for anything else
	Status    string  `json:"status"` // complete, timeout, memout, abort, error
	Wall      float64 `json:"wall"`   // seconds
	CPU       float64 `json:"cpu"`
	Error     string  `json:"error,omitempty"`
}

// RunValidator runs argv (the validation file among its arguments) in the
// sandbox under limits, and reads its answer as the single-query track
// does. An error means the run could not be judged (ctx ended).
func RunValidator(ctx context.Context, name string, argv []string, limits sandbox.Limits) (Run, error) {
	var out bytes.Buffer
	sr, err := sandbox.Run(ctx, sandbox.Spec{Args: argv, Limits: limits, Stdout: &out})
	if ctx.Err() != nil {
		return Run{}, ctx.Err()
	}
	if err != nil && sr.Reason != sandbox.Failed {
		return Run{}, err
	}
	v := track.JudgeSingleQuery(out.Bytes(), sr.Reason, "")
	r := Run{Validator: name, Answer: v.Answer, Status: v.Status, Wall: sr.Wall.Seconds(), CPU: sr.CPU.Seconds(), Error: sr.Error}
	if r.Answer != "sat" && r.Answer != "unsat" {
		r.Answer = "unknown"
	}
	return r, nil
}

// Validator is a validating solver for Check: its name and command line,
// where {file} stands for the validation file (appended when absent).
type Validator struct {
	Name    string
	Command []string
}

// Report is Check's account of one core.
type Report struct {
	Judgement Judgement `json:"judgement"`
	// File is the validation file (empty when there is nothing to
	// validate).
	File    []byte  `json:"-"`
	Runs    []Run   `json:"runs"`
	Verdict Verdict `json:"verdict"`
	Scored  Scored  `json:"score"`
}

// Check judges a solver's output on the file it was given and, when it
// holds a core, validates the core with each validator in turn under
// limits, writing the validation file into dir. It is what `smtarena
// validate-core` runs.
func Check(ctx context.Context, input []byte, file string, output []byte, validators []Validator, rule Rule, rd Reading, dir string, limits sandbox.Limits) (Report, error) {
	named, err := Assertions(file, input)
	if err != nil {
		return Report{}, err
	}
	rep := Report{Judgement: Judge(ReadResponse(output), named)}
	validated := true
	if rep.Judgement.Validated() {
		if rep.File, err = File(input, file, rep.Judgement.Names); err != nil {
			return rep, err
		}
		path, _, err := WriteFile(dir, rep.File)
		if err != nil {
			return rep, err
		}
		var answers []string
		for _, v := range validators {
			argv, _ := track.Solver{Command: v.Command}.SingleQueryArgs(path, sandbox.Protocol2022)
			r, err := RunValidator(ctx, v.Name, argv, limits)
			if err != nil {
				return rep, err
			}
			rep.Runs = append(rep.Runs, r)
			answers = append(answers, r.Answer)
		}
		rep.Verdict = rule.Decide(answers)
		validated = rep.Verdict.Validated
	}
	rep.Scored = rep.Judgement.Score(validated, rd)
	return rep, nil
}
