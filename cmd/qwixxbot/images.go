package main

import "github.com/qwixxbot/qwixxbot/bot"

// newRenderer is the bot's picture maker.
func newRenderer() bot.Renderer { return bot.Images{} }
