import CreditLedger
import Foundation
import OptionParsing
import VoiceDebriefCredit

/// `credit run FILE|-`: a sequence of acts, one per line, in one app session.
struct RunCommand: CreditCommand {
    static let source = Argument.word(.fileOrStdin, help: "a file of acts, or - for standard input")

    static let configuration = CommandSpec(
        "run", summary: "a sequence of acts, one per line, in one app session",
        discussion: """
            Charges a sequence of acts, one per line, in the same words as `credit charge` (the word `charge` may be
            left out), as one app session: a note read twice is charged once. Blank lines and lines starting with #
            are skipped. Every line is checked before anything is charged: a line that is wrong (readNote without
            --subject, say) charges nothing at all, and names the line.
            """,
        positionals: [source.spec])

    /// The file of acts, or `-` for standard input.
    let source: String

    init(_ arguments: ParsedArguments) throws(UsageError) { source = try arguments.value(of: Self.source) }

    func run(_ context: Context) throws -> Int32 {
        let requests = try readActs()
        let meter = Meter(ledger: try context.openLedger(), prices: VoiceDebriefPrices(), ids: context.ids)
        var results: [LedgerOutputs.Acts.Act] = []
        for (line, request) in requests {
            let outcome = try meter.charge(request)
            if context.json {
                var act = LedgerOutputs.Acts.Act(line: line, key: request.key)
                switch outcome {
                case .charged(let entry): act.entry = EntryJSON(entry)
                case .notCharged(let reason): act.notCharged = reason
                }
                results.append(act)
            } else {
                switch outcome {
                case .charged(let entry):
                    print("line \(line): \(DisplayText.escaped(EntryWords.charge(entry))) \(entry.amount.formatted)")
                case .notCharged(let reason):
                    let name = VoiceDebriefPrices().item(for: request.key)?.name ?? request.key
                    print("line \(line): \(DisplayText.escaped(name)): not charged, \(DisplayText.escaped(reason)).")
                }
            }
        }
        if context.json {
            try printJSON(LedgerOutputs.Acts(acts: results, balance: meter.ledger.balance.rawValue))
        } else {
            print("Balance \(LedgerCommands.styledBalance(meter.ledger.balance, context)).")
        }
        return CreditCLI.success
    }

    /// Every act of the file, by line, each checked before the ledger is opened: a mistake on any line charges
    /// nothing.
    private func readActs() throws -> [(line: Int, request: ChargeRequest)] {
        let text: String
        if source == "-" {
            text = String(decoding: Console.current.input.readAll(), as: UTF8.self)
        } else {
            guard let data = FileManager.default.contents(atPath: source) else {
                throw CreditFailure.cannotRead(path: source)
            }
            text = String(decoding: data, as: UTF8.self)
        }
        var requests: [(line: Int, request: ChargeRequest)] = []
        for (index, raw) in Self.lines(of: text).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            do {
                var words = try splitWords(line)
                if words.first == ChargeCommand.configuration.name { words.removeFirst() }
                let request = try ChargeCommand.request(line: words)
                try LedgerCommands.check(request)
                requests.append((index + 1, request))
            } catch let error as UsageError {
                throw UsageError("\(source) line \(index + 1): \(error.message); nothing was charged")
            } catch let error as CreditFailure {
                throw CreditFailure.actLine(source: source, line: index + 1, error)
            }
        }
        return requests
    }

    /// The lines of `text`, each without its end: a line ends at LF, at CRLF (as a file written on Windows does;
    /// one `Character` in Swift, so never a split at LF alone), and a CR left at the end of a line (the file's last,
    /// with no LF after it) is its end too.
    static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.map { line in
            line.last == "\r" ? line.dropLast() : line
        }
    }
}
