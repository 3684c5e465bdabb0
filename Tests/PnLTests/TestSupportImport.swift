// The shared test helpers (temporary directories, the built binaries, processes, seeded random), visible in every
// file of this target.
@_exported import TestSupport
