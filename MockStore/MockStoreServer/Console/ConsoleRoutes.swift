import Foundation
import MockStoreHTTP
import StoreTestControls
import StoreWire

/// The console (`GET /console`): a page for a person to look at the store and act on it through the test controls.
enum ConsoleRoutes: RouteTable {
    static let routes: [Route] = [
        Route(TestControls.console) { store, _, _ in
            do {
                let nonce = makeNonce()
                let html = ConsolePage.html(try store.consoleSnapshot(), nonce: nonce)
                return HTTPResponse(
                    status: 200, headers: ConsolePage.headers(nonce: nonce).map { HTTPHeader($0.0, $0.1) },
                    body: Array(html.utf8))
            } catch let error as MockStoreError {
                return error.response
            } catch {
                return MockStoreError.internalError(error).response
            }
        }
    ]

    /// 16 random bytes in base64url: the page's script and style run with it, nothing else does.
    static func makeNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        // Base64url, which CSP's nonce takes too: no `/`, `+` or `=`, so the nonce never reads as part of a URL.
        return Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
