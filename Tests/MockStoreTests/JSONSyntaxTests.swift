import Foundation
import Testing

@testable import StoreKitCatalogue

/// The syntax check that names where a `.storekit` file stops being JSON: every well-formed text passes (as
/// `JSONDecoder` reads it), and each kind of break is found at its byte, in words. It keeps to RFC 8259 where
/// Foundation is lenient (a trailing comma).
@Suite struct JSONSyntaxTests {
    func check(_ text: String) -> Result<JSONSyntax.TopLevel, JSONSyntax.Break> {
        JSONSyntax.check(Array(text.utf8))
    }

    @Test(arguments: [
        #"{}"#, #" { "a" : [1, -2.5e+3, 0, 0.0, 1E9, true, false, null, "x\"\\\/\b\f\n\r\tÿ\u00e9"] } "#,
        #"{"nested": {"deeper": [[], {}, [{"k": "v"}]]}}"#, "\u{FEFF}{}", "{\"ünïcode\": \"✓\"}",
    ])
    func wellFormedObjectsPass(_ text: String) throws {
        #expect(try check(text).get() == .object)
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil, "Foundation reads it too")
    }

    @Test(arguments: [#"[1, 2]"#, "3", #""s""#, "null"])
    func otherTopLevelsAreWellFormedButNotObjects(_ text: String) throws {
        #expect(try check(text).get() == .other)
    }

    @Test(arguments: [
        ("", 0, "the text ends too soon where a value was expected"),
        (#"{"a": x}"#, 6, "unexpected 'x' where a value was expected"),
        (#"{"a" 1}"#, 5, "unexpected '1' where ':' was expected"),
        (#"{"a": 1,}"#, 8, "unexpected '}' where a key (a string) was expected"),
        (#"[1 2]"#, 3, "unexpected '2' where ',' or ']' was expected"),
        (#"{"a": "open"#, 6, "a string that is never closed"),
        ("{\"a\": \"tab\there\"}", 10, "a control character (byte 9) inside a string"),
        (#"{"a": "\q"}"#, 8, #"unexpected 'q' after '\' in a string"#),
        (#"{"a": "\u12G4"}"#, 11, #"unexpected 'G' in a \u escape"#),
        (#"{"a": 01}"#, 7, "unexpected '1' where ',' or '}' was expected"),
        (#"{"a": 1.}"#, 8, "unexpected '}' after a number's '.'"),
        (#"{"a": -}"#, 7, "unexpected '}' in a number"),
        (#"{"a": 1e}"#, 8, "unexpected '}' in a number's exponent"),
        (#"{"a": tru}"#, 9, "unexpected '}' in true"),
        (#"{} {}"#, 3, "unexpected '{' after the JSON value"),
        (#"{"a": [1, 2"#, 11, "the text ends too soon where ',' or ']' was expected"),
    ])
    func eachBreakIsFoundAtItsByte(_ text: String, _ offset: Int, _ problem: String) {
        #expect(check(text) == .failure(JSONSyntax.Break(offset: offset, problem: problem)))
    }

    @Test func nestingPastTheLimitIsRefusedNotFollowed() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(
            JSONSyntax.check(Array(deep.utf8))
                == .failure(JSONSyntax.Break(offset: 512, problem: "nested deeper than 512 levels")))
        let fine = "{\"a\":" + String(repeating: "[", count: 500) + String(repeating: "]", count: 500) + "}"
        #expect(JSONSyntax.check(Array(fine.utf8)) == .success(.object))
    }

    @Test func aBreakIsNamedByLineAndColumnInCharacters() {
        let text = "{\n  \"é\": [\n    ✓\n  ]\n}"
        guard case .failure(let broken) = check(text) else {
            Issue.record("accepted \(text)")
            return
        }
        #expect(StoreKitFileReader.lineAndColumn(of: broken.offset, in: Data(text.utf8)) == "line 3, column 5")
    }
}
