import StoreWire

/// The parameters a request's path gave its endpoint's template, by the template's names.
///
/// Every parameter of the template is there once the path matched, so a name the template does not have is the
/// handler's mistake: it traps, rather than answering as if the client had sent an empty value.
struct PathParameters: Sendable {
    let template: PathTemplate
    let values: [String: String]

    /// The value of parameter `name` (percent-decoded, as the request's path is).
    subscript(name: String) -> String {
        guard let value = values[name] else {
            preconditionFailure("\(template) has no parameter \(name)")
        }
        return value
    }
}
