import Platform

/// Where the data directory is when `--data-dir` is not given: `$CREDIT_DATA_DIR`; else
/// `$XDG_DATA_HOME/voicedebrief` (an absolute `XDG_DATA_HOME` only, as the XDG spec says); else
/// `$HOME/.local/share/voicedebrief`; only without a `HOME` the home directory of the passwd entry.
public enum DataDirectoryLocation {
    /// The name under the data home.
    public static let name = "voicedebrief"

    /// The default data directory for `environment` (the process's, in a command), or nil when there is no home at
    /// all to put it in.
    public static func resolve(environment: [String: String]) -> String? {
        if let given = environment["CREDIT_DATA_DIR"], !given.isEmpty { return given }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/" + name }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.local/share/" + name }
        return passwdHome().map { $0 + "/.local/share/" + name }
    }

    /// The home directory of the effective user's passwd entry.
    static func passwdHome() -> String? {
        guard let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir else { return nil }
        let home = String(cString: directory)
        return home.isEmpty ? nil : home
    }
}
