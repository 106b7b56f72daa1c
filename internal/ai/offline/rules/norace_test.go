//go:build !race

package rules

// raceEnabled: this test binary runs under the race detector (gate_test.go).
const raceEnabled = false
