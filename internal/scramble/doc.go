// Package scramble rewrites SMT-LIB scripts the way the official SMT-COMP
// scrambler (github.com/SMT-COMP/scrambler, 2023 version) does: for the same
// input, seed and track it produces the same bytes. It renames every declared
// symbol to x<N> under a random permutation, shuffles the arguments of
// commutative operators, mirrors antisymmetric comparisons, shuffles let
// bindings, datatype constructors, and blocks of consecutive declarations and
// assertions, drops set-info, echo and comments, and adds the header commands
// of the competition's tracks. The random draws come from the official 48-bit
// linear congruential generator and happen in the order in which the official
// bison parser reduces the grammar (children before parents, left to right),
// so that the two tools agree draw for draw.
//
// Unlike the official tool, nothing here recurses over terms: the parser and
// the printer keep explicit stacks, so nesting depth is bounded by memory, not
// by the stack. The whole input is parsed before anything is written, so a
// malformed input produces an error and no output at all.
package scramble
