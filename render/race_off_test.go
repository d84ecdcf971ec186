//go:build !race

package render

// raceEnabled is set when the tests run under the race detector.
const raceEnabled = false
