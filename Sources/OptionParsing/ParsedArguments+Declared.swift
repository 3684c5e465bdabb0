/// A command's values read through their declarations (``Option``, ``Argument``): typed, each looked up by the
/// name it was declared with.
extension ParsedArguments {
    /// The value of `option` as it declares it is read.
    public func value<Value>(of option: Option<Value>) throws(UsageError) -> Value { try option.read(self) }

    /// The word (or words) of `argument` as it declares they are read.
    public func value<Value>(of argument: Argument<Value>) throws(UsageError) -> Value { try argument.read(self) }
}
