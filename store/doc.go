// Package store keeps qwixxbot's state in a single bbolt file: the running
// game of every channel, pending turn timers, the history of finished games
// (results and game records) and guild settings. Games and settings are
// opaque, versioned byte blobs that the bot encodes and decodes itself;
// results are stats.Results and records are game records (game/RECORD.md),
// which the store reads to apply retention and to forget a user.
//
// # Bucket layout (schema version 5)
//
//	meta                      "version" -> schema version, uint64 big-endian
//	games                     channel ID -> framed game blob
//	results                   (nested, one bucket per guild)
//	  <guild ID>              sequence, uint64 big-endian -> framed stats.Result
//	                          (its MarshalBinary encoding; since version 4)
//	guilds                    guild ID -> framed settings blob
//	timers                    (since version 2)
//	  due                     due time (8 bytes, sortable) + key -> payload
//	  keys                    key -> due time (8 bytes, sortable)
//	quarantine                (since version 3)
//	                          "<channel ID>/<time>" -> framed JSON record
//	records                   (since version 4; nested, one bucket per guild)
//	  <guild ID>              end time (8 bytes, sortable) + game ID ->
//	                          framed JSON {"game", "time", "users", "record",
//	                          "private" (since version 5)}
//	departed                  (since version 4)
//	                          guild ID -> time the bot left it (8 bytes, sortable)
//	dailies                   (since version 5)
//	                          day (4 bytes, big-endian) + mark -> framed day
//
// A "guild" of results and records is the place a game was played in: a
// guild ID, or for a DM or group DM a key the bot makes of its channel
// ("@dm:<channel ID>"); LegacyDMGuild holds what versions before 5 kept of
// every DM together. A result or record marked private (a private game's)
// is its players' alone: the bot shows it to nobody else.
//
// # What is kept about players, and for how long
//
// For every finished game (SaveGame) the store keeps its result: guild,
// game ID, end time, variant, and per seat the Discord user ID, the display
// name at the time, whether it was a computer player, and the score. It
// also keeps the game's record: the players' names in seat order, their
// user IDs (in "users", beside the record), the dice or cards and every
// move. Nothing else about a person outlives the game: no messages, no
// avatars, no other Discord data. For the daily challenge, a mark per
// player and day (MarkDaily): a keyed hash the bot makes, never a user ID,
// kept until two days later, also after DeleteUser.
//
// Retention (Retention, WithRetention) drops, oldest first: results older
// than 2 years (DefaultResultMaxAge) or beyond 10,000 per guild
// (DefaultResultsPerGuild); records older than 90 days
// (DefaultRecordMaxAge) or beyond 250 per guild (DefaultRecordsPerGuild).
// SaveGame applies it to its guild, Sweep to all of them. DeleteUser
// forgets a user, in one guild or all: their seats keep the score, lose the
// user ID and are renamed "Player N" in results and records alike, so that
// the other players' statistics stay and the records still replay. When
// the bot leaves a guild (GuildLeft), Sweep deletes the guild's results,
// records and settings after 30 days (DefaultGuildGrace) unless the guild
// comes back first (GuildBack, or a game saved there).
//
// The bot saves a finished game with UpdateSaving, in the transaction that
// writes the table showing it over, so that the two are on disk together
// or not at all. Saving a game ID again replaces its result and record
// rather than adding to them.
//
// Result keys come from the guild bucket's NextSequence, so a cursor walks a
// guild's results oldest first and Results reads them backwards. The due
// time of a timer is its Unix time in nanoseconds with the sign bit flipped,
// stored big-endian, so byte order is time order; the keys bucket is an
// index that lets a timer be replaced or deleted by key alone.
//
// # Frames and corruption (since version 3)
//
// Every value in games, guilds, results/<guild>, records/<guild> and
// quarantine is framed:
//
//	byte 0      0x51 ('Q'), the frame's magic
//	byte 1      1, the frame version
//	bytes 2-5   CRC-32C (Castagnoli) of the payload, big-endian
//	bytes 6-    the payload: what the caller stored
//
// Writers frame, readers verify; the public API deals in payloads only. A
// value that is too short, has another magic or version, or whose checksum
// does not match is reported as an error wrapping ErrCorrupt that names the
// bucket and key, and its payload is never returned: Get and GuildSettings
// give (nil, true, err), Update refuses to call its fn, ForEach hands fn a
// nil blob and the error and goes on, Results skips the value and returns
// the good ones with the error. CRC-32C catches every error of up to 32
// consecutive bits, any odd number of flipped bits and any one to three
// flipped bits in a value under 256 MiB; other damage slips through with a
// chance of about 2^-32. The checksum covers the payload, not the key.
// Timer payloads are not framed.
//
// bbolt does not checksum its pages and may panic, or fault reading its
// memory map, on a damaged one. Every transaction of the Store recovers
// such a panic (with debug.SetPanicOnFault for the faults) and reports it
// as an error wrapping ErrCorrupt; a panic in Update's fn still propagates.
// Damage to bbolt's own structures that bbolt does not notice may still
// make a key look missing.
//
// # Group commit
//
// Every write returns only once it is committed and fsync'd. Writes from
// many goroutines share transactions: a write to an idle Store commits at
// once, alone; writes that arrive while a commit is in flight queue up and
// the first of them then commits up to 256 together, with one fsync. A
// write whose function fails (an error, or a panic) is left out: the
// group's transaction is rolled back and the others run again, so a
// write's function may be called more than once (see Update). A write that
// changes nothing costs no fsync. Stats counts commits and writes.
//
// Under load the commits are spaced: once a group had company (two writes
// or more), the next commit starts no sooner than commitGap (8 ms) after
// the last one started, and takes along what queued meanwhile; a lone
// writer never waits. Writes made later (PutLater) do not wait at all:
// queued in order with the others, they go with the next commit and are
// read at once meanwhile (later.go); a crash before that commit loses
// them, so they are for what a restart makes again anyway.
//
// Quarantine moves a game's stored value, exactly as it is on disk, out of
// games into quarantine and deletes the game, in one transaction. The key
// is the channel ID, a slash and the time in RFC 3339 UTC with all nine
// fraction digits (2006-01-02T15:04:05.000000000Z), so a channel's entries
// sort oldest first; the time moves on by a nanosecond if the key is taken.
// The value is a frame around the JSON object {"channel", "time" (RFC 3339),
// "reason", "raw" (the stored bytes, base64)}. Quarantined lists them.
//
// # What a save costs
//
// Saving a mid-game table (5.5 KB) among 1,000 (sessiondb's
// BenchmarkSaveTable) is one commit: bbolt writes about 32 KB (the leaf,
// which holds two or three tables since a leaf holds at least two keys,
// the games bucket's branch pages, the root, the freelist and the meta
// page) and calls fdatasync twice, once for the pages and once for the
// meta page after them, which crash safety needs. The two fdatasyncs are
// most of the CPU of a save (about 60 % in a profile on a shared 2-core
// virtual machine, the writes another 15 %), so the saves that share a
// commit (group commit) are what makes saves cheaper. Measured there and
// not taken, for no gain beyond the noise: one bucket per table (28 KB a
// commit instead of 32), bbolt's NoFreelistSync (a page less a commit,
// and a scan of the whole file at Open), NoStatistics (reads). The frame
// of a saved table is a pooled buffer, back in the pool once its
// transaction has ended.
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
