import FuzzSupport

/// One input: the filters.d loader. (Also libFuzzer's own entry point.)
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ input: UnsafePointer<UInt8>?, _ size: Int) -> Int32 { FuzzInputs.config(input, size) }

FuzzDriver.run(testOneInput)
