import Darkroom
import DarkroomSources
import FoundationEssentials
import Synchronization

// MARK: - TemporaryFileSweep

/// Removes, once per output folder, the temporary files an earlier run killed mid-write left
/// there (``AtomicFileWriter/removeAbandonedTemporaryFiles(in:)``), so an interrupted batch
/// leaves nothing behind once it is run again.
///
/// ```swift
/// let sweep = TemporaryFileSweep()
/// sweep.sweepOnce(folderOf: "out/thumbnail/a.jpg")   // sweeps out/thumbnail the first time only
/// ```
final class TemporaryFileSweep: Sendable {
    private let swept = Mutex<Set<String>>([])

    func sweepOnce(folderOf path: String) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let isNew = swept.withLock { $0.insert(folder).inserted }
        if isNew { AtomicFileWriter.removeAbandonedTemporaryFiles(in: folder) }
    }
}
