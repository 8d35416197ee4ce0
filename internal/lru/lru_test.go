package lru

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

func TestGetOrBuildEvictsTheLeastRecentlyUsed(t *testing.T) {
	c := New[int, string](2)
	builds := 0
	get := func(k int) string {
		return c.GetOrBuild(k, func() string { builds++; return fmt.Sprint(k) })
	}
	get(1)
	get(2)
	get(1) // 1 is now the most recent
	get(3) // evicts 2
	if builds != 3 {
		t.Errorf("builds = %d, want 3", builds)
	}
	if v := get(1); builds != 3 || v != "1" {
		t.Errorf("1 was rebuilt or changed: builds = %d, value %q", builds, v)
	}
	get(2)
	if builds != 4 || c.Len() != 2 {
		t.Errorf("after asking for 2 again: builds = %d, entries = %d; want 4 and 2", builds, c.Len())
	}
}

func TestGetAndAdd(t *testing.T) {
	c := New[string, int](2)
	if _, ok := c.Get("a"); ok {
		t.Fatal("empty cache has a")
	}
	c.Add("a", 1)
	c.Add("b", 2)
	c.Add("a", 10) // kept: a is there
	if v, ok := c.Get("a"); !ok || v != 1 {
		t.Errorf("Get(a) = %d, %v; want 1, true", v, ok)
	}
	c.Add("c", 3) // b is the least recently used
	if _, ok := c.Get("b"); ok {
		t.Error("b was not evicted")
	}
	for k, want := range map[string]int{"a": 1, "c": 3} {
		if v, ok := c.Get(k); !ok || v != want {
			t.Errorf("Get(%s) = %d, %v; want %d, true", k, v, ok, want)
		}
	}
	if n := New[int, int](0); n.GetOrBuild(1, func() int { return 7 }) != 7 || n.Len() != 1 {
		t.Error("a cache of size 0 does not hold one entry")
	}
}

// Many goroutines asking for one missing key get one build and the same value.
func TestBuildOnce(t *testing.T) {
	c := New[int, *int](4)
	var builds atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	got := make([]*int, 16)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = c.GetOrBuild(1, func() *int {
				<-release
				builds.Add(1)
				v := 42
				return &v
			})
		}()
	}
	if _, ok := c.Get(1); ok {
		t.Error("Get reports a value still being built")
	}
	close(release)
	wg.Wait()
	if builds.Load() != 1 {
		t.Errorf("builds = %d, want 1", builds.Load())
	}
	for i, p := range got {
		if p != got[0] {
			t.Fatalf("goroutine %d got another value", i)
		}
	}
}

// Concurrent use with evictions keeps the cache's bounds and values (run with -race).
func TestConcurrent(t *testing.T) {
	c := New[int, int](8)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				k := (i*7 + w) % 20
				if v := c.GetOrBuild(k, func() int { return k * k }); v != k*k {
					t.Errorf("key %d: value %d", k, v)
					return
				}
				if v, ok := c.Get(k); ok && v != k*k {
					t.Errorf("Get(%d) = %d", k, v)
					return
				}
			}
		}()
	}
	wg.Wait()
	if n := c.Len(); n > 8 {
		t.Errorf("Len = %d, over the size 8", n)
	}
}

// BenchmarkGetHit is the hot path (a board picture already drawn): no allocation.
func BenchmarkGetHit(b *testing.B) {
	c := New[string, []byte](1024)
	keys := make([]string, 64)
	for i := range keys {
		keys[i] = fmt.Sprintf("key-%d", i)
		c.Add(keys[i], []byte{byte(i)})
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, ok := c.Get(keys[i%len(keys)]); !ok {
			b.Fatal("miss")
		}
	}
}

// BenchmarkGetOrBuildHit: the renderer's caches, always hit after warming.
func BenchmarkGetOrBuildHit(b *testing.B) {
	c := New[int, int](24)
	for i := range 24 {
		c.Add(i, i)
	}
	build := func() int { return 0 }
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c.GetOrBuild(i%24, build)
	}
}
