// Package game is the rules engine of Qwixx: the dice game, the card game
// (Qwixx – Das Kartenspiel) and its joker variant. It owns the state of one
// game and every rule about it: whose turn it is, which moves are legal,
// what a move changes, when the game ends and who won. It is pure: no I/O,
// no clock, no Discord, no logging; the same Config (its Seed included) and
// the same moves always give the same game.
//
// The rules it implements are written down in RULES.md in this directory,
// each with an id (S for the score sheet, D for the dice game, C for the
// card game, P for playing online). Tests carry the id in their names and
// code comments cite it, so searching RULES.md for the id of a failing test
// leads to the rule; rules_doc_test.go keeps the file and the code in step.
//
// # Main types
//
//   - Game is one game under way or over. New starts one from a Config
//     (Variant, players, seed); Apply makes a Move (Check only judges it),
//     LegalMoves lists the moves a seat may make now, Waiting the seats
//     that must decide, TimeoutMove the move the turn timer makes for a
//     seat. Phase says which step of a turn it is (white sum, coloured
//     dice; taking cards, the number for everyone, playing cards).
//   - Move is one decision of one player (Kind: pass, white sum, coloured
//     sum, take cards, cross the number, play cards), built with PassMove,
//     WhiteMove, ColoredMove, TakeMove, NumberMove and PlayMove. A refused
//     move is a *MoveError whose Reason names the broken rule.
//   - Sheet is a player's score sheet (four Rows of crosses, misthrows);
//     Color and Card are its colours and the cards of the card game.
//   - PublicView is what everybody at the table may see; PrivateView adds
//     what one seat may see (its hand). Computer players (package game/ai)
//     and the bot's pictures read views, never the Game itself, so hidden
//     information stays hidden (RULES C10).
//   - MarshalBinary and Restore (RestoreChecked, which also replays the
//     move log) store and load a game; Clone and CloneInto copy one.
//   - Record is a whole game as JSON (RECORD.md documents the format):
//     Game.Record writes one, Replay and Replayer play one back, step by
//     step, naming the first illegal step.
//   - Summarize, Turns and ScoreSeries describe a game for results and
//     reviews; Match adds up the scores of several games.
//   - Determinize and Dealer deal the cards a seat cannot see, consistently
//     with its PrivateView, for searches that must not peek.
//
// Subpackages: game/ai holds the computer players, game/stats turns
// finished games into statistics and leaderboards.
package game
