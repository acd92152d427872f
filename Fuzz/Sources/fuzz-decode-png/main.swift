import FuzzSupport

/// One input: PNG through the registry. (Also libFuzzer's own entry point.)
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ input: UnsafePointer<UInt8>?, _ size: Int) -> Int32 { FuzzInputs.decode(input, size, formats: [.png]) }

FuzzDriver.run(testOneInput)
