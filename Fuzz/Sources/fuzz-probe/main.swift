import FuzzSupport

/// One input: the header probe, details, metadata readers and inflater. (Also libFuzzer's own entry point.)
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ input: UnsafePointer<UInt8>?, _ size: Int) -> Int32 { FuzzInputs.probe(input, size) }

FuzzDriver.run(testOneInput)
