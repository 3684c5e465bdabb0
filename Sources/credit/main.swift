import Platform

let status = await CreditCLI(arguments: Array(CommandLine.arguments.dropFirst())).run()
exit(status)
