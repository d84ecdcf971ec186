// Package store keeps qwixxbot's state in a single bbolt file: the running
// game of every channel, pending turn timers, finished match results and
// guild settings. It knows nothing about games: every value is an opaque,
// versioned byte blob that the bot encodes and decodes itself.
//
// # Bucket layout (schema version 2)
//
//	meta                      "version" -> schema version, uint64 big-endian
//	games                     channel ID -> game blob
//	results                   (nested, one bucket per guild)
//	  <guild ID>              sequence, uint64 big-endian -> result blob
//	guilds                    guild ID -> settings blob
//	timers                    (since version 2)
//	  due                     due time (8 bytes, sortable) + key -> payload
//	  keys                    key -> due time (8 bytes, sortable)
//
// Result keys come from the guild bucket's NextSequence, so a cursor walks a
// guild's results oldest first and Results reads them backwards. The due
// time of a timer is its Unix time in nanoseconds with the sign bit flipped,
// stored big-endian, so byte order is time order; the keys bucket is an
// index that lets a timer be replaced or deleted by key alone.
//
// # Schema version and migrations
//
// The meta bucket holds the schema version: the number of migrations applied.
// Open runs every migration the file lacks, in order, in one write
// transaction, writing the new version after each; if one fails nothing is
// written. A file whose version is newer than this code knows is refused, as
// is a file that is not a bbolt database or a bbolt database that belongs to
// somebody else; such files are never written to.
//
// The migration list is append only: a released migration is never edited,
// reordered or removed, because databases in the field have already run it.
// A change of layout is a new migration at the end of the list, with its own
// test that builds a database at the previous version by hand, opens it and
// checks the result.
package store
