import FuzzSupport

/// One input: the identifier parser. (Also libFuzzer's own entry point.)
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ input: UnsafePointer<UInt8>?, _ size: Int) -> Int32 { FuzzInputs.identifier(input, size) }

FuzzDriver.run(testOneInput)
