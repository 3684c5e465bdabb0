import OptionParsing

/// A command line `mockstore` cannot run with: the process says what is wrong and exits with 64. The one error type
/// of every command line (OptionParsing's), named here so that the mock store's callers need not import it.
public typealias UsageError = OptionParsing.UsageError
