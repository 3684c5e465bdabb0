import Foundation
import MockStoreServer

// Everything, signal handling included, lives in MockStoreServer: closures here would be main-actor
// isolated, and libmicrohttpd and dispatch call back on their own threads.
MockStoreProcess.main(
    arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
