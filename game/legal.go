package game

// LegalMoves lists every legal move for player p now; empty when p may not
// act. The bot builds its buttons from this list and computer players choose
// from it.
func (g *Game) LegalMoves(p int) []Move { return g.AppendLegalMoves(nil, p) }

// AppendLegalMoves appends player p's legal moves to dst and returns it,
// so callers can reuse a buffer.
func (g *Game) AppendLegalMoves(dst []Move, p int) []Move {
	if !g.MayAct(p) {
		return dst
	}
	if g.st.Variant == Dice {
		return g.appendDiceMoves(dst, p)
	}
	return g.appendCardMoves(dst, p)
}
