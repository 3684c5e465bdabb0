import StoreWire

/// An error code of the App Store Server API, as Apple numbers it (apple/app-store-server-library's `APIError`), and
/// the few the mock store adds: the store's one list of codes, ``StoreErrorCode``.
public typealias ServerAPIErrorCode = StoreErrorCode
