import FuzzSupport

/// One input: TIFF through the registry. (Also libFuzzer's own entry point.)
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ input: UnsafePointer<UInt8>?, _ size: Int) -> Int32 { FuzzInputs.decode(input, size, formats: [.tiff]) }

FuzzDriver.run(testOneInput)
