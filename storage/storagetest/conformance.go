// conformance.go: the conformance suite: what every backend must do, run by each backend's
// tests (storage/bolt, storage/pg).

package storagetest

import "testing"

// Conformance runs the suite on be, one subtest per behaviour: what the services rely
// on whatever the backend (records, indexes, versions, receipts, reservations, leases,
// ratings, puzzles, tournaments, the engine's games).
func Conformance(t *testing.T, be Backend) {
	for _, c := range []struct {
		name string
		run  func(t *testing.T, be Backend)
	}{
		{"ReservationHolderExpiryAndRenewal", testReservationHolderExpiryAndRenewal},
		{"ReservationRefusesBadArguments", testReservationRefusesBadArguments},
		{"ReservationOneWinnerAmongConcurrentTakers", testReservationOneWinnerAmongConcurrentTakers},
		{"ClaimDeliveryOnce", testClaimDeliveryOnce},
		{"DigestUsers", testDigestUsers},
		{"EngineGames", testEngineGames},
		{"EngineGameRefusals", testEngineGameRefusals},
		{"Plans", testPlans},
		{"PlanRefusals", testPlanRefusals},
		{"VoteGames", testVoteGames},
		{"VoteGameRefusals", testVoteGameRefusals},
		{"VoteGameOneWriterPerVersion", testVoteGameOneWriterPerVersion},
		{"Vacations", testVacations},
		{"VacationRefusals", testVacationRefusals},
		{"VacationOneWriterPerVersion", testVacationOneWriterPerVersion},
		{"LinkedAccounts", testLinkedAccounts},
		{"LinkedAccountRefusals", testLinkedAccountRefusals},
		{"LinkedAccountOneWriterPerVersion", testLinkedAccountOneWriterPerVersion},
		{"LeaseRecords", testLeaseRecords},
		{"HeartbeatsListsEveryInstance", testHeartbeatsListsEveryInstance},
		{"LeaseTableRules", testLeaseTableRules},
		{"LeaseTableAcquireIsAtomic", testLeaseTableAcquireIsAtomic},
		{"LeaseManagersOverTheStore", testLeaseManagersOverTheStore},
		{"StoreKeepsMates", testStoreKeepsMates},
		{"AddPuzzlesKeepsStoredOnesAndIndexes", testAddPuzzlesKeepsStoredOnesAndIndexes},
		{"PickPuzzleRules", testPickPuzzleRules},
		{"DailiesPlayersAttempts", testDailiesPlayersAttempts},
		{"PuzzleSettings", testPuzzleSettings},
		{"LadderPlayerValidation", testLadderPlayerValidation},
		{"UserLadders", testUserLadders},
		{"RatedResultsOnceInEndOrder", testRatedResultsOnceInEndOrder},
		{"UpdateIsAtomic", testUpdateIsAtomic},
		{"ReplaceLaddersAndSettings", testReplaceLaddersAndSettings},
		{"CommitAndIndexes", testCommitAndIndexes},
		{"Chess960Records", testChess960Records},
		{"CommitRejectsBadRecords", testCommitRejectsBadRecords},
		{"AfterHookIsAtomic", testAfterHookIsAtomic},
		{"ConcurrentCommitsGetUniqueIDs", testConcurrentCommitsGetUniqueIDs},
		{"Challenges", testChallenges},
		{"SettingsAndUsers", testSettingsAndUsers},
		{"PruneReceipts", testPruneReceipts},
		{"Heartbeat", testHeartbeat},
		{"Tournaments", testTournaments},
		{"TournamentInGameTransaction", testTournamentInGameTransaction},
		{"GameVersionRefusesStaleCopies", testGameVersionRefusesStaleCopies},
		{"RepeatedReceiptActsOnce", testRepeatedReceiptActsOnce},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, be) })
	}
}
