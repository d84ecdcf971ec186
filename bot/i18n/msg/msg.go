// Package msg names every message of the bot: one constant of type Key
// per key of bot/i18n's message files, generated from the English one
// (keys.go; go generate ./bot/i18n). Pass them to i18n.Lang.T.
package msg

// Key is the key of a message in bot/i18n's message files.
type Key string
