//go:build race

package sqlite

// raceBuild is true under the race detector, where SQLite runs ~30 times
// slower: long comparison tests draw fewer cases.
const raceBuild = true
