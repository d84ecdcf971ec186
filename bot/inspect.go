package bot

import "github.com/qwixxbot/qwixxbot/bot/session"

// DecodeTable reads a table as the bot stores it (the blob under a channel
// ID). Operators' tools and crash tests use it to check what is on disk;
// the bot itself decodes tables the same way.
func DecodeTable(blob []byte) (*Table, error) { return session.Decode(blob) }
