// fairqueue.go: the fair order of the engine's work: round robin over servers, then
// over the users of a server, then first in, first out for one user.

package engineplay

// fairQueue orders work so that no server and no user can crowd out another: each pop
// serves the server whose turn it is, within it the user whose turn it is, and that
// user's oldest item. The server and user just served go to the back of their rings
// at the next pop, behind whoever started waiting meanwhile; one that has nothing left
// leaves its ring, and joins at the back when it has work again. So a server that
// starts waiting while k others wait is served within k+1 pops, however much the
// others queued (the very next pop when the others are one flooding server), and
// likewise a user within its server.
//
// With exclusive set, a server's items are served one at a time: a server that was
// served is out of the ring until release, whatever it queues meanwhile.
//
// The zero value is not ready: use newFairQueue. It is not safe for concurrent use.
// Once warm (its rings grown and its lines recycled), push and pop do not allocate.
type fairQueue[T any] struct {
	exclusive bool
	servers   fifo[*serverLine[T]] // waiting, in turn order
	held      *serverLine[T]       // served last: back into the ring at the next pop
	byServer  map[string]*serverLine[T]
	n         int // items queued, stale ones included

	spareServers []*serverLine[T]
	spareUsers   []*userLine[T]
}

// serverLine is one server's waiting users. A server known to the queue is in
// exactly one place: the ring, held, or busy (exclusive).
type serverLine[T any] struct {
	name   string
	users  fifo[*userLine[T]] // waiting, in turn order
	held   *userLine[T]       // served last: back into the ring at the server's next turn
	byUser map[string]*userLine[T]
	busy   bool // exclusive only: served and not yet released
	n      int  // items queued, stale ones included
}

// hasWork reports whether the server has items waiting.
func (s *serverLine[T]) hasWork() bool { return s.users.len() > 0 || s.held != nil }

// userLine is one user's waiting items, oldest first.
type userLine[T any] struct {
	name  string
	items fifo[T]
}

func newFairQueue[T any](exclusive bool) *fairQueue[T] {
	return &fairQueue[T]{exclusive: exclusive, byServer: map[string]*serverLine[T]{}}
}

// len is how many items are queued (items that pop would skip as stale included).
func (q *fairQueue[T]) len() int { return q.n }

// waiting is how many items server has queued (stale ones included).
func (q *fairQueue[T]) waiting(server string) int {
	if s := q.byServer[server]; s != nil {
		return s.n
	}
	return 0
}

// push queues v for user of server, behind that user's earlier items.
func (q *fairQueue[T]) push(server, user string, v T) {
	s := q.byServer[server]
	if s == nil {
		s = q.newServer(server)
		q.byServer[server] = s
		q.servers.push(s)
	}
	u := s.byUser[user]
	if u == nil {
		u = q.newUser(user)
		s.byUser[user] = u
		s.users.push(u)
	}
	u.items.push(v)
	q.n++
	s.n++
}

// pushFront queues v for user of server ahead of that user's other items (work that
// was interrupted and resumes); the user and server keep their places in the rings.
func (q *fairQueue[T]) pushFront(server, user string, v T) {
	s := q.byServer[server]
	if s == nil || (s.byUser[user] == nil) {
		q.push(server, user, v)
		return
	}
	s.byUser[user].items.pushFront(v)
	q.n++
	s.n++
}

// pop takes the next item in fair order, skipping (and dropping) the items live
// refuses, and returns it with its server. A skipped item does not count as a turn.
func (q *fairQueue[T]) pop(live func(T) bool) (v T, server string, ok bool) {
	if s := q.held; s != nil {
		q.held = nil
		q.requeue(s)
	}
	for q.servers.len() > 0 {
		s := q.servers.front()
		if u := s.held; u != nil {
			s.held = nil
			s.users.push(u) // a held user always has items
		}
		u := s.users.front()
		v = u.items.pop()
		q.n--
		s.n--
		if live != nil && !live(v) {
			if u.items.len() == 0 {
				s.users.pop()
				q.dropUser(s, u)
			}
			if s.users.len() == 0 {
				q.servers.pop()
				q.dropServer(s)
			}
			continue
		}
		s.users.pop()
		if u.items.len() > 0 {
			s.held = u
		} else {
			q.dropUser(s, u)
		}
		q.servers.pop()
		if q.exclusive {
			s.busy = true
		} else {
			q.held = s
		}
		return v, s.name, true
	}
	var zero T
	return zero, "", false
}

// release ends an exclusive server's turn: it takes its place at the back of the ring
// if it has work waiting.
func (q *fairQueue[T]) release(server string) {
	s := q.byServer[server]
	if s == nil || !s.busy {
		return
	}
	s.busy = false
	q.requeue(s)
}

// requeue puts a server that was served at the back of the ring, or forgets it when it
// has nothing waiting.
func (q *fairQueue[T]) requeue(s *serverLine[T]) {
	if s.hasWork() {
		q.servers.push(s)
	} else {
		q.dropServer(s)
	}
}

func (q *fairQueue[T]) newServer(name string) *serverLine[T] {
	if n := len(q.spareServers); n > 0 {
		s := q.spareServers[n-1]
		q.spareServers = q.spareServers[:n-1]
		s.name = name
		return s
	}
	return &serverLine[T]{name: name, byUser: map[string]*userLine[T]{}}
}

func (q *fairQueue[T]) newUser(name string) *userLine[T] {
	if n := len(q.spareUsers); n > 0 {
		u := q.spareUsers[n-1]
		q.spareUsers = q.spareUsers[:n-1]
		u.name = name
		return u
	}
	return &userLine[T]{name: name}
}

// dropServer forgets a server with no work and no turn in progress.
func (q *fairQueue[T]) dropServer(s *serverLine[T]) {
	delete(q.byServer, s.name)
	s.busy, s.held = false, nil
	q.spareServers = append(q.spareServers, s)
}

// dropUser forgets a user of s with no items left.
func (q *fairQueue[T]) dropUser(s *serverLine[T], u *userLine[T]) {
	delete(s.byUser, u.name)
	q.spareUsers = append(q.spareUsers, u)
}

// fifo is a first-in, first-out list on a slice that it reuses.
type fifo[T any] struct {
	buf  []T
	head int
}

func (f *fifo[T]) len() int { return len(f.buf) - f.head }

func (f *fifo[T]) front() T { return f.buf[f.head] }

func (f *fifo[T]) push(v T) {
	if f.head > 0 && len(f.buf) == cap(f.buf) {
		// Slide the live part down rather than grow.
		n := copy(f.buf, f.buf[f.head:])
		clear(f.buf[n:])
		f.buf, f.head = f.buf[:n], 0
	}
	f.buf = append(f.buf, v)
}

func (f *fifo[T]) pushFront(v T) {
	if f.head > 0 {
		f.head--
		f.buf[f.head] = v
		return
	}
	var zero T
	f.buf = append(f.buf, zero)
	copy(f.buf[1:], f.buf)
	f.buf[0] = v
}

func (f *fifo[T]) pop() T {
	v := f.buf[f.head]
	var zero T
	f.buf[f.head] = zero
	f.head++
	if f.head == len(f.buf) {
		f.buf, f.head = f.buf[:0], 0
	}
	return v
}
