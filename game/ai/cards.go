package ai

import "github.com/qwixxbot/qwixxbot/game"

func hardCards(v game.PrivateView, legal []game.Move) game.Move {
	return Choose(Medium, v, legal)
}
