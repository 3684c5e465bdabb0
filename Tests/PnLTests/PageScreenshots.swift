import Foundation
import Testing

/// Headless Chromium (Debian `chromium`, installed by scripts/install-deps.sh) renders a page at a laptop's and a
/// phone's width; each screenshot must show the page, not a blank (png_is_not_blank.py).
/// Its bounds are for a hang only (ten minutes): Chromium on a loaded 2-core machine can take minutes to draw.
enum PageScreenshots {
    static let widths = [1280, 390]

    /// Screenshots of the page at `path`, each checked not blank. `PNL_SCREENSHOTS=DIR` keeps them there as
    /// `NAME-WIDTH.png`, to look at.
    static func expectDrawn(
        _ path: String, name: String, in temporary: TemporaryDirectory,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let chromium = try #require(
            ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
                FileManager.default.isExecutableFile(atPath: $0)
            },
            "chromium is not installed: run scripts/install-deps.sh (apt-get install chromium)",
            sourceLocation: sourceLocation)
        for width in widths {
            let png = temporary.file("\(name)-\(width).png")
            let result = try await ChildProcess.run(
                chromium,
                [
                    "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                    "--user-data-dir=\(temporary.file("profile-\(name)-\(width)"))", "--window-size=\(width),1800",
                    "--screenshot=\(png)", "file://" + path,
                ], environment: ProcessInfo.processInfo.environment, timeout: 600)
            #expect(
                FileManager.default.fileExists(atPath: png), "no screenshot at \(width) px: \(result)",
                sourceLocation: sourceLocation)
            let check = try await ChildProcess.run(
                "/usr/bin/env", ["python3", Repository.root + "/Tests/PnLTests/png_is_not_blank.py", png],
                environment: ProcessInfo.processInfo.environment, timeout: 300)
            #expect(check.succeeded, "the screenshot at \(width) px: \(check)", sourceLocation: sourceLocation)
            #expect(check.stdout.contains("width=\(width)"), "\(check.stdout)", sourceLocation: sourceLocation)
            if let keep = ProcessInfo.processInfo.environment["PNL_SCREENSHOTS"], !keep.isEmpty {
                try? FileManager.default.removeItem(atPath: keep + "/\(name)-\(width).png")
                try FileManager.default.copyItem(atPath: png, toPath: keep + "/\(name)-\(width).png")
            }
        }
    }
}
