package ladder

import (
	"reflect"
	"testing"

	"github.com/gambitchess/gambit/storage"
)

func TestSortLadder(t *testing.T) {
	ps := []storage.LadderPlayer{ // as the store lists them: by user id
		{UserID: "ann", Rating: 1520, Games: 1},
		{UserID: "bob", Rating: 1480, Games: 1},
		{UserID: "cid", Rating: 1520, Games: 3}, // ann's rating, more games: first
		{UserID: "dan", Rating: 1520, Games: 1}, // ann's rating and games: after ann
		{UserID: "eve", Rating: 2100},
	}
	sortLadder(ps)
	var got []string
	for _, p := range ps {
		got = append(got, p.UserID)
	}
	if want := []string{"eve", "cid", "ann", "dan", "bob"}; !reflect.DeepEqual(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}
