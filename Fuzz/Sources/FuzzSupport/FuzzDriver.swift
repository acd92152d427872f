import CFuzzerDriver
import Glibc

// MARK: - FuzzDriver

/// Hands a target's input function to libFuzzer's driver with the process's command line (its
/// options and corpus folders) and exits with the driver's status.
///
/// ```swift
/// @_cdecl("LLVMFuzzerTestOneInput")
/// public func testOneInput(_ input: UnsafePointer<UInt8>?, _ size: Int) -> Int32 { FuzzInputs.probe(input, size) }
/// FuzzDriver.run(testOneInput)
/// ```
public enum FuzzDriver {
    public static func run(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
    }
}
