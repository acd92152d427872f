import Darkroom
import DarkroomCLI
import DarkroomExampleFilters

// MARK: - darkroom

// Darkroom's standard components plus the example extension module, registered exactly the
// way a package registers its own filter modules in a tool of its own (see DarkroomTool).
DarkroomTool.main {
    var registry = Registry.standard
    ExampleFilters.register(in: &registry)
    return registry
}
