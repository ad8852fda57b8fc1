// Package proof runs the proof exhibition track's pairs (2022 §5.8): the
// solver on an unsatisfiable benchmark ending in (get-proof), then the
// proof checker on the benchmark and the solver's output, under one time
// limit that includes the checking. It keeps the solver's output
// (compressed when large) and reads the checker's answer as the official
// post-processor does: the first line is the verdict (valid, invalid,
// holey, sat, unknown) and every key=value line after it a statistic.
package proof
