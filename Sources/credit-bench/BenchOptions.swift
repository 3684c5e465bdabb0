#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the bench was asked to do.
struct BenchOptions {
    /// Entries in the big ledger (cold load, memory, in-memory sums, verify; half each for the merge).
    var entries = 1_000_000
    var quick = false
    /// Where the data goes (a new temporary directory by default), and whether to keep it.
    var work: String?
    var keep = false
    /// The StoreKit catalogue the mock store sells from.
    var catalogue = "Catalogue/Credit.storekit"
    /// `--load-only DIR`: the child that measures one cold load.
    var loadOnly: String?
    /// Which rows to run (all by default).
    var only: Set<String> = []

    /// This program, and the `credit` and `mockstore` binaries beside it.
    var executable = ""
    var credit: String?
    var mockstore: String?
    /// The Python interpreter `python3` runs (resolved once, so a shim's own start is not counted).
    var python: String?

    var appendCount: Int { quick ? 200 : 1_000 }
    var batchEntries: Int { quick ? 20_000 : 200_000 }
    var counterEntries: Int { min(100_000, entries) }
    /// Repetitions of each in-process or child measurement (medians are reported).
    var runs: Int { quick ? 1 : 3 }
    /// Process starts timed for the counter and its baseline.
    var processRuns: Int { quick ? 5 : 21 }
    /// Seconds of load for each HTTP measurement.
    var httpSeconds: Int { quick ? 2 : 5 }

    static let usage = """
        Usage: credit-bench [--entries N] [--quick] [--work DIR] [--keep] [--catalogue FILE] [--only ROWS]
               credit-bench --load-only DIR

        Makes its own data (signed ledgers: charges of the app's feature keys with subjects, refunds, top-ups),
        measures, and prints one table: each figure with its target, the baseline measured in the same run and
        their ratio. Progress goes to standard error, the table to standard output. Nothing is asserted.

          --entries N       entries in the big ledger (default 1,000,000)
          --quick           CI smoke size: 20,000 entries, fewer repetitions, 2-second HTTP runs
          --work DIR        where the data goes (default: a new directory under $TMPDIR or /tmp, removed after)
          --keep            keep the data
          --catalogue FILE  the mock store's catalogue (default Catalogue/Credit.storekit)
          --only ROWS       comma-separated, of: append, append-head, batch, load (cold
                            load and memory), sums, merge, verify, counter, catalogue, purchases (default all)
          --load-only DIR   (internal) open the ledger in DIR, print what the load took, exit
        """

    static func parse(_ arguments: [String]) throws -> BenchOptions {
        var options = BenchOptions()
        var entriesGiven = false
        var index = 0
        func value(_ name: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw BenchError("\(name) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--entries":
                guard let count = Int(String(try value("--entries").filter { $0 != "," && $0 != "_" })),
                    count >= 100
                else { throw BenchError("--entries needs a number of at least 100") }
                options.entries = count
                entriesGiven = true
            case "--quick": options.quick = true
            case "--work": options.work = try value("--work")
            case "--keep": options.keep = true
            case "--catalogue": options.catalogue = try value("--catalogue")
            case "--load-only": options.loadOnly = try value("--load-only")
            case "--only": options.only = Set(try value("--only").split(separator: ",").map(String.init))
            case "-h", "--help":
                print(usage)
                exit(0)
            default: throw BenchError("unknown argument \(arguments[index]) (see --help)")
            }
            index += 1
        }
        if options.quick && !entriesGiven { options.entries = 20_000 }
        options.executable = BenchOptions.ownPath()
        let directory = String(
            options.executable[..<(options.executable.lastIndex(of: "/") ?? options.executable.startIndex)])
        options.credit = access(directory + "/credit", X_OK) == 0 ? directory + "/credit" : nil
        options.mockstore = access(directory + "/mockstore", X_OK) == 0 ? directory + "/mockstore" : nil
        return options
    }

    func wants(_ group: String) -> Bool { only.isEmpty || only.contains(group) }

    private static func ownPath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 { return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return CommandLine.arguments[0]
    }
}
