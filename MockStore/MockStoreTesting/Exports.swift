// The types the typed controls take and give (`TestTransaction`, `TestClockBody`, `RevocationReason`,
// `NotificationType`, …) come with the library: a test suite imports `MockStoreTesting` alone.
@_exported import StoreTestControls
@_exported import StoreWire
