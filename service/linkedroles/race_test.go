package linkedroles_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/bot"
	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/linkedroles"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/storagetest"
	"github.com/gambitchess/gambit/web"
)

// registerMetadata registers the bot's role-connection metadata on the fake, as the bot
// does at start.
func registerMetadata(t *testing.T, f *discordfake.Fake) {
	t.Helper()
	body, _ := json.Marshal(bot.RoleMetadata())
	req, _ := http.NewRequest(http.MethodPut, f.RESTURL()+"applications/"+f.AppID+"/role-connections/metadata", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bot "+f.Token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("register the metadata: %d", res.StatusCode)
	}
}

// Two processes push one user's changed rating at once with an expired token: a
// refresh token is good once, so one refreshes and the other uses the grant it
// recorded; the link survives and the rating reaches Discord.
func TestTwoProcessesRefreshOneGrant(t *testing.T) {
	ctx := context.Background()
	f := discordfake.New(t)
	registerMetadata(t, f)
	db := storagetest.OpenFile(t, filepath.Join(t.TempDir(), "lr.db"), &bolt.Options{NoSync: true})
	clk := timers.NewManualClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	newService := func() *linkedroles.Service {
		d := &web.LinkedRolesDiscord{ClientID: f.AppID, ClientSecret: f.ClientSecret, RedirectURL: "http://127.0.0.1/linked-roles/callback", APIURL: f.RESTURL()}
		s, err := linkedroles.New(db, d, linkedroles.Options{Secret: []byte(f.ClientSecret), Clock: clk})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := newService(), newService()
	bob := f.NewUser("bob")
	if _, _, err := a.Link(ctx, f.MintCode(bob.ID, "identify")); err == nil {
		t.Fatal("a link without role_connections.write was accepted")
	}
	if id, _, err := a.Link(ctx, f.MintCode(bob.ID, "identify", linkedroles.Scope)); err != nil || id != bob.ID {
		t.Fatalf("link: %q, %v", id, err)
	}
	for round := 1; round <= 5; round++ {
		// A week passes (the token expires) and bob's rating moves.
		clk.Advance(8 * 24 * time.Hour)
		f.ExpireTokens(bob.ID)
		rating := 1500 + 20*round
		if err := db.Update(ctx, func(tx storage.Tx) error {
			return tx.PutLadderPlayer(storage.LadderPlayer{GuildID: "g", Category: clock.Blitz, UserID: bob.ID, Rating: float64(rating), RD: 100, Volatility: 0.06,
				Peak: float64(rating), Games: round, Wins: round})
		}); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for _, s := range []*linkedroles.Service{a, b} {
			wg.Go(func() { s.RatingsChanged(ctx, bob.ID) })
		}
		wg.Wait()
		acc, err := storage.Read(ctx, db, func(tx storage.Tx) (*storage.LinkedAccount, error) { return tx.LinkedAccount(bob.ID) })
		if err != nil {
			t.Fatalf("round %d: the link is gone: %v", round, err)
		}
		if c, _ := f.RoleConnection(bob.ID); c.Metadata[linkedroles.KeyBlitz] != strconv.Itoa(rating) || acc.Pushed[linkedroles.KeyBlitz] != strconv.Itoa(rating) {
			t.Fatalf("round %d: Discord has %v, the store %v; want blitz %d", round, c.Metadata, acc.Pushed, rating)
		}
	}
}
