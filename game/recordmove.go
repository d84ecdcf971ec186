package game

// RecordedMove turns a record's move into the Move it stands for in this
// game's current state (as a Replayer would apply it next), so a reader of
// a record, such as a game review, can weigh it against the legal moves.
func (g *Game) RecordedMove(rm RecordMove) (Move, error) { return g.moveFromRecord(rm) }
