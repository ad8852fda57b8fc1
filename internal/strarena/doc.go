// Package strarena makes many short strings out of few allocations: the
// keys and Extra objects of the results an import reads (one of each a
// result), the pair ids and paths a scoring keeps of a store's results.
// Strings made one by one cost an allocation each and the collector's
// attention; strings cut out of a store's decoded blocks would keep
// whole blocks of megabytes alive. Standard library only.
package strarena
