import DarkroomCache
import Testing

// MARK: - Cache keys

@Suite("Cache keys are stable SHA-256 names of source, variant and salt")
struct CacheKeyTests {
    @Test("the persistent name is the SHA-256 of the canonical text, the same in every process")
    func stable() {
        let key = CacheKey(source: "/a.jpg", variant: "circle>png(compression=6)", salt: 1)
        #expect(key.string == "v1|6:/a.jpg|circle>png(compression=6)")
        // Known SHA-256 of "abc", to pin the digest implementation and hex formatting.
        #expect(CacheKey.sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(key.persistentName.count == 64)
    }

    @Test("digests are lower-case hex of the UTF-8 bytes, the same from text and from bytes (known vectors)")
    func knownVectors() {
        #expect(CacheKey.sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(CacheKey.sha256Hex(bytes: []) == CacheKey.sha256Hex(""))
        #expect(CacheKey.sha256Hex(bytes: Array("abc".utf8)) == CacheKey.sha256Hex("abc"))
        // Non-ASCII text hashes its UTF-8 bytes, also when the string is not stored as UTF-8.
        let bridged = String(decoding: Array("café ☕".utf16), as: UTF16.self)
        #expect(CacheKey.sha256Hex(bridged) == CacheKey.sha256Hex(bytes: Array("café ☕".utf8)))
        #expect(CacheKey.sha256Hex(bytes: Array(repeating: 0x61, count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("source, variant and salt each change the name")
    func distinct() {
        let base = CacheKey(source: "s", variant: "v", salt: 1)
        let names = [
            base, CacheKey(source: "s2", variant: "v", salt: 1), CacheKey(source: "s", variant: "v2", salt: 1),
            CacheKey(source: "s", variant: "v", salt: 2), CacheKey.original(source: "s", salt: 1),
        ].map(\.persistentName)
        #expect(Set(names).count == names.count)
    }
}
