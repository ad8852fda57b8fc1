// Package crand is an exact port of glibc's srandom() and random() (the
// default TYPE_3 additive feedback generator), which SMT-COMP's benchmark
// selection and scrambling have drawn from since 2005: the same seed gives
// the same competition.
package crand
