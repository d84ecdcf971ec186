// Package surface is what the surfaces last showed of a table, as
// confirmed by Discord: message IDs, the turn and fingerprints they show,
// the interaction kept for its token, finished turns' messages still to be
// shrunk, and an earlier version's message fields. It is data only, no
// methods and no imports of the module: the session (bot/session) embeds
// it in its Table and keeps the rules; the bot's reconciler
// (bot/channel.go) reads and writes it. Its JSON is part of the stored
// table and must not change (bot/session's TestStoredTableJSONGolden).
package surface

import "time"

// Messages are the lobby's message and an earlier version's table
// message, embedded in the session's Table at their place in its JSON.
type Messages struct {
	// LobbyMessage is the lobby's message (an interaction response, changed
	// only through clicks on it). TableMessage and PostedStamp.Posted are
	// an earlier version's record of its table message, taken over by
	// Shown.
	LobbyMessage string `json:"lobby_message,omitempty"`
	TableMessage string `json:"table_message,omitempty"`
}

// PostedStamp is an earlier version's stamp of its table message,
// embedded in the session's Table at its place in its JSON.
type PostedStamp struct {
	// Posted is the stamp the table message was made for; a new action got
	// a new message so the table stayed at the bottom of the channel.
	Posted int `json:"posted,omitempty"`
}

// Shown is what the channel shows of a table, as confirmed by Discord.
type Shown struct {
	// Msg is the live message: the current turn's.
	Msg string `json:"msg,omitempty"`
	// Turn is the turn Msg shows (TurnKey); Rev fingerprints its text and
	// buttons, Pic its picture, whose attachment Att is kept on edits that
	// do not change it.
	Turn string `json:"turn,omitempty"`
	Rev  string `json:"rev,omitempty"`
	Pic  string `json:"pic,omitempty"`
	Att  string `json:"att,omitempty"`
	// Posting names the message (turnKey, or "results.<game>") whose post
	// was sent without its outcome being recorded yet.
	Posting string `json:"posting,omitempty"`
	// Token, for a table on interactions alone (Table.Interactions), is
	// the newest interaction whose token may post to the channel, kept so
	// that a restart can go on showing the table while it is young (15
	// minutes); MsgBy is the interaction whose follow-up Msg is.
	Token *Token `json:"token,omitempty"`
	MsgBy string `json:"msg_by,omitempty"`
	// Past are finished turns' messages still to be shrunk to their log
	// line.
	Past []PastTurn `json:"past,omitempty"`
	// Results is the game (GameNo) whose results are posted.
	Results int `json:"results,omitempty"`
	// ResultsMsg is the results message of the last finished game and
	// ResultsLive whether it still offers "Play again" (or "Next game"):
	// once the table has moved on (a new game, a new lobby, a new table)
	// that button is taken off (opRetireResults), keeping the record
	// button ResultsRecord and the review button ResultsReview (their
	// custom_ids, "" if none), so that it never outlives its use, not even
	// across a crash.
	ResultsMsg    string `json:"results_msg,omitempty"`
	ResultsLive   bool   `json:"results_live,omitempty"`
	ResultsRecord string `json:"results_record,omitempty"`
	ResultsReview string `json:"results_review,omitempty"`
	// LobbyPending is set while the lobby that Play again opened went out
	// only as the answer to that click, not yet known to have arrived: a
	// crash before that answer would leave a lobby nobody sees, so the
	// reconciler (opLobby) looks for it in the channel and posts it when
	// it is missing.
	LobbyPending bool `json:"lobby_pending,omitempty"`
	// Reminder is the reminder message for the action with stamp RemindAt,
	// deleted when that action ends.
	Reminder string `json:"reminder,omitempty"`
	RemindAt int    `json:"remind_at,omitempty"`
	// Unsure is set when what the channel shows was last changed through an
	// interaction's answer (liveAnswer), recorded before the answer was
	// sent: after a crash, Start has such channels edited once (force).
	Unsure bool `json:"unsure,omitempty"`
	// At is when Msg was posted. Discord limits edits of messages older
	// than an hour, so a turn that lasts longer gets a fresh message
	// (liveMaxAge) rather than edits of an old one.
	At time.Time `json:"at,omitzero"`
	// Stamp is the state (Table.Stamp) Msg was last shown for, and Edited
	// when: edits that only change who has decided within that state wait
	// until Options.CoalesceEdits has passed since, so that decisions made
	// close together share one edit.
	Stamp  int       `json:"stamp,omitempty"`
	Edited time.Time `json:"edited,omitzero"`
}

// Token is an interaction kept for its token (Shown.Token): its ID, the
// application's, the token, when it arrived and how many follow-ups it
// may still make (-1: no limit).
type Token struct {
	ID     string    `json:"id"`
	App    string    `json:"app"`
	Value  string    `json:"value"`
	At     time.Time `json:"at"`
	Budget int       `json:"budget"`
}

// PastTurn is a finished turn's message and the log line it shrinks to
// ("" only strips its buttons: a message of an earlier bot version). A
// turn whose message was gone when it ended (Msg "") has its line posted.
type PastTurn struct {
	Msg  string `json:"msg"`
	Line string `json:"line,omitempty"`
	// Sent is set when the shrink went out as a click's answer.
	Sent bool `json:"sent,omitempty"`
}
