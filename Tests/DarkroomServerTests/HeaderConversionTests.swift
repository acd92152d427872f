@testable import DarkroomServer
import HTTPTypes
import Testing

// MARK: - ImageServerResponse headers to HTTP fields

@Suite("A response's headers reach HTTP in order, with their names as written and repeats kept")
struct HeaderConversionTests {
    @Test("known and other names keep their spelling and order; a repeated name is sent twice; an invalid name is dropped")
    func conversion() {
        let response = ImageServerResponse(status: 200, headers: [
            ("Content-Type", "image/jpeg"), ("ETag", #""abc""#), ("X-Custom", "1"), ("Vary", "Accept"),
            ("Bad Name", "dropped"), ("X-Custom", "2"), ("X-Request-ID", "id-1"),
        ], body: [1, 2, 3])
        let fields = ImageServerHost.hummingbirdResponse(response).headers
        // Hummingbird adds the body's Content-Length after them.
        #expect(fields.map(\.name.rawName) == ["Content-Type", "ETag", "X-Custom", "Vary", "X-Custom", "X-Request-ID", "Content-Length"])
        #expect(fields.map(\.value) == ["image/jpeg", #""abc""#, "1", "Accept", "2", "id-1", "3"])
        #expect(fields[values: HTTPField.Name("x-custom")!] == ["1", "2"])
    }

    @Test("every name the server writes itself maps to the field of that name", arguments: [
        "Content-Type", "ETag", "Cache-Control", "Content-Length", "X-Request-ID", "X-Darkroom-Cache", "Vary",
    ])
    func knownNames(name: String) {
        #expect(ImageServerHost.fieldName(name) == HTTPField.Name(name))
        #expect(ImageServerHost.fieldName(name)?.rawName == name)
    }
}
