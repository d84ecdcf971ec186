package ai

import "github.com/qwixxbot/qwixxbot/game"

func hardCards(v game.PrivateView, legal []game.Move) []float64 {
	return values(Medium, v, legal)
}
