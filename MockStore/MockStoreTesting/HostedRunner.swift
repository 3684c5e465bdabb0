import Foundation
import Synchronization

/// A store a ``StoreHost`` started in this process, driven as ``StoreChild`` drives a process: it listens at once,
/// and stopping it runs the host's stop on a thread of its own (the store waits for requests in progress), firing
/// ``exited`` with the status the binary would have given.
final class HostedRunner: StoreRunner {
    let processIdentifier: Int32 = getpid()
    let started = OneShot<StoreStart>()
    let exited = OneShot<Int32>()
    private let hosted: HostedStore
    private let launch: StoreLaunch
    private let stopWords = Mutex("")
    private let stopping = Mutex(false)

    init(_ host: StoreHost, _ launch: StoreLaunch, workingDirectory: String?) throws {
        guard workingDirectory == nil else {
            throw TestStoreError.didNotStart(
                output: "a store in this process cannot run in another folder (\(workingDirectory ?? "")): start "
                    + "the binary")
        }
        do {
            hosted = try host.start(launch.arguments, launch.environment)
        } catch {
            throw TestStoreError.didNotStart(output: "\(error)")
        }
        self.launch = launch
        started.fire(.listening(url: hosted.url, port: hosted.port))
    }

    var isInProcess: Bool { true }

    var standardOutput: String { hosted.listeningWords }

    var standardError: String { hosted.startupWords + stopWords.withLock { $0 } }

    func send(_ signal: Int32) {
        if signal == SIGKILL { beginStop(signal) }
    }

    func beginStop(_ signal: Int32) {
        let first = stopping.withLock { stopping in
            defer { stopping = true }
            return !stopping
        }
        guard first else { return }
        let thread = Thread { [self] in
            let (status, words) = hosted.stop(signal)
            stopWords.withLock { $0 = words }
            exited.fire(status)
        }
        thread.stackSize = 256 * 1024
        thread.start()
    }
}
