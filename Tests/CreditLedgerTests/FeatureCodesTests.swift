import Testing

@testable import LedgerEntries

/// Issue 38: a feature's code is looked up by the words its String is made of first. Whatever those words (a short
/// key held in them, a long one made afresh each time, so that a freed one's memory may hold the next), a key always
/// gets its own code, and another key another.
@Suite struct FeatureCodesTests {
    @Test func eachKeyKeepsItsCodeHoweverItIsHeld() {
        var codes = FeatureCodes()
        let short = ["transcribe", "summarise", "saveToVault", "readNote", "a", ""]
        // Made afresh on each use (so each is a new String), longer than a String holds in itself.
        func long(_ number: Int) -> String { String(repeating: "feature-", count: 3) + String(number) }
        var seen: [String: UInt32] = [:]
        for round in 0..<50 {
            for index in 0..<20 {
                let key = index < short.count ? short[index] : long((index * 7 + round) % 17)
                let code = codes.code(for: key)
                if let before = seen[key] {
                    #expect(code == before, "\(key), round \(round)")
                } else {
                    #expect(!seen.values.contains(code), "\(key) was given another key's code")
                    seen[key] = code
                }
                #expect(codes.names[Int(code) - 1] == key)
            }
        }
        #expect(codes.code(for: nil) == 0)
        #expect(Set(seen.values).count == seen.count)
    }
}
