import FuzzSupport

/// One input: BMP and TGA (Darkroom's own decoders) through the registry. (Also libFuzzer's own entry point.)
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ input: UnsafePointer<UInt8>?, _ size: Int) -> Int32 { FuzzInputs.decode(input, size, formats: [.bmp, .tga]) }

FuzzDriver.run(testOneInput)
