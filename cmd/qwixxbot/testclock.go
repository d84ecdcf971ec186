package main

import (
	"fmt"
	"strconv"
	"time"
)

// testClockEnv speeds up the bot's clock for subprocess tests: with
// QWIXXTEST_CLOCK_RATE=60 a minute of turn timer passes in a second of real
// time. It is a testing aid, not a setting: it lives outside the QWIXXBOT_
// namespace and out of README's user documentation.
const testClockEnv = "QWIXXTEST_CLOCK_RATE"

// testClock returns the clock set by testClockEnv, or nil (real time).
func testClock(lookup func(string) (string, bool)) (func() time.Time, error) {
	v, ok := lookup(testClockEnv)
	if !ok || v == "" {
		return nil, nil
	}
	rate, err := strconv.ParseFloat(v, 64)
	if err != nil || rate < 1 || rate > 1e6 {
		return nil, fmt.Errorf("%s=%q: want a rate from 1 to 1000000", testClockEnv, v)
	}
	start := time.Now()
	return func() time.Time {
		return start.Add(time.Duration(float64(time.Since(start)) * rate))
	}, nil
}
