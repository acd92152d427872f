import FuzzSupport

/// One input: a request path (and Accept header) through in-process servers. (Also libFuzzer's own entry point.)
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ input: UnsafePointer<UInt8>?, _ size: Int) -> Int32 { ServerPathInput.run(input, size) }

FuzzDriver.run(testOneInput)
