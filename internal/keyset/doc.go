// Package keyset holds the sets by which imports tell the rows they have
// seen: 128-bit hashes of the rows' keys (a key whole would stay in memory
// all the import long), in an open-addressing table indexed by the hashes'
// own bits. A file of the smtcomp tool has hundreds of thousands of rows,
// and Go's maps, which hash their keys again and probe them in groups,
// took a sixth of an import.
package keyset
