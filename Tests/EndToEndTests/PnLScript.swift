import Foundation
import Testing

/// `bash analytics/pnl.sh` as the tests run it: the package's own verifier, no colour, what it printed and its exit.
enum PnLScript {
    static func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> CommandResult
    {
        var environment = ProcessInfo.processInfo.environment
        environment["CREDIT_SUMMARY_VERIFY"] = try Binaries.require(
            "credit-summary-verify", sourceLocation: sourceLocation)
        environment["NO_COLOR"] = "1"
        // Its working files in a directory of the test's (no mktemp, no rm: the suite runs pnl.sh often); the tests
        // in PnLTests run it as it comes, making and removing its own.
        let scratch = try TemporaryDirectory()
        environment["PNL_SCRATCH"] = scratch.path
        let result = try await ChildProcess.run(
            "/bin/bash", [Repository.root + "/analytics/pnl.sh"] + arguments, environment: environment, timeout: 300)
        withExtendedLifetime(scratch) {}
        return CommandResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// `python3 analytics/pnl.py arguments` (the driver alone, as `spark-submit` runs it on a cluster).
    static func driver(_ arguments: [String]) async throws -> CommandResult {
        try await python([Repository.root + "/analytics/pnl.py"] + arguments)
    }

    /// `python3 arguments` (one of analytics' Python files run alone).
    static func python(_ arguments: [String]) async throws -> CommandResult {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        let result = try await ChildProcess.run(
            "/usr/bin/env", ["python3"] + arguments, environment: environment, timeout: 300)
        return CommandResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// `python3 analytics/iso_time.py TEXT` for each of `texts`, all in one interpreter: the script's `main` run
    /// for each as its own run would (its arguments, its exit status, what it printed), one process for them all.
    static func isoTime(_ texts: [String]) async throws -> [String: CommandResult] {
        let result = try await python(["-c", isoTimeEach, Repository.root + "/analytics"] + texts)
        guard result.status == 0,
            let runs = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]],
            runs.count == texts.count
        else { throw SupportFailure("iso_time.py's runs could not be read: \(result)") }
        var answers: [String: CommandResult] = [:]
        for (text, run) in zip(texts, runs) {
            answers[text] = CommandResult(
                status: Int32(run["status"] as? Int ?? -1), stdout: run["stdout"] as? String ?? "",
                stderr: run["stderr"] as? String ?? "")
        }
        return answers
    }

    /// Runs iso_time.py's `main` once per text (argv[2:]), from the folder argv[1], printing each run as JSON.
    private static let isoTimeEach = """
        import io, json, sys
        sys.path.insert(0, sys.argv[1])
        import iso_time
        runs = []
        for text in sys.argv[2:]:
            out, err, saved = io.StringIO(), io.StringIO(), (sys.argv, sys.stdout, sys.stderr)
            sys.argv, sys.stdout, sys.stderr = ["iso_time.py", text], out, err
            try:
                status = iso_time.main()
            except SystemExit as ended:
                status = ended.code
            finally:
                sys.argv, sys.stdout, sys.stderr = saved
            runs.append({"status": status, "stdout": out.getvalue(), "stderr": err.getvalue()})
        print(json.dumps(runs))
        """

    /// A directory holding copies of `files`, each under its own name.
    static func directory(of files: [String]) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        for file in files {
            try FileManager.default.copyItem(
                atPath: file, toPath: directory.file(URL(fileURLWithPath: file).lastPathComponent))
        }
        return directory
    }
}
