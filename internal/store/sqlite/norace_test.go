//go:build !race

package sqlite

// raceBuild is true under the race detector (race_test.go).
const raceBuild = false
