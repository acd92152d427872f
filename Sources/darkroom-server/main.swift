import Darkroom
import DarkroomExampleFilters
import DarkroomMemcached
import DarkroomServer

// MARK: - darkroom-server

// Darkroom's standard components plus the example extension module and the memcached cache kind, registered as the
// `darkroom` tool registers them, so both accept the same filters.d/.
await DarkroomServerTool.main {
    var registry = Registry.standard
    ExampleFilters.register(in: &registry)
    registry.registerMemcachedCacheKind()
    return registry
}
