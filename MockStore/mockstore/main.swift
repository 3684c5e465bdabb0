import Foundation
import MockStoreCommand

// Everything, signal handling included, lives in MockStoreCommand: closures here would be main-actor
// isolated, and libmicrohttpd and dispatch call back on their own threads.
MockStoreProcess.main(
    arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
