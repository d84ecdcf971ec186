// Package view makes the Discord messages of the bot from the state they
// show: pure functions of a table (or of plain data: statistics, a
// review, a hint, a record), a language and whatever else they need
// (times are passed in), returning discordgo's message data. They do no
// I/O, take no lock and read no clock (TestViewsArePure). Pictures are
// drawn and cached by the bot (package render); a view that shows one is
// given its bytes and names the attachment. Every word comes from the
// message files (bot/i18n).
//
// The golden files in testdata are the JSON of the data the views return,
// as Discord receives it; go test ./bot/view -update rewrites them.
package view
