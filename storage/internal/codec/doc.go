// Package codec encodes the records both backends store: the binary game, ladder
// player and puzzle records and the JSON envelope of the others, and the key layouts
// they share (ids as 8-byte big-endian integers). A decoding error wraps
// storage.ErrCorrupt.
//
// # The game record
//
// A game is one binary record, rewritten whole at each change (a 60-move game is
// about 300 bytes). Integers are varints (encoding/binary: uvarint for counts, zig-zag
// varint for durations and instants), strings are a uvarint length and the bytes,
// instants are unix nanoseconds (0 is the zero time), durations nanoseconds:
//
//	byte     format = 1
//	uvarint  flags: 1 rated, 2 has clock, 4 free first moves, 8 draw offer pending,
//	         16 takeback pending, 32 no-show time present, 64 a draw offer waits for
//	         its maker's next move, 128 last move's instant present, 256 arbiter notes
//	         present, 512 version present, 1024 mate knowledge present, 2048 not
//	         standard chess, 4096 a guest game (other bits are corrupt)
//	string   guild id, channel id, thread id
//	string   white id, white name, black id, black name
//	string   time control in canonical notation ("5+3", "3d", "-")
//	string   start FEN ("" = the standard start position)
//	uvarint  challenge id (0 = none)
//	varint   created, ended
//	byte     result (chesscore.Result), termination (chesscore.Termination)
//	if clock: byte state, byte turn, varint white left, black left,
//	          uvarint white moves, black moves, varint since, varint spent
//	if draw offer pending: byte by (0 white, 1 black), uvarint ply
//	if takeback pending:   byte by, uvarint ply
//	uvarint  draw offers by white, by black; last draw offer ply white, black;
//	         last takeback ply white, black
//	varint   abort at
//	uvarint  reminder ply (1 + the ply a reminder was sent for; 0 = none)
//	uvarint  n, then n moves, each a big-endian uint16 (chesscore.Move's packing:
//	         from, to, promotion, kind)
//	uvarint  k (0 or n), then k uvarints: the mover's clock in milliseconds when each
//	         move was made
//	if no-show time present: varint the forfeit time of a tournament game (a later
//	         addition: records without the flag end before it)
//	if last move's instant present: varint the instant of the last move (later still)
//	if arbiter notes present: uvarint count (1 to 50), then for each note: uvarint
//	         ply, varint instant, string arbiter id, arbiter name, action, reason
//	if version present: uvarint Game.Version (1 or more; records without it read as 0)
//	if mate knowledge present (a live game only; schema version 8): for white, then
//	         black, byte verdict (0 unknown, 1 yes, 2 no), and after a yes uvarint n (1
//	         to chesscore.MaxKnownLine) and n moves as above: the helpmate line.
//	         Game.Mates.Ply is the number of moves
//	if not standard chess: byte Game.Variant (1 Chess960; its start in the start FEN)
//
// A decoder refuses unknown formats, out-of-range values and trailing bytes with
// ErrCorrupt. A later format gets a new format byte; the old one stays readable. The
// ladder player and puzzle records are binary too, laid out in the bbolt backend's ratings.go and puzzles.go
// (storage/bolt).
//
// The other records are small and rarely written: each is the byte 'J' followed by the
// JSON of the struct (field names in the struct tags; time controls in their canonical
// notation). Fields added later decode to their defaults.
package codec
