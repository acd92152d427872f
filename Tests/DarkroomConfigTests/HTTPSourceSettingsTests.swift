import DarkroomConfig
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

// MARK: - [sources.http]

@Suite("[sources.http] is read into HTTPSourceSettings with durations, sizes, hosts and file:line errors")
struct HTTPSourceSettingsTests {
    func load(_ text: String) -> Configuration {
        ConfigLoader.load(sources: [ConfigSource(name: "30-sources.toml", text: text)], filters: [:])
    }

    func messages(_ configuration: Configuration) -> [String] {
        configuration.diagnostics.map(\.description)
    }

    @Test("without a section the safe defaults apply")
    func defaults() {
        let settings = load("").httpSourceSettings
        #expect(settings == HTTPSourceSettings())
        #expect(settings.connectTimeout == 10 && settings.totalTimeout == 30)
        #expect(settings.lowSpeedLimit == 1024 && settings.lowSpeedTime == 10)
        #expect(settings.maxResponseBytes == 50 * 1024 * 1024)
        #expect(settings.maxRedirects == 5 && settings.retry.maxRetries == 2 && settings.retry.baseDelay == 0.2)
        #expect(!settings.allowPrivateNetworks && settings.allowedHosts.isEmpty)
        #expect(settings.accepts(contentType: "image/jpeg; charset=binary"))
        #expect(!settings.accepts(contentType: "text/html"))
        #expect(settings.accepts(contentType: nil))
    }

    @Test("every key is read")
    func values() {
        let configuration = load("""
            [sources.http]
            connect-timeout = "5s"
            timeout = 20
            low-speed-limit = "2KB"
            low-speed-time = "15s"
            max-bytes = "10MB"
            max-redirects = 3
            retries = 4
            retry-delay = "250ms"
            allowed-hosts = ["Images.Example.com", "*.cdn.example.com"]
            allow-private-networks = true
            allowed-ports = [80, 8080]
            content-types = ["image/jxl"]
            user-agent = "Darkroom/2"
            headers = { "X-Client" = "darkroom" }

            [sources.http.hosts."images.example.com"]
            username = "u"
            password = "p"
            headers = { "X-Api-Key" = "k" }

            [sources.http.hosts."cdn.example.com"]
            bearer-token = "t"
            """)
        #expect(configuration.diagnostics.isEmpty, "\(messages(configuration))")
        let s = configuration.httpSourceSettings
        #expect(s.connectTimeout == 5 && s.totalTimeout == 20)
        #expect(s.lowSpeedLimit == 2048 && s.lowSpeedTime == 15)
        #expect(s.maxResponseBytes == 10 * 1024 * 1024)
        #expect(s.maxRedirects == 3 && s.retry.maxRetries == 4 && s.retry.baseDelay == 0.25)
        #expect(s.allowedHosts == ["images.example.com", "*.cdn.example.com"])
        #expect(s.allowPrivateNetworks)
        #expect(s.allowedPorts == [80, 8080] && s.effectiveAllowedPorts == [80, 8080])
        #expect(s.accepts(contentType: "image/jxl"))
        #expect(s.userAgent == "Darkroom/2")
        #expect(s.headers == ["X-Client": "darkroom"])
        #expect(s.hosts["images.example.com"] == .init(credentials: .basic(user: "u", password: "p"), headers: ["X-Api-Key": "k"]))
        #expect(s.hosts["cdn.example.com"]?.credentials == .bearer(token: "t"))
    }

    @Test("secrets can come from the environment")
    func environment() throws {
        let section = load("""
            [sources.http.hosts."a.example"]
            username = "u"
            password-env = "DARKROOM_TEST_PASSWORD"
            [sources.http.hosts."b.example"]
            bearer-token-env = "DARKROOM_TEST_TOKEN"
            [sources.http.hosts."c.example"]
            bearer-token-env = "DARKROOM_TEST_MISSING"
            """).sources
        let (settings, diagnostics) = HTTPSourceSettings.read(
            section, environment: ["DARKROOM_TEST_PASSWORD": "pw", "DARKROOM_TEST_TOKEN": "tk"])
        #expect(settings.hosts["a.example"]?.credentials == .basic(user: "u", password: "pw"))
        #expect(settings.hosts["b.example"]?.credentials == .bearer(token: "tk"))
        #expect(diagnostics.map(\.description) == [
            "30-sources.toml:7: [sources.http.hosts.\"c.example\"] bearer-token-env: environment variable DARKROOM_TEST_MISSING is not set",
        ])
        // Secrets never show in descriptions.
        #expect(!"\(settings.hosts["a.example"]!.credentials!)".contains("pw"))
    }

    @Test("errors name the file, the line and what is wrong; unknown keys and sources suggest names")
    func errors() {
        let configuration = load("""
            [sources.http]
            timeout = "soon"
            max-bytes = "huge"
            retries = -1
            allow-private-networks = "yes"
            timeuot = "5s"
            content-types = ["jxl"]
            headers = { "Bad Name" = "x" }

            [sources.http.hosts."x.example"]
            pasword = "p"

            [sources.htp]
            timeout = "1s"
            """)
        let lines = messages(configuration)
        #expect(configuration.hasErrors)
        #expect(lines.contains { $0.hasPrefix("30-sources.toml:2:") && $0.contains("timeout must be a positive duration") })
        #expect(lines.contains { $0.hasPrefix("30-sources.toml:3:") && $0.contains("max-bytes must be a size") })
        #expect(lines.contains { $0.hasPrefix("30-sources.toml:4:") && $0.contains("retries must be a whole number") })
        #expect(lines.contains { $0.hasPrefix("30-sources.toml:5:") && $0.contains("allow-private-networks must be true or false") })
        #expect(lines.contains { $0.hasPrefix("30-sources.toml:6:") && $0.contains("unknown key 'timeuot' in [sources.http] (did you mean 'timeout'?)") })
        #expect(lines.contains { $0.hasPrefix("30-sources.toml:7:") && $0.contains("'jxl' is not a media type") })
        #expect(lines.contains { $0.contains("header name 'Bad Name'") })
        #expect(lines.contains { $0.hasPrefix("30-sources.toml:11:") && $0.contains("unknown key 'pasword'") && $0.contains("did you mean 'password'") })
        // [sources.htp] is a table of kind "htp", for the registry to refuse (it knows the kinds).
        #expect(configuration.sourceTables.map(\.kind) == ["http", "htp"])
    }

    @Test("ca-file names a readable PEM file; a missing one is an error at its line")
    func caFile() throws {
        let folder = try TemporaryDirectory()
        let pem = folder.path("ca.pem")
        try Data("-----BEGIN CERTIFICATE-----\n".utf8).write(to: URL(fileURLWithPath: pem))
        let good = load("[sources.http]\nca-file = \"\(pem)\"\n")
        #expect(!good.hasErrors, "\(messages(good))")
        #expect(good.httpSourceSettings.caFile == pem)
        #expect(load("").httpSourceSettings.caFile == nil)

        let missing = load("[sources.http]\nretries = 1\nca-file = \"\(folder.path("nope.pem"))\"\n")
        #expect(messages(missing).contains {
            $0.hasPrefix("30-sources.toml:3:") && $0.hasSuffix("ca-file '\(folder.path("nope.pem"))' cannot be read: no such file or directory")
        }, "\(messages(missing))")
        let empty = load("[sources.http]\nca-file = \"\"\n")
        #expect(messages(empty).contains { $0.contains("ca-file must be the path of a PEM file of certificate authorities") })
    }

    @Test("durations accept milliseconds")
    func milliseconds() {
        #expect(ConfigQuantity.seconds("200ms") == 0.2)
        #expect(ConfigQuantity.seconds("1.5s") == 1.5)
        #expect(ConfigQuantity.seconds("2m") == 120)
    }
}
