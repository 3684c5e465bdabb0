import StoreKitCatalogue

/// What a products request needs from the database (the storefront and locale in force, and a simulated
/// `loadProducts` failure set until cleared), kept between requests so a catalogue request need not take the
/// database lock that purchases and their commits hold.
///
/// The store invalidates it whenever a setting or a simulated failure is written, and whenever a shared transaction
/// is rolled back (which may undo such a write). A value read from the database is kept only if nothing invalidated
/// the cache after it was read (``keep(_:readAt:)`` compares generations), and only once what it was read from is
/// committed, so a kept value is never older than the database nor newer than what is durable.
final class ProductSettingsCache: Sendable {
    /// The settings products are shown with.
    struct Settings: Sendable, Equatable {
        var storefront: Storefront
        var locale: String
        /// A simulated `loadProducts` failure in force until cleared (a `--once` failure is never kept: each call
        /// has to use it up in the database).
        var failure: MockStoreError.SimulatedFailure?
    }

    private let state = ReadMostly<(generation: UInt64, settings: Settings?)>((0, nil))

    /// The kept settings, if any.
    var settings: Settings? { state.read { $0.settings } }

    /// Read under the database lock, before reading the settings to keep.
    var generation: UInt64 { state.read { $0.generation } }

    /// Forgets the kept settings: something they were read from may have changed.
    func invalidate() {
        state.write { state in
            state.generation &+= 1
            state.settings = nil
        }
    }

    /// Keeps `settings`, read when the cache was at `generation`, unless it has been invalidated since.
    func keep(_ settings: Settings, readAt generation: UInt64) {
        state.write { state in
            guard state.generation == generation else { return }
            state.settings = settings
        }
    }
}
