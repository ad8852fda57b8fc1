// Package compete takes a competition from its definition to results:
// index the library, select per the rules, prepare (scramble) the inputs,
// plan every job pair in the store, and run them with the local executor.
// Every step is idempotent, so a killed run is resumed by running again.
package compete
