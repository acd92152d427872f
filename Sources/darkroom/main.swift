import Darkroom
import DarkroomCLI
import DarkroomExampleFilters
import DarkroomMemcached

// MARK: - darkroom

// Darkroom's standard components plus the example extension module and the memcached cache kind, registered exactly the
// way a package registers its own filter modules in a tool of its own (see DarkroomTool).
DarkroomTool.main {
    var registry = Registry.standard
    ExampleFilters.register(in: &registry)
    registry.registerMemcachedCacheKind()
    return registry
}
