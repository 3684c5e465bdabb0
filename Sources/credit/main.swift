#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let status = await CreditCLI(arguments: Array(CommandLine.arguments.dropFirst())).run()
exit(status)
