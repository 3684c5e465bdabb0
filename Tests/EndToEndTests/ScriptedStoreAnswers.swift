import Foundation
import StoreWire
import TestSupport

/// What a scripted store answers before a purchase: the app's pack in the product list (a StoreKit purchase looks
/// its product up first), so the purchase itself is the request a test scripts.
enum ScriptedStoreAnswers {
    static let productList =
        #"{"products":[{"id":"ai.voicedebrief.app.credit.500","type":"consumable","displayName":"£5 of credit","#
        + #""description":"£5.00 of credit","displayPrice":"£5.00","price":"5.00","currency":"GBP"}]}"#

    /// The product list for a product lookup, else `reply`.
    static func afterTheProductList(_ request: ScriptedHTTPServer.Request, _ reply: ScriptedHTTPServer.Reply)
        -> ScriptedHTTPServer.Reply
    {
        request.path == DeviceAPI.products.path() ? .whole(status: 200, body: productList) : reply
    }
}
