import Darkroom
import DarkroomCore

// MARK: - ExampleFilters

/// An example filter module, written the way a third party would write one.
///
/// An application adds it to its registry once, at start-up; after that, `filters.d/` files
/// can name its filters:
///
/// ```swift
/// import Darkroom
/// import DarkroomExampleFilters
///
/// var registry = Registry.standard
/// ExampleFilters.register(in: &registry)
/// ```
public enum ExampleFilters {
    /// Registers every filter of this module.
    public static func register(in registry: inout Registry) {
        registry.register(filter: VignetteFilter.self, origin: "DarkroomExampleFilters")
    }
}
