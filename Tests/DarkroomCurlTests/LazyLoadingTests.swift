import CCurlShims
import DarkroomCore
@testable import DarkroomCurl
import Foundation
import Testing

@Suite("libcurl is loaded with dlopen on first use, and a missing libcurl is reported clearly")
struct CurlLazyLoadingTests {
    @Test("the availability check says yes with no reason when libcurl is installed, and curl is then mapped")
    func availableHere() throws {
        var why = [CChar](repeating: 65, count: 64)
        #expect(ccurl_available(&why, why.count) == 1)
        #expect(why[0] == 0)
        #expect(CurlLibrary.unavailableReason == nil)
        #expect(try HTTPURL("HTTP://LocalHost:80/a.jpg#x").normalized == "http://localhost/a.jpg")
        let handle = dlopen(CCURL_LIBCURL_SONAME, RTLD_NOW | RTLD_NOLOAD)
        #expect(handle != nil)
        if let handle { dlclose(handle) }
    }

    @Test("a library that cannot be loaded is refused with the loader's reason")
    func missingLibraryReason() {
        var why = [CChar](repeating: 0, count: 256)
        #expect(ccurl_probe_library("libdarkroom-absent.so.9", &why, why.count) == 0)
        let reason = String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(reason.contains("libdarkroom-absent.so.9") && reason.contains("cannot open shared object file"))
    }

    @Test("the error for a missing libcurl names the URL, the library and how to install it")
    func missingLibcurlError() {
        let error = CurlLibrary.missing(url: "https://127.0.0.1/a.jpg", why: "libcurl.so.4: cannot open shared object file")
        #expect(error == DarkroomError.fetchFailed(
            url: "https://127.0.0.1/a.jpg", status: nil,
            reason: "libcurl (libcurl.so.4) is not installed: apt-get install libcurl4 (libcurl.so.4: cannot open shared object file)"))
    }

    @Test("an HTTPSource that never fetches starts no thread")
    func idleSourceStartsNothing() {
        let source = HTTPSource()
        #expect(source.canLoad("https://127.0.0.1/a.jpg"))
        #expect(!source.eventLoopForTesting.isThreadRunning)
    }
}
