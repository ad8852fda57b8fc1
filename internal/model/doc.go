// Package model evaluates SMT-LIB terms under a model and judges whether a
// solver's model satisfies a benchmark: the model-validation track's
// validator. It reads the solver's answer and model with internal/smtlib,
// streams the benchmark command by command (so memory stays a fraction of the
// benchmark's size), and evaluates every assertion exactly: integers and
// rationals with math/big, bit-vectors of any width, arrays, uninterpreted
// functions and sorts with the abstract values z3, cvc4 and cvc5 print,
// floating point computed on rationals and then rounded, and datatypes.
// Evaluation keeps explicit stacks, never recursion, so a term nested a
// million levels deep is evaluated with a small Go stack. Undefined values (a
// division by zero the model does not define, a symbol the model leaves out
// under --needed-only) propagate with Kleene's three-valued logic, so that a
// verdict is reached whenever the defined part of the model decides it, and
// UNKNOWN with its reason is returned otherwise. Theories it cannot evaluate
// (strings, sequences, quantifiers, algebraic numbers) give UNKNOWN
// unsupported, never a wrong verdict.
package model
