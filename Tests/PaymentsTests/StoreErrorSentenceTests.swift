import StoreTransport
import StoreWire
import Testing

/// A store's failure as a whole sentence and as a clause, made beside its words: a full stop closes words of our
/// own, and words from outside (the store's message, a transport's detail) that end a sentence themselves are not
/// closed twice.
@Suite struct StoreErrorSentenceTests {
    @Test func wordsOfOurOwnAreClosedByAFullStop() {
        #expect(StoreError.purchaseNotAllowed.sentence == "purchases are not allowed on this device.")
        #expect(StoreError.historyDidNotEnd(pages: 1000).sentence.hasSuffix("so it was not read further."))
        #expect(
            StoreError.noAnswer("no answer from 127.0.0.1:1 within 10 seconds").sentence
                == "the store did not answer: no answer from 127.0.0.1:1 within 10 seconds.")
    }

    @Test func wordsFromOutsideThatEndASentenceAreNotClosedTwice() {
        let question = StoreError.networkError("nothing answers at 127.0.0.1:1; is the store running?")
        #expect(question.sentence == "cannot reach the store: nothing answers at 127.0.0.1:1; is the store running?")
        let said = StoreError.storeResponse(status: 404, code: .transactionIdNotFound, message: "No such transaction.")
        #expect(said.sentence == "the store said: No such transaction.")
        #expect(said.clause == "the store said: No such transaction")
    }

    @Test func aClauseKeepsWordsThatEndNoSentence() {
        let said = StoreError.storeResponse(
            status: 503, code: .simulatedStoreKitError, message: "Simulated failure for finish")
        #expect(said.clause == "the store said: Simulated failure for finish")
        #expect(StoreError.notEntitled.clause == "not entitled")
        #expect(
            StoreError.networkError("this device has no network connection.").reasonClause
                == "this device has no network connection")
        #expect(StoreError.notEntitled.reasonClause == "not entitled")
    }
}
