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
