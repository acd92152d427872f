import DarkroomCore
import DarkroomCurl

// MARK: - The s3 source kind

extension Registry {
    /// The keys of `[sources.s3]` (a table of `type = "s3"`).
    public static let s3SourceKeys = [
        "endpoint", "region", "path-style", "buckets", "access-key-env", "secret-key-env", "session-token-env",
        "connect-timeout", "timeout", "low-speed-limit", "low-speed-time", "max-bytes", "retries", "retry-delay", "ca-file",
    ]

    /// Registers the source kinds the standard registry knows besides files and http:
    /// `s3` (`S3Source`: `s3://BUCKET/KEY` from S3 or an S3-compatible store).
    ///
    /// ```toml
    /// [sources.s3]
    /// endpoint = "http://127.0.0.1:9000"    # omit for AWS; path-style addressing by default when given
    /// region = "eu-west-1"
    /// buckets = ["photos"]                  # the only buckets read
    /// access-key-env = "AWS_ACCESS_KEY_ID"  # the defaults
    /// secret-key-env = "AWS_SECRET_ACCESS_KEY"
    /// ```
    public mutating func registerStandardSourceKinds() {
        register(
            sourceKind: "s3", keys: Self.s3SourceKeys,
            summary: "objects in S3 or an S3-compatible store (s3://BUCKET/KEY), signed with AWS Signature V4",
            origin: "DarkroomCurl"
        ) { table in
            let settings = try S3SourceSettings(table: table)
            do {
                return try S3Source(settings: settings)
            } catch let DarkroomError.fetchFailed(_, _, reason, _) {
                throw table.error("endpoint", reason)
            }
        }
    }
}

// MARK: - Reading [sources.s3]

extension S3SourceSettings {
    /// Reads a `[sources.s3]` table; secrets come from the environment variables it names.
    /// - Throws: ``ConfigurationError`` naming the file:line of the first bad value.
    public init(table: ConfigTable) throws {
        guard let buckets = try table.strings("buckets"), !buckets.isEmpty else {
            throw table.error("buckets", "must list the buckets objects may be read from, e.g. buckets = [\"photos\"]")
        }
        if let bad = buckets.first(where: { !Self.isValidBucketName($0) }) {
            throw table.error("buckets", "entry '\(bad)' is not a bucket name (3–63 of a-z, 0-9, '.', '-')")
        }
        let accessKey = try Self.secret(table, "access-key-env", default: "AWS_ACCESS_KEY_ID")
        let secretKey = try Self.secret(table, "secret-key-env", default: "AWS_SECRET_ACCESS_KEY")
        let endpoint = try table.string("endpoint")
        if let endpoint, !(endpoint.lowercased().hasPrefix("http://") || endpoint.lowercased().hasPrefix("https://")) {
            throw table.error("endpoint", "must be an http:// or https:// URL such as \"http://127.0.0.1:9000\"")
        }
        self.init(buckets: buckets, accessKey: accessKey, secretKey: secretKey, endpoint: endpoint, pathStyle: try table.boolean("path-style"))
        if let region = try table.string("region") {
            guard region.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
                throw table.error("region", "must be a region name such as \"eu-west-1\"")
            }
            self.region = region
        }
        let tokenVariable = try table.string("session-token-env") ?? "AWS_SESSION_TOKEN"
        sessionToken = table.environment[tokenVariable].flatMap { $0.isEmpty ? nil : $0 }
        try readTransfer(table)
    }

    private mutating func readTransfer(_ table: ConfigTable) throws {
        if let seconds = try table.duration("connect-timeout") {
            guard seconds > 0 else { throw table.error("connect-timeout", "must be more than 0") }
            transfer.connectTimeout = seconds
        }
        if let seconds = try table.duration("timeout") {
            guard seconds > 0 else { throw table.error("timeout", "must be more than 0") }
            transfer.totalTimeout = seconds
        }
        if let bytes = try table.size("low-speed-limit") { transfer.lowSpeedLimit = bytes }
        if let seconds = try table.duration("low-speed-time") { transfer.lowSpeedTime = seconds }
        if let bytes = try table.size("max-bytes") {
            guard bytes > 0 else { throw table.error("max-bytes", "must be more than 0") }
            transfer.maxResponseBytes = bytes
        }
        if let retries = try table.integer("retries", in: 0...10) { transfer.retry.maxRetries = retries }
        if let seconds = try table.duration("retry-delay") { transfer.retry.baseDelay = seconds }
        transfer.caFile = try table.string("ca-file")
    }

    /// The value of the environment variable `key` names (or `fallback`), which must be set.
    private static func secret(_ table: ConfigTable, _ key: String, default fallback: String) throws -> String {
        let variable = try table.string(key) ?? fallback
        guard let value = table.environment[variable], !value.isEmpty else {
            throw table.error(key, "names $\(variable), which is not set (or empty)")
        }
        return value
    }
}
