//go:build !race

package game

// raceEnabled is set when the tests run under the race detector.
const raceEnabled = false
