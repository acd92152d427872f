import Darkroom
import DarkroomExampleFilters
import DarkroomServer

// MARK: - darkroom-server

// Darkroom's standard components plus the example extension module, registered as the
// `darkroom` tool registers them, so both accept the same filters.d/.
await DarkroomServerTool.main {
    var registry = Registry.standard
    ExampleFilters.register(in: &registry)
    return registry
}
