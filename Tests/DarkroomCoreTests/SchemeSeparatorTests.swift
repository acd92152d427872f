import DarkroomCore
import Testing

// MARK: - Scheme separator

@Suite("A location's scheme separator is found by a byte scan, as a substring search would")
struct SchemeSeparatorTests {
    @Test("the first :// is found; paths, lone colons and a colon at the end have none", arguments: [
        "https://127.0.0.1/a.jpg", "s3://bucket/a.jpg", "a:b://c", "photos/a.jpg", "c:/x", "a:", ":", "",
        "x://", "://", "a:/b://c", "émoji🙂://x", "a:/", "ab:/", "a::://",
    ])
    func matchesSubstringSearch(location: String) {
        let expected = location.firstRange(of: "://")
        #expect(location.schemeSeparatorRange == expected)
        #expect(location.hasSchemeSeparator == (expected != nil))
        let sub = location[...]
        #expect(sub.schemeSeparatorRange == sub.firstRange(of: "://"))
    }
}
