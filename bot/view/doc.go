// Package view makes the Discord messages of the bot from the state they
// show: pure functions of a table (or of plain data: statistics, a
// review, a hint), a language and whatever else they need (times are
// passed in), returning discordgo's message data. They do no I/O, take no
// lock and read no clock; the pictures (package render) are drawn and
// uploaded by the bot, and a view only names its attachment. Every word
// comes from the message files (bot/i18n).
package view
