// libFuzzer target: the mock store's `.storekit` reader (StoreKitConfiguration.parse), as it starts.
//
// Must hold for any bytes: no trap, no hang; a configuration it accepts has products with non-empty, distinct ids, a
// known type, and a price in exact milliunits.
import Foundation
import StoreKitCatalogue

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStoreKit(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let configuration = try? StoreKitConfiguration.parse(bytes, source: "fuzz.storekit") else { return 0 }
    var seen: Set<String> = []
    for product in configuration.products {
        precondition(!product.id.isEmpty, "a product without an id was accepted")
        precondition(seen.insert(product.id).inserted, "two products with one id were accepted")
        precondition(product.priceMilliunits >= 0, "a negative price was accepted")
        precondition(configuration.product(id: product.id) != nil)
    }
    return 0
}
