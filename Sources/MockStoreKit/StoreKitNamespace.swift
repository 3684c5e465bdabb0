/// StoreKit's module name, for code that qualifies a type with it (`StoreKit.Transaction`, as apps write beside
/// SwiftUI's own `Transaction`): on Linux the module is `MockStoreKit`, and this names the same types.
public enum StoreKit {
    public typealias Product = MockStoreKit.Product
    public typealias Transaction = MockStoreKit.Transaction
    public typealias VerificationResult<SignedType> = MockStoreKit.VerificationResult<SignedType>
    public typealias AppStore = MockStoreKit.AppStore
    public typealias StoreKitError = MockStoreKit.StoreKitError
    public typealias Storefront = MockStoreKit.Storefront
    public typealias AppTransaction = MockStoreKit.AppTransaction
}
