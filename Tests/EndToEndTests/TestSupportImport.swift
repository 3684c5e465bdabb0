@_exported import MockStoreTesting
// The shared test helpers (temporary directories, the built binaries, processes, seeded random, waiting with a
// deadline), visible in every file of this target, including files that do not import them themselves.
@_exported import TestSupport
