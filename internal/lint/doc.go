// Package lint checks that an SMT-LIB benchmark may be used in a track of
// SMT-COMP, as the input sections of the rules list it (2022 §5.1, 2018
// §5.1, 2014 §4.1): which commands, in which order and how often, and that
// the formulas are well sorted and belong to the declared logic. A check it
// cannot perform is reported as a note, never passed in silence.
package lint
