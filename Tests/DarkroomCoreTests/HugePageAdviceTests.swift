import DarkroomCore
import Testing

// MARK: - Huge-page advice for large buffers

@Suite("Large pixel buffers are advised onto huge pages without changing a byte")
struct HugePageAdviceTests {
    @Test("an image over the threshold is built exactly as its initializer wrote it", arguments: [1024, 1031, 1])
    func largeImageIntact(width: Int) {
        // 1024×1280×4 = 5 MiB (over the 4 MiB threshold); 1031 makes the size unaligned; 1 is tiny.
        let height = 1280
        let image = Image(width: width, height: height, hasAlpha: true) { buffer in
            for i in buffer.indices { buffer[i] = UInt8(truncatingIfNeeded: i &* 31 &+ i >> 12) }
        }
        #expect(image.pixels.count == width * height * 4)
        #expect(image.pixels.indices.allSatisfy { image.pixels[$0] == UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12) })
    }

    @Test("advising any range, aligned or not, large or small, leaves its contents alone", arguments: [
        (0, 9 << 20), (4095, 6 << 20), (1, 4 << 20), (17, 100),
    ])
    func adviceKeepsContents(offset: Int, count: Int) {
        let storage = UnsafeMutableRawPointer.allocate(byteCount: offset + count, alignment: 4096)
        defer { storage.deallocate() }
        let bytes = storage.bindMemory(to: UInt8.self, capacity: offset + count)
        for i in 0..<(offset + count) { bytes[i] = UInt8(truncatingIfNeeded: i &* 7) }
        HugePageAdvice.advise(storage + offset, byteCount: count)
        #expect((0..<(offset + count)).allSatisfy { bytes[$0] == UInt8(truncatingIfNeeded: $0 &* 7) })
    }
}
