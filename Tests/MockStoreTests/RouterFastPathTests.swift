import Foundation
import StoreWire
import Testing

@testable import MockStoreHTTP
@testable import MockStoreServer

/// The router's fast paths (issue 38): each promised to answer exactly as the slower code it stands in for, so each
/// is checked against that code.
@Suite struct RouterFastPathTests {
    /// Every route's own path, with `1` for each parameter: the paths a client of the store sends.
    static let routePaths: [String] = MockStoreRouter.allRoutes.map { route in
        route.template.path(route.template.parameterNames.map { _ in "1" })
    }

    /// Paths no route has: a first word of no route, one segment more or fewer, a trailing slash, the root.
    static let otherPaths: [String] =
        routePaths.flatMap { path in
            [
                path + "/", path + "/extra", "/nowhere" + path,
                String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]),
            ]
        } + ["/", "", "//", "/storekit", "/storekit/v1", "/1/v1/products"]

    /// The routes whose templates match `segments`, trying every one (what the router did before ``RouteIndex``).
    static func everyMatch(_ segments: [String]) -> [Int] {
        MockStoreRouter.allRoutes.indices.filter { MockStoreRouter.allRoutes[$0].match(segments) != nil }
    }

    @Test func theIndexFindsEveryMatchingRouteInOrder() {
        for path in Self.routePaths + Self.otherPaths {
            let segments = MockStoreRouter.segments(of: path)
            let candidates = MockStoreRouter.allRoutesIndex.candidates(for: segments)
            let found = candidates.filter { MockStoreRouter.allRoutes[$0].match(segments) != nil }
            #expect(found == Self.everyMatch(segments), "\(path)")
            #expect(candidates == candidates.sorted(), "\(path): the routes' order")
        }
    }

    @Test func everyRoutesOwnPathFindsIt() {
        for (position, path) in Self.routePaths.enumerated() {
            let candidates = MockStoreRouter.allRoutesIndex.candidates(for: MockStoreRouter.segments(of: path))
            #expect(candidates.contains(position), "\(path)")
        }
    }

    @Test func theIndexPrunes() {
        let segments = MockStoreRouter.segments(of: DeviceAPI.products.path())
        #expect(MockStoreRouter.allRoutesIndex.candidates(for: segments).count < MockStoreRouter.allRoutes.count / 4)
    }

    @Test func anIndexOfTemplatesBeginningWithAParameter() {
        let index = RouteIndex(["/a/{x}", "/{y}/b", "/a/c", "/{z}"])
        #expect(index.candidates(for: ["a", "c"]) == [0, 1, 2])
        #expect(index.candidates(for: ["q", "b"]) == [1])
        #expect(index.candidates(for: ["q"]) == [3])
        #expect(index.candidates(for: ["a", "c", "d"]).isEmpty)
        #expect(index.candidates(for: []).isEmpty)
    }

    @Test(arguments: [
        "/storekit/v1/products", "/storekit/v1/products/", "storekit/v1", "/", "", "//", "/a//b", "/é/x",
        "/a/\u{301}b", "/a\u{301}/b", "/inApps/v1/transactions/2000000000000001",
    ])
    func pathsSplitAsCharactersDid(_ path: String) {
        var expected = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if expected.first == "" { expected.removeFirst() }
        #expect(MockStoreRouter.segments(of: path) == expected)
    }

    @Test(arguments: [
        ["a,b"], ["a, b ,c"], [" a\t,\tb "], ["a,,b", ""], [",", " , "], ["a", "b,c"], ["a b"], ["\u{00A0}a\u{2003}"],
        ["a,\u{301}b"], ["é, ü"], ["x\r\n,y"], ["\ta\t"],
    ])
    func productIdsAsFoundationTrimmedThem(_ values: [String]) {
        let expected = values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        #expect(DeviceRoutes.productIds(values) == expected)
    }

    @Test(arguments: [
        PurchaseResponseBody(
            result: .success, signedTransaction: "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2ln"),
        PurchaseResponseBody(result: .success, signedTransaction: "a.!b.c"),
        PurchaseResponseBody(result: .success, signedTransaction: ""),
        PurchaseResponseBody(result: .success, signedTransaction: #"quote " and backslash \ and slash /"#),
        PurchaseResponseBody(result: .success, signedTransaction: "tab\t, é, \u{1F600}"),
        PurchaseResponseBody(result: .success),
        PurchaseResponseBody(result: .pending, pendingReason: .askToBuy, transactionId: "2000000000000001"),
        PurchaseResponseBody(result: .userCancelled, pendingReason: .interrupted, transactionId: "2000000000000002"),
        PurchaseResponseBody(result: .userCancelled),
        PurchaseResponseBody(result: .success, signedTransaction: "a.b.c", transactionId: "3"),
    ])
    func purchaseAnswersAsTheEncoderWritesThem(_ body: PurchaseResponseBody) {
        #expect(DeviceRoutes.purchaseAnswer(body) == HTTPResponse.json(body))
    }

    @Test(arguments: [
        " application/json\r\n", "\t 5 \r\n", "", " ", "\r\n", "a b", "\u{0B}x\u{0C}", " é \r\n", "\u{00A0}x\u{2028}",
        "x\u{85}", " \"quoted\" ",
    ])
    func headerValuesAsFoundationTrimmedThem(_ value: String) {
        #expect(ResponseCollector.trimmed(value[...]) == value.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func randomUUIDsAreVersionFourAndDiffer() {
        let made = (0..<64).map { _ in RandomUUID.make() }
        #expect(Set(made).count == made.count)
        for uuid in made {
            #expect(uuid.uuid.6 >> 4 == 4, "version 4: \(uuid)")
            #expect(uuid.uuid.8 >> 6 == 0b10, "RFC 4122 variant: \(uuid)")
        }
        // Every bit but the six fixed ones takes both values across the lot.
        let bytes = made.map { uuid in withUnsafeBytes(of: uuid.uuid) { Array($0) } }
        let ones = bytes.reduce([UInt8](repeating: 0, count: 16)) { zip($0, $1).map { $0 | $1 } }
        let zeros = bytes.reduce([UInt8](repeating: 0xFF, count: 16)) { zip($0, $1).map { $0 & $1 } }
        #expect(ones[0] == 0xFF && zeros[0] == 0 && ones[15] == 0xFF && zeros[15] == 0)
    }
}
