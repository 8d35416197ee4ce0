package discordfake

import (
	"strconv"
	"sync"
	"time"
)

// discordEpochMS is the first millisecond of 2015, where Discord snowflake
// timestamps start.
const discordEpochMS = 1420070400000

// Snowflake layout: 42 bits of milliseconds since the Discord epoch, 5 bits
// worker, 5 bits process, 12 bits increment.
const (
	timestampShift = 22
	workerShift    = 17
	processShift   = 12
	incrementMask  = 1<<12 - 1
)

// snowflakes hands out strictly increasing snowflake IDs stamped with the
// current time, as Discord's API servers do.
type snowflakes struct {
	mu     sync.Mutex
	worker int64
	last   int64
}

// next returns a fresh snowflake, greater than every one before it.
func (g *snowflakes) next() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	id := makeSnowflake(time.Now(), g.worker, 1, 0)
	if id <= g.last {
		id = g.last + 1
	}
	g.last = id
	return strconv.FormatInt(id, 10)
}

// makeSnowflake packs a snowflake for time t.
func makeSnowflake(t time.Time, worker, process, increment int64) int64 {
	ms := t.UnixMilli() - discordEpochMS
	return ms<<timestampShift | (worker&31)<<workerShift | (process&31)<<processShift | increment&incrementMask
}

// SnowflakeTime returns the creation time encoded in a snowflake ID.
func SnowflakeTime(id string) (time.Time, error) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return time.Time{}, err
	}
	return time.UnixMilli(n>>timestampShift + discordEpochMS), nil
}

// ShardFor returns the shard that receives a guild's events when the bot
// runs shardCount shards: (guild_id >> 22) % shard_count, Discord's formula.
// A direct message (guildID "") goes to shard 0, as does an unparsable ID.
func ShardFor(guildID string, shardCount int) int {
	if guildID == "" || shardCount <= 1 {
		return 0
	}
	n, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil {
		return 0
	}
	return int((n >> timestampShift) % uint64(shardCount))
}
