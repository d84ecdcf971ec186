package bot

import "github.com/qwixxbot/qwixxbot/game"

// DecodeTable reads a table as the bot stores it (the blob under a channel
// ID). Operators' tools and crash tests use it to check what is on disk;
// the bot itself decodes tables the same way.
func DecodeTable(blob []byte) (*Table, error) { return decodeTable(blob) }

// Running is the table's running or finished game, nil in the lobby.
func (t *Table) Running() *game.Game { return t.g }
