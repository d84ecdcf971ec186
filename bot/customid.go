package bot

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// A component's custom_id names the table it belongs to and the state it was
// made for, so that buttons keep working after a restart and a click on an
// outdated button is recognised (DESIGN: "Buttons must keep working after a
// restart"). Format, at most 100 characters:
//
//	q1:<table>:<stamp>:<verb>[:<arg>]
//
// table is the table's random id (a channel may see many tables over time),
// stamp the table's state stamp when the button was made (see Table.Stamp),
// verb what the button does, arg its argument. Nothing in a custom_id is
// private: it is visible to every client in the channel (RULES C10).
const customIDPrefix = "q1"

// MaxCustomID is Discord's limit on a custom_id's length.
const MaxCustomID = 100

// Action is a decoded custom_id.
type Action struct {
	Table string
	Stamp int
	Verb  string
	Arg   string
}

// errForged reports a custom_id that this bot did not make.
var errForged = errors.New("bot: malformed custom_id")

// Encode writes the action as a custom_id.
func (a Action) Encode() string {
	s := customIDPrefix + ":" + a.Table + ":" + strconv.Itoa(a.Stamp) + ":" + a.Verb
	if a.Arg != "" {
		s += ":" + a.Arg
	}
	if len(s) > MaxCustomID {
		panic(fmt.Sprintf("bot: custom_id %q exceeds %d characters", s, MaxCustomID))
	}
	return s
}

// DecodeAction reads a custom_id; anything this bot could not have made is
// an error.
func DecodeAction(id string) (Action, error) {
	if len(id) == 0 || len(id) > MaxCustomID {
		return Action{}, errForged
	}
	parts := strings.SplitN(id, ":", 5)
	if len(parts) < 4 || parts[0] != customIDPrefix {
		return Action{}, errForged
	}
	stamp, err := strconv.Atoi(parts[2])
	if err != nil || stamp < 0 {
		return Action{}, errForged
	}
	a := Action{Table: parts[1], Stamp: stamp, Verb: parts[3]}
	if len(parts) == 5 {
		a.Arg = parts[4]
	}
	if !validToken(a.Table) || !validToken(a.Verb) || !validArg(a.Arg) {
		return Action{}, errForged
	}
	return a, nil
}

func validToken(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

func validArg(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == ',' || r == '_') {
			return false
		}
	}
	return len(s) <= 48
}
