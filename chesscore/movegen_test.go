package chesscore

import "testing"

// TestIsLegalMatchesLegalMoves checks IsLegal against the list LegalMoves makes: over the
// perft suite's positions and the positions two plies on (castling, en passant, pins,
// checks and promotions all occur there), every one of the 65,536 move codes is legal
// exactly when the list holds it; over every eighth real-game position, every code from a piece of
// the side to move.
func TestIsLegalMatchesLegalMoves(t *testing.T) {
	fens := []string{
		"8/8/8/KPp4r/8/8/8/7k w - c6 0 1",      // e.p. would open the rank to the king: no right kept
		"k7/8/6K1/3PpP2/8/3b4/8/8 w - e6 0 1",  // dxe6 e.p. legal, fxe6 e.p. breaks a pin
		"8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",    // e.p. takes the checking pawn
		"4k3/8/8/q2pP2K/8/8/8/8 w - d6 0 1",    // e.p. would open the rank, king on the right
		"r3k2r/8/8/8/8/8/8/R3K1R1 b Qkq - 0 1", // castling with a rook on g1
		"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", // both castlings
		"4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1",    // a pinned knight
		"4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1",    // a rook pinned along its line
		"4k3/8/8/2Pp4/1K6/8/8/8 w - d6 0 1",    // en passant, the king beside
		"4k3/8/8/8/8/5n2/8/R3K2R w KQ - 0 1",   // in check, castling rights
		"4k3/8/8/8/8/5n2/4r3/R3K2R w KQ - 0 1", // double check
		"4k3/1P6/8/8/8/8/6p1/4K2R w K - 0 1",   // promotions
		"8/8/8/8/8/2k5/8/K1Q5 b - - 0 1",       // kings side by side, a capture
	}
	for _, c := range loadPerftSuite(t) {
		fens = append(fens, c.fen)
	}
	var positions []Position
	for _, fen := range fens {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		positions = append(positions, p)
		var ml, ml2 MoveList
		p.LegalMoves(&ml)
		for i, m := range ml.Moves[:ml.N] {
			q := p.Play(m)
			if i%6 == 0 {
				positions = append(positions, q)
			}
			q.LegalMoves(&ml2)
			for j, m2 := range ml2.Moves[:ml2.N] {
				if (i+j)%47 == 0 {
					positions = append(positions, q.Play(m2))
				}
			}
		}
	}
	checked := 0
	check := func(p *Position, m Move, listed bool) {
		if got := p.IsLegal(m); got != listed {
			t.Fatalf("%s: IsLegal(%s, kind %d, code %#04x) = %v, LegalMoves lists it: %v", p.FEN(), m, m.Kind(), uint16(m), got, listed)
		}
		checked++
	}
	for i := range positions {
		p := &positions[i]
		var ml MoveList
		p.LegalMoves(&ml)
		for code := range 1 << 16 {
			m := Move(code)
			check(p, m, ml.Contains(m))
		}
	}
	real := loadRealGames(t)
	for i := 0; i < len(real); i += 8 {
		p := &real[i]
		var ml MoveList
		p.LegalMoves(&ml)
		for b := p.byColor[p.turn]; b != 0; {
			from := b.PopFirst()
			for hi := range 16 {
				for to := range Square(64) {
					m := Move(from) | Move(to)<<6 | Move(hi)<<12
					check(p, m, ml.Contains(m))
				}
			}
		}
	}
	if len(positions) < 300 {
		t.Fatalf("only %d perft positions", len(positions))
	}
	t.Logf("%d positions from the perft suite, %d real; %d moves checked", len(positions), (len(real)+7)/8, checked)
}

// TestHasLegalMoveMatchesLegalMoves checks HasLegalMove (a king step, then in check only
// the moves that answer it) against the list LegalMoves makes: over hand positions where
// a check is answered only by a capture with promotion, an interposing double push, en
// passant, or a pinned piece that may not help, over the perft suite, over every real
// game position and every position one legal move from it, and over random placements of
// many pieces and the positions one move from them.
func TestHasLegalMoveMatchesLegalMoves(t *testing.T) {
	var positions []Position
	for _, fen := range []string{
		"r6K/1P4PP/8/8/8/8/8/k7 w - - 0 1",          // takes or steps between, both with promotion
		"r6K/6PP/8/8/8/8/8/k7 w - - 0 1",            // only g8=Q and the others step between
		"3r3k/8/8/b7/8/8/1P2PP2/4KB2 w - - 0 1",     // only b4, a double push, steps between
		"3r3k/8/8/b7/8/8/4PP2/1N2KB2 w - - 0 1",     // Nd2 or Nc3 steps between
		"3r3k/8/8/b7/8/8/4PP2/rN2KB2 w - - 0 1",     // the knight is pinned: mate
		"3r3k/8/8/b7/8/5n2/4PP2/1N1QKB2 w - - 0 1",  // a double check: mate
		"8/8/3ppp2/3bkr2/3Ppp2/2P5/8/K7 b - d3 0 1", // only exd3, en passant, takes the checker
		"6k1/5ppp/8/8/8/8/5PPP/1r4K1 w - - 0 1",     // a back-rank mate
		"4k3/8/8/8/8/8/1P6/K6r w - - 0 1",           // the king steps out
		"r3k3/8/8/8/8/8/8/4K2R b - - 0 1",           // no check
		"k7/P7/1K6/8/8/8/8/8 b - - 0 1",             // flights covered by a pawn and a king: stalemate
		"7k/8/5NPK/8/8/8/8/8 b - - 0 1",             // g8 covered by the knight alone: stalemate
		"7k/8/6PK/8/8/8/8/8 b - - 0 1",              // g8 is free of the leapers' cover
		"6k1/8/5PK1/8/8/8/8/1B6 b - - 0 1",          // h8 is left by the leapers, the bishop takes it
	} {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatalf("%s: %v", fen, err)
		}
		positions = append(positions, p)
	}
	for _, c := range loadPerftSuite(t) {
		p, err := ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		positions = append(positions, p)
	}
	var ml MoveList
	checks, mates := 0, 0
	check := func(p *Position) {
		p.LegalMoves(&ml)
		if got, want := p.HasLegalMove(), ml.N > 0; got != want {
			t.Fatalf("%s: HasLegalMove %v, LegalMoves lists %d", p.FEN(), got, ml.N)
		}
		if p.InCheck() {
			checks++
			if ml.N == 0 {
				mates++
			}
		}
	}
	for i := range positions {
		check(&positions[i])
	}
	eachRealPositionAndChild(t, 1, check)
	// Random placements: many checks, answered by promotions, pinned pieces, double pushes.
	before := checks
	rng := testRNG(0x5DEECE66D)
	for _, mat := range []string{"QRPPPrnbpp", "RBNPPPqrpp", "QQPPPPrrbnpppp", "RRNBPPPPqbbnpp"} {
		for i := 0; i < 400; i++ {
			p, ok := randomPosition(&rng, mat, Color(i&1))
			if !ok {
				continue
			}
			check(&p)
			p.LegalMoves(&ml)
			moves := ml
			for _, m := range moves.Moves[:moves.N] {
				q := p.Play(m)
				check(&q)
			}
		}
	}
	if checks-before < 500 {
		t.Errorf("the random placements gave only %d checks", checks-before)
	}
	if checks < 5000 || mates < 100 {
		t.Errorf("only %d checks, %d mates", checks, mates)
	}
}
