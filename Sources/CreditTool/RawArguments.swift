import OptionParsing
import Platform

/// The program's arguments as it received them, bytes: each must be UTF-8 text. One that is not (a path or a subject
/// typed in another encoding) is a mistake in the command line, named by its position, never read with its bytes
/// replaced by U+FFFD (which would make a directory, or store a subject, nobody named).
enum RawArguments {
    /// The process's arguments after the program's name, as the bytes `argv` holds.
    static var ofProcess: [[UInt8]] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
            return UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)).map { $0 }
        }
    }

    /// Each argument as text, or the first that is not valid UTF-8, as a mistake naming its position (from 1, after
    /// the program's name) and showing its bytes that are not text as `\xFF`.
    static func decode(_ raw: [[UInt8]]) throws(UsageError) -> [String] {
        var arguments: [String] = []
        for (index, bytes) in raw.enumerated() {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw UsageError(
                    kind: .invalidValue(option: "argument \(index + 1)", value: shown(bytes)),
                    message: "argument \(index + 1) (\"\(shown(bytes))\") is not valid UTF-8 text: give every "
                        + "argument in UTF-8",
                    command: ["credit"])
            }
            arguments.append(text)
        }
        return arguments
    }

    /// `bytes` as text where they are UTF-8, and each byte that is not as `\xFF`.
    static func shown(_ bytes: [UInt8]) -> String {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var position = 0
        var shown = ""
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                shown.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                position += encoded.count
            case .error(let length):
                for byte in bytes[position..<position + length] {
                    shown += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
                }
                position += length
            case .emptyInput:
                return shown
            }
        }
    }
}

extension String {
    /// This text with zeros before it, to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
