import Darkroom
import DarkroomCore
import DarkroomTestSupport
import DarkroomWorkers
import Foundation
import Glibc
import Synchronization
import Testing

// MARK: - Decoding in worker processes

@Suite("A DecodeWorkerPool decodes in worker processes exactly as in process, and a worker's crash, hang or memory blow-up fails one decode")
struct DecodeWorkerPoolTests {
    /// Set when a detached decode has ended.
    final class EndFlag: Sendable {
        let value = Atomic(false)
    }

    /// The built `darkroom-server`, whose main serves as a worker when asked.
    static let executable = BuiltExecutable.url(named: "darkroom-server").path

    static func pool(workers: Int = 1, memoryLimit: Int = 2 << 30, timeout: Double = 30) -> DecodeWorkerPool {
        DecodeWorkerPool(configuration: .init(executable: executable, workers: workers, memoryLimit: memoryLimit, timeout: timeout))
    }

    static func fixture(_ name: String) throws -> (bytes: [UInt8], header: ImageHeader) {
        let bytes = Fixtures.bytes(name)
        return (bytes, try ImageProbe.probe(bytes))
    }

    @Test("AVIF, HEIF, TIFF, JPEG and PNG decode to the same pixels, size hint and orientation as in process", arguments: [
        "gradient.avif", "gradient.heic", "gradient.tiff", "icc-adobe-rgb.tiff", "orientation-6.avif", "gradient.jpg", "gradient-rgba.png",
    ])
    func samePixels(name: String) throws {
        let pool = Self.pool()
        let (bytes, header) = try Self.fixture(name)
        for options in [DecodeOptions(), DecodeOptions(sizeHint: PixelSize(width: 16, height: 16)), DecodeOptions(colorProfiles: .ignore)] {
            let isolated = try pool.decode(bytes, header: header, options: options)
            let local = try Registry.standard.decode(bytes, options: options)
            #expect(isolated == local)
            #expect(isolated.shrunkFrom == local.shrunkFrom)
        }
        #expect(pool.startedWorkers == 1)
    }

    @Test("the decoder's own errors and warnings come back as they are")
    func errorsAndWarnings() throws {
        let pool = Self.pool()
        let (bytes, header) = try Self.fixture("gradient-progressive.jpg")
        let cut = Array(bytes.prefix(bytes.count * 2 / 3))
        let expected = try #require(Self.error(of: { try Registry.standard.decode(cut) }))
        #expect(throws: expected) { try pool.decode(cut, header: header, options: DecodeOptions()) }
        let warnings = Mutex<[DecodeWarning]>([])
        let lenient = DecodeOptions(failOn: .none, warnings: DecodeWarningHandler { warning in warnings.withLock { $0.append(warning) } })
        let image = try pool.decode(cut, header: header, options: lenient)
        #expect(image == (try Registry.standard.decode(cut, options: DecodeOptions(failOn: .none))))
        #expect(warnings.withLock { $0.first?.damage } == .truncated)
        #expect(throws: DarkroomError.tooManyPixels(width: header.width, height: header.height, limit: 10)) {
            try pool.decode(bytes, header: header, options: DecodeOptions(limits: DecodeLimits(maxPixels: 10)))
        }
        #expect(pool.startedWorkers == 1)
    }

    static func error(of body: () throws -> Image) -> DarkroomError? {
        do { _ = try body() } catch let error as DarkroomError { return error } catch {}
        return nil
    }

    @Test("an abort, an allocation past the cap and a hang past the timeout each fail one decode with the reason; the next decode is served by a new worker", arguments: [
        (DecodeWorkerPool.Fault.abort, "died of signal 6 (Aborted)"),
        (.allocate(512 << 20), "died of signal 6 (Aborted)"),
        (.hang, "took longer than 1 s and was stopped"),
    ])
    func faults(fault: DecodeWorkerPool.Fault, reason: String) throws {
        let pool = Self.pool(memoryLimit: 256 << 20, timeout: 1)
        let (bytes, header) = try Self.fixture("gradient.avif")
        do {
            _ = try pool.decode(bytes, header: header, options: DecodeOptions(), fault: fault)
            Issue.record("the faulty decode succeeded")
        } catch let DarkroomError.decodeFailed(format, detail) {
            #expect(format == .avif)
            #expect(detail.contains(reason), "\(detail)")
        }
        #expect(pool.busyWorkers.isEmpty)
        let next = try pool.decode(bytes, header: header, options: DecodeOptions())
        #expect(next == (try Registry.standard.decode(bytes)))
        #expect(pool.startedWorkers == 2)
    }

    @Test("a worker killed (SIGKILL) in the middle of a decode fails that decode only")
    func killedMidDecode() async throws {
        // The test kills the worker itself: a timeout far past any CPU starvation of a parallel
        // test run (which left this loop waiting over 30 s in CI) never ends the decode first.
        let pool = Self.pool(timeout: 600)
        let (bytes, header) = try Self.fixture("gradient.heic")
        let ended = EndFlag()
        let decode = Task.detached {
            defer { ended.value.store(true, ordering: .relaxed) }  // a decode failing at once ends the wait too
            return try pool.decode(bytes, header: header, options: DecodeOptions(), fault: .hang)
        }
        var busy: [pid_t] = []
        while busy.isEmpty, !ended.value.load(ordering: .relaxed) {
            try await Task.sleep(for: .milliseconds(10))
            busy = pool.busyWorkers
        }
        guard let worker = busy.first else {
            Issue.record("the decode ended before a worker took it: \(await decode.result)")
            return
        }
        kill(worker, SIGKILL)
        await #expect(throws: DarkroomError.decodeFailed(.heif, detail: "the decoder worker died of signal 9 (Killed): the decoder crashed, or needed more than its 2048 MB memory cap")) {
            try await decode.value
        }
        #expect(try pool.decode(bytes, header: header, options: DecodeOptions()) == (try Registry.standard.decode(bytes)))
    }

    @Test("a registry isolating formats decodes them in the pool and the rest in process")
    func isolatingRegistry() throws {
        let pool = Self.pool()
        let registry = Registry.standard.isolatingDecoders(of: [.tiff], in: pool)
        let (tiff, tiffHeader) = try Self.fixture("gradient.tiff")
        #expect(try registry.decoder(for: tiffHeader, options: DecodeOptions()).name == "isolated")
        #expect(try registry.decode(tiff) == (try Registry.standard.decode(tiff)))
        #expect(pool.startedWorkers == 1)
        let (jpeg, jpegHeader) = try Self.fixture("gradient.jpg")
        #expect(try registry.decoder(for: jpegHeader, options: DecodeOptions()).name != "isolated")
        _ = try registry.decode(jpeg)
        #expect(pool.startedWorkers == 1)
    }

    @Test("a worker is replaced after its share of decodes, so what a decoder library leaks stays bounded")
    func recycled() throws {
        let pool = DecodeWorkerPool(configuration: .init(executable: Self.executable, workers: 1, decodesPerWorker: 2))
        let (bytes, header) = try Self.fixture("gradient.avif")
        for _ in 0..<5 { _ = try pool.decode(bytes, header: header, options: DecodeOptions()) }
        #expect(pool.startedWorkers == 3)
    }

    @Test("an idle worker that died (killed from outside) is replaced without failing the next decode")
    func diedWhileIdle() async throws {
        let pool = Self.pool()
        let (bytes, header) = try Self.fixture("gradient.tiff")
        _ = try pool.decode(bytes, header: header, options: DecodeOptions())
        let worker = try #require(pool.workers.first)
        kill(worker, SIGKILL)
        // Wait for the kernel to make it a zombie, the state the pool then finds it in.
        while (try? String(contentsOfFile: "/proc/\(worker)/stat", encoding: .utf8))?.contains(") Z ") != true {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(try pool.decode(bytes, header: header, options: DecodeOptions()) == (try Registry.standard.decode(bytes)))
        #expect(pool.startedWorkers == 2)
    }
}
