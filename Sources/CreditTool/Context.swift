import Clocks
import CreditLedger
import Foundation
import OptionParsing
import Payments
import VoiceDebriefCredit

/// What every command needs: where the data is, how to print, and the injected clock and ids.
struct Context {
    /// Where the ledger is (for a reading command on a directory that is not there, a scratch one).
    var dataDirectory: String
    let json: Bool
    let style: Style
    let clock: any LedgerClock
    let ids: any IDSource

    init(arguments args: ParsedArguments) throws {
        let environment = Console.current.environment
        if let given = try args.value(of: CreditCommandLine.dataDirectory) ?? Console.current.dataDirectory {
            dataDirectory = given
        } else if let resolved = DataDirectoryLocation.resolve(environment: environment) {
            // $CREDIT_DATA_DIR, $XDG_DATA_HOME, then $HOME (the passwd entry only without a HOME).
            dataDirectory = resolved
        } else {
            throw CreditFailure.noHomeDirectory
        }
        json = try args.value(of: CreditCommandLine.json)
        style = json ? Style(enabled: false) : Style.detected
        // For tests and demonstrations: a fixed time (CREDIT_NOW, ISO 8601 UTC with milliseconds).
        if let now = environment["CREDIT_NOW"], !now.isEmpty {
            guard let time = Timestamp(iso8601: now) else {
                throw CreditFailure.badNow(now)
            }
            clock = FixedClock(time)
        } else {
            clock = SystemClock()
        }
        ids = RandomIDs()
    }

    /// Opens (or creates) the ledger, telling the user about anything loading found.
    func openLedger() throws -> Ledger {
        let ledger = try CreditApp.openLedger(directory: dataDirectory, clock: clock, ids: ids)
        announce(ledger)
        return ledger
    }

    /// Opens (or creates) the ledger and runs `body` with it under the open's lock: one `flock` for a command that
    /// changes the ledger and exits (a charge, a decline).
    func withLedger<T>(_ body: (Ledger) throws -> T) throws -> T {
        try CreditApp.withLedger(directory: dataDirectory, clock: clock, ids: ids) { ledger in
            announce(ledger)
            return try body(ledger)
        }
    }

    private func announce(_ ledger: Ledger) {
        for notice in ledger.notices { printError("credit: note: \(notice)") }
        // And whatever comes up later: a torn tail another process left, a signed head not kept up after an append
        // (said to this run's standard error, from whichever thread notices).
        let errors = Console.current.errors
        ledger.onNotice = { errors.write("credit: note: \($0)\n") }
        if !ledger.isSigned {
            printError("credit: note: this ledger was made before signing existed; `credit upgrade` signs it")
        }
    }
}
