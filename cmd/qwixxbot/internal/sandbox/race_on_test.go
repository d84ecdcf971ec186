//go:build race

package sandbox

// raceEnabled tells whether the tests run with the race detector.
const raceEnabled = true
