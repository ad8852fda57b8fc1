package compete

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/model"
	"github.com/smtarena/smtarena/internal/sandbox"
	"github.com/smtarena/smtarena/internal/store"
)

// defaultModelLimit is the model validator's time limit when the track
// sets no validation_limit: about 15 minutes, as 2022 §5.5 has it.
const defaultModelLimit = 15 * time.Minute

// validateModel judges a model-validation pair's output, kept uncompressed
// at path in the work directory: the validator runs on it as a sandboxed
// child process (`smtarena validate-model --json`, a model is
// untrusted input) with the track's validation limits. The verdict, its
// reason and detail and the validation time go into extra, where scoring
// reads model_validator_status (2022 §7.1.5: INVALID is an error).
func (r *runner) validateModel(ctx context.Context, slot int, p store.Pair, path string, out []byte, extra map[string]any) error {
	limit := r.cfg.ValidationLimit.Duration
	if limit <= 0 {
		limit = defaultModelLimit
	}
	var res model.Result
	var seconds float64
	if len(r.modelValidator) == 0 {
		// No validator command (library use without the binary): judge
		// in this process, under the same time limit.
		bench, err := os.Open(p.Input)
		if err != nil {
			return err
		}
		defer bench.Close()
		res, err = model.Validate(ctx, p.Input, bench, path, bytes.NewReader(out), model.Options{Timeout: limit, MaxMemory: uint64(r.cfg.MemoryMB) << 20})
		if err != nil {
			res = model.Result{Verdict: model.Unknown, Reason: "validator-error", Detail: err.Error()}
		}
		seconds = res.Seconds
	} else {
		var stdout bytes.Buffer
		args := append(append([]string(nil), r.modelValidator...), p.Input, path)
		l := r.limits(slot)
		l.CPU, l.Wall, l.OutputBytes = limit, limit+limit/10, 16<<20
		sr, err := sandbox.Run(ctx, sandbox.Spec{Args: args, Env: r.modelValidatorEnv, Limits: l, Stdout: &stdout})
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil && sr.Reason != sandbox.Failed {
			return fmt.Errorf("model validator: %w", err)
		}
		seconds = sr.Wall.Seconds()
		extra["model_validator_cpu"] = sr.CPU.Seconds()
		extra["model_validator_memory_mb"] = float64(sr.PeakMemoryBytes) / (1 << 20)
		switch {
		case sr.Reason == sandbox.CPUTime || sr.Reason == sandbox.WallTime || sr.Reason == sandbox.Memory:
			res = model.Result{Verdict: model.Unknown, Reason: model.ReasonResource,
				Detail: fmt.Sprintf("the validator reached its limit (%s)", sr.Reason)}
		case json.Unmarshal(firstLine(stdout.Bytes()), &res) != nil || res.Verdict == "":
			res = model.Result{Verdict: model.Unknown, Reason: "validator-error",
				Detail: fmt.Sprintf("the validator ended (%s, exit %d) without a verdict: %s", sr.Reason, sr.ExitCode, clipText(stdout.String(), 500))}
		}
	}
	extra["model_validator_status"] = string(res.Verdict)
	extra["model_reason"] = string(res.Reason)
	extra["model_detail"] = res.Detail
	extra["model_position"] = res.Position
	extra["model_seconds"] = seconds
	return nil
}

func firstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i]
	}
	return b
}

func clipText(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// ModelVerdicts counts a solver's model-validation verdicts, by verdict
// and reason ("VALID", "INVALID bad-model", "UNKNOWN no-output", ...).
type ModelVerdicts struct {
	Division, Solver string
	Pairs            int
	Verdicts         map[string]int
}

// ModelSummaries reads the verdicts of the model-validation track's pairs,
// per division and solver, sorted by division and then by VALID verdicts.
func ModelSummaries(ctx context.Context, def *config.Competition, st store.Store) ([]ModelVerdicts, error) {
	if _, ok := def.Tracks[string(benchmark.ModelValidation)]; !ok {
		return nil, nil
	}
	rs, err := st.Results(ctx, store.ResultFilter{Track: string(benchmark.ModelValidation)})
	if err != nil {
		return nil, err
	}
	by := map[[2]string]*ModelVerdicts{}
	for _, r := range rs {
		if r.Competition != def.Name {
			continue
		}
		var extra struct {
			Division string `json:"division"`
			Status   string `json:"model_validator_status"`
			Reason   string `json:"model_reason"`
		}
		_ = json.Unmarshal([]byte(r.Extra), &extra)
		k := [2]string{extra.Division, r.Solver}
		s := by[k]
		if s == nil {
			s = &ModelVerdicts{Division: extra.Division, Solver: r.Solver, Verdicts: map[string]int{}}
			by[k] = s
		}
		s.Pairs++
		v := extra.Status
		if v == "" {
			v = "UNKNOWN"
		}
		if extra.Reason != "" {
			v += " " + extra.Reason
		}
		s.Verdicts[v]++
	}
	out := make([]ModelVerdicts, 0, len(by))
	for _, s := range by {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Division != b.Division {
			return a.Division < b.Division
		}
		if a.Verdicts["VALID"] != b.Verdicts["VALID"] {
			return a.Verdicts["VALID"] > b.Verdicts["VALID"]
		}
		return a.Solver < b.Solver
	})
	return out, nil
}
