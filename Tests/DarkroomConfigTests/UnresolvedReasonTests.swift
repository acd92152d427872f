import DarkroomConfig
import DarkroomCore
import Testing

@Suite("Each variant left out by errors knows the error that left it out")
struct UnresolvedReasonTests {
    func reason(_ name: String, in configuration: Configuration) -> String? {
        configuration.unresolvedReasons[name]?.description
    }

    @Test("its own first error, not another variant's")
    func ownError() {
        let configuration = load(("10-a.toml", """
            [variants.first]
            filters = ["nope"]
            [variants.second]
            quality = 500
            filters = [ { filter = "scale", width = 0, height = 1 } ]
            """))
        #expect(reason("first", in: configuration) == "10-a.toml:2: unknown filter 'nope'; known filters: brightness, grayscale, invert, scale")
        #expect(reason("second", in: configuration) == "10-a.toml:4: invalid quality '500': expected an integer 1…100")
    }

    @Test("a variant based on a broken one, a missing base or a cycle gets that error")
    func throughBases() {
        let configuration = load(("10-a.toml", """
            [variants.broken]
            filters = ["nope"]
            [variants.child]
            base = "broken"
            [variants.grandchild]
            base = "child"
            [variants.orphan]
            base = "gone"
            [variants.loop]
            base = "loop"
            [variants.on-loop]
            base = "loop"
            [variants.fine]
            """))
        #expect(reason("child", in: configuration) == reason("broken", in: configuration))
        #expect(reason("grandchild", in: configuration) == reason("broken", in: configuration))
        #expect(reason("orphan", in: configuration) == "10-a.toml:8: base 'gone' is not defined")
        #expect(reason("loop", in: configuration) == "10-a.toml:10: cycle: loop → loop")
        #expect(reason("on-loop", in: configuration) == "10-a.toml:10: cycle: loop → loop")
        #expect(Set(configuration.unresolvedReasons.keys) == Set(configuration.unresolvedVariants))
    }

    @Test("an overriding definition without errors clears the earlier one's error")
    func overridden() {
        let configuration = load(("10-a.toml", "[variants.a]\nfilters = [\"nope\"]\n"), ("20-b.toml", "[variants.a]\nfilters = [\"invert\"]\n"))
        #expect(configuration.variant(named: "a") != nil)
        #expect(configuration.unresolvedReasons.isEmpty)
    }
}
