import Darkroom
import DarkroomCLI

// MARK: - CustomFilterTool

// The darkroom tool as a third party builds its own: DarkroomCLI with the standard registry
// plus a filter of the package's own (`posterize`), which the darkroom tool does not know.
DarkroomTool.main {
    var registry = Registry.standard
    registry.register(filter: PosterizeFilter.self, origin: "CustomFilterTool")
    return registry
}
