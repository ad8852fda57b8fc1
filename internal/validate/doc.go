// Package validate checks what solvers hand in besides their answer. For the
// unsat-core track it reads a solver's core from its output, judges it
// against the benchmark's named assertions (duplicates and names that are no
// assertion's are reported, under the rules' reading or the official
// scripts'), writes the validation file the official scrambler's -core
// filter writes (named assertions not in the core dropped, unnamed ones
// kept), runs validating solvers on it in the sandbox, and decides the
// core's verdict from their answers by the chosen decision rule (2018-2022:
// refuted when more validators say sat than unsat; 2026: validated only
// when more say unsat than sat).
package validate
