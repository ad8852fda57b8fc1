package track

import "strings"

// ProofArgs returns the argv of the solver in the proof track: the
// package's bin/smtcomp_solver with the benchmark as its argument (2022
// §5.8), or ProofCommand (default Command) with {file} replaced or the
// benchmark appended.
func (s Solver) ProofArgs(input string) []string {
	if s.Package != "" {
		return s.packageArgs("smtcomp_solver", input)
	}
	cmd := s.ProofCommand
	if len(cmd) == 0 {
		cmd = s.Command
	}
	return substitute(cmd, map[string]string{"{file}": input})
}

// CheckerArgs returns the argv of the proof checker: the package's
// bin/smtcomp_checker with the benchmark and the file holding the solver's
// output as its arguments (2022 §5.8), or CheckerCommand with {file} and
// {output} replaced, or both appended in that order.
func (s Solver) CheckerArgs(input, output string) []string {
	if s.Package != "" {
		return s.packageArgs("smtcomp_checker", input, output)
	}
	return substitute(s.CheckerCommand, map[string]string{"{file}": input, "{output}": output})
}

// substitute replaces the placeholders in cmd's arguments; when none
// occurs, their values are appended in the order file, output.
func substitute(cmd []string, values map[string]string) []string {
	out := append([]string(nil), cmd...)
	replaced := false
	for i, a := range out {
		for k, v := range values {
			if strings.Contains(a, k) {
				a = strings.ReplaceAll(a, k, v)
				replaced = true
			}
		}
		out[i] = a
	}
	if !replaced {
		for _, k := range []string{"{file}", "{output}"} {
			if v, ok := values[k]; ok {
				out = append(out, v)
			}
		}
	}
	return out
}
