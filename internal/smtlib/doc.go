// Package smtlib reads and writes SMT-LIB: the 2.6 concrete syntax (scanner,
// parser, AST, canonical printer), a metadata scan that builds no terms, solver
// responses (answers, models, cores, errors), theory signatures with a sort
// checker, and SMT-LIB 1.2 benchmarks translated to 2.6.
//
// Everything else in smtarena reads SMT-LIB through this package, so it is
// built for the largest inputs the library has: terms live in a flat arena
// owned by the Script (a Term is an index, not a pointer), every algorithm
// over terms uses an explicit stack instead of recursion so that nesting depth
// is bounded only by memory, and positions are compact byte offsets expanded to
// file:line:col only when printed. The package imports only the standard
// library.
package smtlib
