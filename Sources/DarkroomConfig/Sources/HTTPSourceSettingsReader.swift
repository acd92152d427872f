#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import FoundationEssentials
#endif
import DarkroomCore
#if canImport(Glibc)
import Glibc
#endif

// MARK: - [sources.*]

extension HTTPSourceSettings {
    /// The source sections `filters.d/` may have.
    public static let knownSourceSections = ["http"]

    /// Reads the `sources` section (`[sources.http]` and its `hosts`), reporting every problem
    /// with its file and line. Secrets named by `password-env` / `bearer-token-env` are read
    /// from `environment`.
    ///
    /// ```toml
    /// [sources.http]
    /// timeout = "30s"
    /// max-bytes = "50MB"
    /// allowed-hosts = ["images.example.com", "*.cdn.example.com"]
    ///
    /// [sources.http.hosts."images.example.com"]
    /// bearer-token-env = "IMAGES_TOKEN"
    /// ```
    public static func read(
        _ section: [String: ConfigNode], environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> (HTTPSourceSettings, [Diagnostic]) {
        var reader = HTTPSourceSettingsReader(environment: environment)
        for (name, node) in section.sorted(by: { $0.key < $1.key }) {
            reader.readSource(name, node)
        }
        return (reader.settings, reader.diagnostics)
    }
}

// MARK: - Reading

/// Reads `[sources.http]` one key at a time, collecting diagnostics. (A struct with methods
/// rather than nested closures over a local: Swift 6.3's optimiser crashed on the latter.)
struct HTTPSourceSettingsReader {
    var settings = HTTPSourceSettings()
    var diagnostics: [Diagnostic] = []
    let environment: [String: String]

    static let keys = [
        "connect-timeout", "timeout", "low-speed-limit", "low-speed-time", "max-bytes", "max-redirects", "retries",
        "retry-delay", "allowed-hosts", "allowed-ports", "allow-private-networks", "content-types", "user-agent", "headers", "hosts",
        "ca-file",
    ]
    static let hostKeys = ["username", "password", "password-env", "bearer-token", "bearer-token-env", "headers"]

    init(environment: [String: String]) {
        self.environment = environment
    }

    mutating func readSource(_ name: String, _ node: ConfigNode) {
        guard let table = node.table else {
            diagnostics.append(.error(at: node.location, "sources.\(name) must be a table ([sources.\(name)])"))
            return
        }
        // Tables of other kinds belong to the source kinds a registry knows (SourceTableSpec).
        guard (table["type"]?.string ?? name) == "http" else { return }
        for (key, value) in table.sorted(by: { $0.key < $1.key }) where key != "type" {
            readKey(key, value)
        }
    }

    private mutating func readKey(_ key: String, _ value: ConfigNode) {
        switch key {
        case "connect-timeout": if let s = duration(value, key, positive: true) { settings.connectTimeout = s }
        case "timeout": if let s = duration(value, key, positive: true) { settings.totalTimeout = s }
        case "low-speed-time": if let s = duration(value, key, positive: false) { settings.lowSpeedTime = s }
        case "retry-delay": if let s = duration(value, key, positive: false) { settings.retry.baseDelay = s }
        case "low-speed-limit": if let b = size(value, key) { settings.lowSpeedLimit = b }
        case "max-bytes":
            if let b = size(value, key) {
                if b > 0 { settings.maxResponseBytes = b } else { error(value, "max-bytes must be more than 0") }
            }
        case "max-redirects": if let n = count(value, key) { settings.maxRedirects = n }
        case "retries": if let n = count(value, key) { settings.retry.maxRetries = n }
        case "allow-private-networks":
            if let flag = value.boolean { settings.allowPrivateNetworks = flag } else { error(value, "\(key) must be true or false") }
        case "allowed-hosts": if let hosts = strings(value, key) { settings.allowedHosts = hosts.map { $0.lowercased() } }
        case "allowed-ports":
            let ports = value.array?.compactMap { element in element.integer.flatMap { (1...65_535).contains($0) ? $0 : nil } }
            if let ports, ports.count == value.array?.count {
                settings.allowedPorts = ports
            } else {
                error(value, "allowed-ports must be an array of ports from 1 to 65535 (an empty array allows any port)")
            }
        case "content-types":
            if let types = strings(value, key) {
                for type in types where !type.contains("/") {
                    error(value, "content-types entry '\(type)' is not a media type such as \"image/jxl\"")
                }
                settings.additionalContentTypes = types.map { $0.lowercased() }
            }
        case "user-agent":
            if let text = value.string, !text.isEmpty { settings.userAgent = text } else { error(value, "user-agent must be a non-empty string") }
        case "headers": if let headers = headerTable(value, in: "[sources.http]") { settings.headers = headers }
        case "hosts": readHosts(value)
        case "ca-file":
            guard let path = value.string, !path.isEmpty else {
                error(value, "ca-file must be the path of a PEM file of certificate authorities")
                return
            }
            // Checked now: a wrong path would otherwise fail every https fetch, later, far from here.
            if access(path, R_OK) == 0 {
                settings.caFile = path
            } else {
                error(value, "ca-file '\(path)' cannot be read: \(String(cString: strerror(errno)).lowercased())")
            }
        default: unknownKey(key, value, known: Self.keys, in: "[sources.http]")
        }
    }

    // MARK: - Hosts

    private mutating func readHosts(_ node: ConfigNode) {
        guard let table = node.table else {
            error(node, "hosts must be a table of [sources.http.hosts.\"HOST\"] sections")
            return
        }
        for (host, hostNode) in table.sorted(by: { $0.key < $1.key }) {
            let section = "[sources.http.hosts.\"\(host)\"]"
            guard let entries = hostNode.table else {
                error(hostNode, "\(section) must be a table")
                continue
            }
            var hostSettings = HTTPSourceSettings.HostSettings()
            var user: String?
            var password: String?
            var token: String?
            for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
                switch key {
                case "username": user = text(value, key, in: section)
                case "password": password = text(value, key, in: section)
                case "password-env": password = secret(fromVariableIn: value, key, in: section)
                case "bearer-token": token = text(value, key, in: section)
                case "bearer-token-env": token = secret(fromVariableIn: value, key, in: section)
                case "headers": hostSettings.headers = headerTable(value, in: section) ?? [:]
                default: unknownKey(key, value, known: Self.hostKeys, in: section)
                }
            }
            if let token {
                if user != nil || password != nil {
                    error(hostNode, "\(section) has both a bearer token and a username/password; choose one")
                }
                hostSettings.credentials = .bearer(token: token)
            } else if let user {
                hostSettings.credentials = .basic(user: user, password: password ?? "")
            } else if password != nil {
                error(hostNode, "\(section) has a password but no username")
            }
            settings.hosts[host.lowercased()] = hostSettings
        }
    }

    private mutating func secret(fromVariableIn node: ConfigNode, _ key: String, in section: String) -> String? {
        guard let name = text(node, key, in: section) else { return nil }
        guard let value = environment[name] else {
            error(node, "\(section) \(key): environment variable \(name) is not set")
            return nil
        }
        return value
    }

    // MARK: - Values

    private mutating func duration(_ node: ConfigNode, _ key: String, positive: Bool) -> Double? {
        var seconds: Double?
        if let number = node.number, number >= 0 {
            seconds = number
        } else if let text = node.string {
            seconds = ConfigQuantity.seconds(text)
        }
        guard let seconds, !positive || seconds > 0 else {
            error(node, "\(key) must be a\(positive ? " positive" : "") duration such as \"10s\", \"500ms\" or a number of seconds")
            return nil
        }
        return seconds
    }

    private mutating func size(_ node: ConfigNode, _ key: String) -> Int? {
        var parsed: Int?
        if let integer = node.integer, integer >= 0 {
            parsed = integer
        } else if let text = node.string {
            parsed = ConfigQuantity.bytes(text)
        }
        if parsed == nil { error(node, "\(key) must be a size such as \"50MB\" or a number of bytes") }
        return parsed
    }

    private mutating func count(_ node: ConfigNode, _ key: String) -> Int? {
        guard let integer = node.integer, integer >= 0, integer <= 100 else {
            error(node, "\(key) must be a whole number from 0 to 100")
            return nil
        }
        return integer
    }

    private mutating func strings(_ node: ConfigNode, _ key: String) -> [String]? {
        guard let array = node.array else {
            error(node, "\(key) must be an array of strings")
            return nil
        }
        var result: [String] = []
        for element in array {
            if let text = element.string, !text.isEmpty { result.append(text) } else { error(element, "\(key) entries must be non-empty strings") }
        }
        return result
    }

    private mutating func text(_ node: ConfigNode, _ key: String, in section: String) -> String? {
        guard let text = node.string else {
            error(node, "\(section) \(key) must be a string")
            return nil
        }
        return text
    }

    private mutating func headerTable(_ node: ConfigNode, in section: String) -> [String: String]? {
        guard let table = node.table else {
            error(node, "\(section) headers must be a table such as { \"X-Client\" = \"darkroom\" }")
            return nil
        }
        var headers: [String: String] = [:]
        for (name, value) in table.sorted(by: { $0.key < $1.key }) {
            let validName = !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
            guard validName else {
                error(value, "\(section) header name '\(name)' may contain only letters, digits, '-' and '_'")
                continue
            }
            guard let text = value.string, !text.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else {
                error(value, "\(section) header \(name) must be a single-line string")
                continue
            }
            headers[name] = text
        }
        return headers
    }

    // MARK: - Diagnostics

    private mutating func error(_ node: ConfigNode, _ message: String) {
        let prefixed = message.hasPrefix("[") ? message : "[sources.http] \(message)"
        diagnostics.append(.error(at: node.location, prefixed))
    }

    private mutating func unknownKey(_ key: String, _ node: ConfigNode, known: [String], in table: String) {
        let hint = NearestName.suggestion(for: key, among: known).map { " (did you mean '\($0)'?)" } ?? ""
        diagnostics.append(.error(
            at: node.location, "unknown key '\(key)' in \(table)\(hint); known keys: \(known.joined(separator: ", "))"))
    }
}
