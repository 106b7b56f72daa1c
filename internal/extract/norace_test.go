//go:build !race

package extract

// raceEnabled: this test binary runs under the race detector, which makes
// the parsers about ten times slower (TestHostileCorpus).
const raceEnabled = false
