// Package customid is the custom_id codec of the bot's components and
// their route table: which view carries which verbs, and which route
// answers a click. It uses the standard library only, so that every
// surface (the gateway bot, an interactions endpoint, a test) can read
// and write custom_ids without the bot.
//
// A component's custom_id names the table it belongs to, the state it was
// made for and the view it sits in, so that buttons keep working after a
// restart, a click on an outdated button is recognised, and a click can
// never be answered in a view it was not made for (ARCHITECTURE.md,
// "Buttons"). Format, at most 100 characters:
//
//	q2:<table>:<stamp>:<view>:<verb>[:<arg>]#<check>
//
// table is the table's random id (a channel may see many tables over time),
// stamp the table's state stamp when the button was made (Table.Seq, which
// only grows for the life of the table), view one of the View letters, verb
// what the button does, arg its argument, and check four characters of a
// CRC-32 of everything before the '#', so that an id cut short or altered
// in transit is told apart from another valid one (the prefix "take:5" of
// "take:5-12" is a valid take by itself). Nothing in a custom_id is
// private: it is visible to every client in the channel (RULES C10).
//
// Decoding is strict: the view must be one the bot makes, the verb one that
// view carries, and the argument exactly as the bot writes it (see
// CanonicalArg), so a truncated or altered custom_id is refused rather than
// read as something close to it. Version 1 ids (q1:…) are recognised as
// buttons of an older bot and answered as outdated.
package customid

import (
	"errors"
	"fmt"
	"hash/crc32"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// customIDPrefix marks the custom_ids of this version.
const customIDPrefix = "q2"

// oldCustomIDPrefix marks the custom_ids of bots before the view segment.
const oldCustomIDPrefix = "q1"

// MaxCustomID is Discord's limit on a custom_id's length.
const MaxCustomID = 100

// View is where a component sits: public views are ordinary channel
// messages, private views are ephemeral messages seen by one user only.
type View byte

// The views the bot makes components for.
const (
	ViewLobby   View = 'l' // public: the lobby message
	ViewTable   View = 't' // public: the table message of a running game
	ViewResults View = 'r' // public: the results of a finished game
	ViewSheet   View = 's' // private: a player's own sheet and choices
	ViewHand    View = 'h' // private: a player's hand and play builder
	// ViewPeople is a user's private answer about their own data: the
	// statistics (its table segment is the user whose statistics they
	// are) and the confirmation of /qwixx forget-me (the user asking).
	ViewPeople View = 'u'
	// ViewSolo and ViewDaily are a private game's view (bot/solo.go): the
	// game itself, played in one ephemeral message; the table segment is
	// the private table's id.
	ViewSolo  View = 'o'
	ViewDaily View = 'y'
)

// Private reports whether the view is an ephemeral message: only such a
// message may be answered with private content (RULES C10).
func (v View) Private() bool {
	return v == ViewSheet || v == ViewHand || v == ViewPeople || v == ViewSolo || v == ViewDaily
}

// viewVerbs lists, per view, the verbs its components carry: the verbs of
// the route table (routes.go), so that the custom_ids the bot accepts
// and the clicks it can handle are one list.
var viewVerbs = routeVerbs()

// Verbs lists the verbs view's components carry, in the route table's
// order.
func Verbs(v View) []string { return append([]string(nil), viewVerbs[v]...) }

// IsSelect reports whether the action belongs to a select menu (the play
// builder's) rather than a button.
func (a Action) IsSelect() bool { return a.Verb == "pick" || a.Verb == "as" || a.Verb == "cross" }

// Action is a decoded custom_id.
type Action struct {
	Table string
	Stamp int
	View  View
	Verb  string
	Arg   string
}

var (
	// ErrForged reports a custom_id that this bot did not make.
	ErrForged = errors.New("bot: malformed custom_id")
	// ErrOldButton reports a custom_id made by an earlier version of the
	// bot, before the format carried the view.
	ErrOldButton = errors.New("bot: custom_id of an earlier bot version")
)

// Encode writes the action as a custom_id.
func (a Action) Encode() string {
	// One allocation: the id written into a stack buffer, the check
	// computed over it, the string made once.
	var buf [MaxCustomID + 8]byte
	b := append(buf[:0], customIDPrefix...)
	b = append(b, ':')
	b = append(b, a.Table...)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(a.Stamp), 10)
	b = append(b, ':')
	b = utf8.AppendRune(b, rune(a.View))
	b = append(b, ':')
	b = append(b, a.Verb...)
	if a.Arg != "" {
		b = append(b, ':')
		b = append(b, a.Arg...)
	}
	b = append(b, '#')
	b = appendCheck(b, b[:len(b)-1])
	if len(b) > MaxCustomID {
		panic(fmt.Sprintf("customid: custom_id %q exceeds %d characters", string(b), MaxCustomID))
	}
	return string(b)
}

// Decode reads a custom_id; anything this bot could not have made is
// an error (ErrOldButton for ids of an earlier version).
func Decode(id string) (Action, error) {
	if len(id) == 0 || len(id) > MaxCustomID {
		return Action{}, ErrForged
	}
	if strings.HasPrefix(id, oldCustomIDPrefix+":") {
		return Action{}, ErrOldButton
	}
	body, check, ok := strings.Cut(id, "#")
	var cb [4]byte
	if !ok || check != string(appendCheck(cb[:0], body)) {
		return Action{}, ErrForged
	}
	parts := strings.SplitN(body, ":", 6)
	if len(parts) < 5 || parts[0] != customIDPrefix {
		return Action{}, ErrForged
	}
	stamp, err := strconv.Atoi(parts[2])
	if err != nil || stamp < 0 || strconv.Itoa(stamp) != parts[2] {
		return Action{}, ErrForged
	}
	if len(parts[3]) != 1 {
		return Action{}, ErrForged
	}
	a := Action{Table: parts[1], Stamp: stamp, View: View(parts[3][0]), Verb: parts[4]}
	if len(parts) == 6 {
		if parts[5] == "" {
			return Action{}, ErrForged
		}
		a.Arg = parts[5]
	}
	if !validToken(a.Table) || !viewHas(a.View, a.Verb) {
		return Action{}, ErrForged
	}
	if canon, ok := CanonicalArg(a.Verb, a.Arg); !ok || canon != a.Arg {
		return Action{}, ErrForged
	}
	return a, nil
}

// checkOf is the check of a custom_id's body: its CRC-32 (IEEE) in four
// base-36 digits.
func checkOf(body string) string {
	var out [4]byte
	return string(appendCheck(out[:0], body))
}

// appendCheck appends the check of body (checkOf) to b. The CRC is
// crc32.ChecksumIEEE's, computed here byte by byte: the library's leaks
// its argument, which would put every custom_id's buffer on the heap.
func appendCheck[T string | []byte](b []byte, body T) []byte {
	const digits = "0123456789abcdefghijklmnopqrstuvwxyz"
	crc := ^uint32(0)
	for i := 0; i < len(body); i++ {
		crc = crc32.IEEETable[byte(crc)^body[i]] ^ crc>>8
	}
	c := ^crc % (36 * 36 * 36 * 36)
	var out [4]byte
	for i := 3; i >= 0; i-- {
		out[i] = digits[c%36]
		c /= 36
	}
	return append(b, out[:]...)
}

// viewHas reports whether view carries verb.
func viewHas(v View, verb string) bool {
	for _, x := range viewVerbs[v] {
		if x == verb {
			return true
		}
	}
	return false
}

// CanonicalArg parses a verb's argument and writes it again the way the bot
// writes it; ok is false when arg is not a valid argument of verb at all.
// A custom_id is accepted only when its argument is already canonical.
func CanonicalArg(verb, arg string) (string, bool) {
	switch verb {
	case "white", "number":
		c, ok := ColorArg(arg)
		return c, ok
	case "color":
		w, col, ok := strings.Cut(arg, ".")
		c, ok2 := ColorArg(col)
		if !ok || !ok2 || (w != "1" && w != "2") {
			return "", false
		}
		return w + "." + c, true
	case "take":
		nums, ok := numberList(arg, "-", 1, 3)
		return JoinInts(nums, "-"), ok
	case "record", "review":
		n, err := strconv.Atoi(arg)
		return strconv.Itoa(n), err == nil && n > 0
	case "hand":
		// The game a hand view's Refresh belongs to ("" in views made
		// before it was kept, and on the table's own button).
		if arg == "" {
			return "", true
		}
		n, err := strconv.Atoi(arg)
		return strconv.Itoa(n), err == nil && n > 0
	case "bot":
		return arg, slices.Contains(Levels, arg)
	case "as", "cross", "play":
		return arg, canonicalPlay(arg)
	default: // verbs without an argument
		return "", arg == ""
	}
}

// ColorArg accepts exactly a colour's name as the bot writes it ("red").
func ColorArg(s string) (string, bool) {
	for _, c := range []string{"red", "yellow", "green", "blue"} {
		if s == c {
			return s, true
		}
	}
	return "", false
}

// numberList reads between lo and hi numbers 2–12 separated by sep, each
// written as strconv.Itoa writes it.
func numberList(s, sep string, lo, hi int) ([]int, bool) {
	if s == "" {
		return nil, lo == 0
	}
	fields := strings.Split(s, sep)
	if len(fields) < lo || len(fields) > hi {
		return nil, false
	}
	nums := make([]int, len(fields))
	for i, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil || n < 2 || n > 12 || strconv.Itoa(n) != f {
			return nil, false
		}
		nums[i] = n
	}
	return nums, true
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

// Levels are the names of the computer players' levels a lobby's "bot"
// button may carry (game/ai's Levels, which a test of the bot compares).
var Levels = []string{"easy", "medium", "hard"}

// canonicalPlay reports whether s is a play builder's selection exactly as
// the bot writes it: "R4-R5-J7.r.4-5-7", up to three cards (a colour's
// letter R, Y, G, B or the joker's J, and a number 2–12), the colour they
// count as (r, y, g, b or none) and up to three numbers 2–12 to cross.
func canonicalPlay(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return false
	}
	if parts[0] != "" {
		cards := strings.Split(parts[0], "-")
		if len(cards) > 3 {
			return false
		}
		for _, c := range cards {
			if c == "" || !strings.Contains("RYGBJ", c[:1]) {
				return false
			}
			if _, ok := numberList(c[1:], "-", 1, 1); !ok {
				return false
			}
		}
	}
	if p := parts[1]; p != "" && (len(p) != 1 || !strings.Contains("rygb", p)) {
		return false
	}
	if parts[2] != "" {
		if _, ok := numberList(parts[2], "-", 1, 3); !ok {
			return false
		}
	}
	return true
}

// JoinInts writes numbers separated by sep: "5-9-12".
func JoinInts(ns []int, sep string) string {
	var buf [32]byte
	b := buf[:0]
	for i, n := range ns {
		if i > 0 {
			b = append(b, sep...)
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return string(b)
}
