import OptionParsing
import StoreTransport
import StoreWire
import Testing

@testable import CreditTool

/// `credit`'s failures: each a case, its words made in one place, whole, and its exit status 1.
@Suite struct CreditFailureWordsTests {
    @Test func aStoreFailureIsOneSentenceThenWhatBecameOfTheRequest() {
        let down = StoreError.networkError("nothing answers at 127.0.0.1:1; is the store running?")
        #expect(
            CreditFailure.topUpFailed(down).description
                == "cannot reach the store: nothing answers at 127.0.0.1:1; is the store running? Nothing was bought.")
        let said = StoreError.storeResponse(status: 500, code: .generalInternal, message: "Try again.")
        #expect(
            CreditFailure.reconcileFailed(said).description
                == "the store said: Try again. Nothing was compared, and nothing was changed.")
        #expect(
            CreditFailure.collectStopped(.notEntitled).description
                == "not entitled. Collecting stopped there: anything credited stays credited, and the next collect "
                + "carries on, crediting nothing twice.")
        #expect(CreditFailure.collectStopped(.notEntitled).storeError == .notEntitled)
        #expect(CreditFailure.noPinnedRoot.storeError == nil)
    }

    @Test func aLineOfActsNamesItsSourceAndLine() {
        let failure = CreditFailure.actLine(source: "acts.txt", line: 3, .cannotRead(path: "x"))
        #expect(failure.description == "acts.txt line 3: cannot read x; nothing was charged")
    }

    @Test func theWordsOfTheDataDirectoryAndTheSummaries() {
        #expect(
            CreditFailure.noAccount(directory: "/d", lacking: "it has no devices").description
                == "no account exists in /d: it has no devices. Is --data-dir (or CREDIT_DATA_DIR) the right place?")
        #expect(
            CreditFailure.nothingToTotal(directory: "/s", nothingThere: true).description
                == "there are no summaries in /s (no .json file): nothing to total")
        #expect(
            CreditFailure.nothingToTotal(directory: "/s", nothingThere: false).description
                == "no summary in /s could be counted (each is named above): nothing to total")
        #expect(
            CreditFailure.cannotWrite(what: "the page", path: "/p", why: "it is a folder").description
                == "cannot write the page to /p: it is a folder; nothing was written")
    }

    @Test func aFailureIsExit1() {
        #expect(ExitStatus(for: CreditFailure.noHomeDirectory) == .failure)
        #expect(
            ExitStatus(
                for: CreditFailure.neverCharged(.neverCharged(act: "record", message: "recording is never charged")))
                == .failure)
    }
}
