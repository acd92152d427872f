import CGD
import DarkroomCore
@testable import DarkroomGD
import DarkroomTestSupport
import Foundation
import Testing

@Suite("libgd is loaded with dlopen on first use, and a missing libgd is reported clearly")
struct LazyLoadingTests {
    @Test("a GIF decodes exactly through the lazily loaded libgd, which is then mapped into the process")
    func gifThroughLoadedLibgd() throws {
        let image = try GDDecoder().decode(Fixtures.bytes("blocks.gif"))
        #expect(ImageComparison.maxAbsoluteError(image, Pattern.blocks()) == 0)
        // RTLD_NOLOAD finds the library only if it is already loaded; it does not load it.
        let handle = dlopen(DARKROOM_LIBGD_SONAME, RTLD_NOW | RTLD_NOLOAD)
        #expect(handle != nil)
        if let handle { dlclose(handle) }
    }

    @Test("the availability check says yes with no reason when libgd is installed")
    func availableHere() {
        var why = [CChar](repeating: 65, count: 64)
        #expect(darkroom_gd_available(&why, why.count) == 1)
        #expect(why[0] == 0)
        #expect(GDLibrary.unavailableReason == nil)
        #expect(darkroom_gd_symbol("gdImageCreateTrueColor") != nil)
        #expect(darkroom_gd_symbol("darkroom_no_such_symbol") == nil)
    }

    @Test("a library that cannot be loaded is refused with the loader's reason, truncated safely")
    func missingLibraryReason() {
        var why = [CChar](repeating: 0, count: 256)
        #expect(darkroom_gd_probe_library("libdarkroom-absent.so.9", &why, why.count) == 0)
        let reason = String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(reason.contains("libdarkroom-absent.so.9"))
        #expect(reason.contains("cannot open shared object file"))

        var short = [CChar](repeating: 65, count: 8)
        #expect(darkroom_gd_probe_library("libdarkroom-absent.so.9", &short, short.count) == 0)
        #expect(short[7] == 0 && strlen(short) == 7)
    }

    @Test("the error for a missing libgd names the format, the library and how to install it")
    func missingLibgdError() {
        let error = GDLibrary.missing(.gif, why: "libgd.so.3: cannot open shared object file")
        #expect(error == DarkroomError.unsupportedFormat(
            .gif,
            reason: "libgd (libgd.so.3) is not installed: apt-get install libgd3 (libgd.so.3: cannot open shared object file)"))
    }

    @Test("asking which formats GDEncoder drives does not need libgd's answer")
    func encoderSupportIsStatic() {
        let supported = Set(ImageFormat.allCases.filter(GDEncoder.supports))
        #expect(supported == [.jpeg, .png, .webp, .avif, .gif, .bmp, .tiff])
    }
}
