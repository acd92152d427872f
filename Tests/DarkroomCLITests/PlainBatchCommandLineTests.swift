@testable import DarkroomCLI
import ArgumentParser
import DarkroomTestSupport
import DarkroomTools
import Testing

@Suite("A plain batch line is read without swift-argument-parser, to the same options")
struct PlainBatchCommandLineTests {
    // MARK: - Helpers

    /// What swift-argument-parser makes of `arguments`: the batch options, or nil when it
    /// refuses them (a usage error, help, or not the batch command).
    private func parsed(_ arguments: [String]) -> BatchOptions? {
        guard let command = try? DarkroomCommand.parseAsRoot(arguments) else { return nil }
        return (command as? BatchCommand)?.options
    }

    // MARK: - Lines users type

    @Test("the README and benchmark lines are read directly, with every value in place")
    func commonLines() {
        #expect(
            PlainBatchCommandLine.options([
                "batch", "Samples", "--variant", "thumbnail", "--variant", "avatar", "--variant", "placeholder",
                "--out", "out",
            ]) == BatchOptions(inputs: ["Samples"], variants: ["thumbnail", "avatar", "placeholder"], out: "out"))
        #expect(
            PlainBatchCommandLine.options([
                "batch", "/c/a.jpg", "/c/b.jpg", "--variant", "t1", "--out", "/tmp/o", "--jobs", "2", "--config",
                "Benchmarks/peers/filters.d", "--no-cache",
            ])
                == BatchOptions(
                    inputs: ["/c/a.jpg", "/c/b.jpg"], variants: ["t1"], out: "/tmp/o", jobs: 2,
                    config: "Benchmarks/peers/filters.d", noCache: true))
        #expect(
            PlainBatchCommandLine.options([
                "batch", "--url-list=urls.txt", "--variant=avatar", "https://127.0.0.1/cat.jpg", "--out=o",
            ])
                == BatchOptions(
                    inputs: ["https://127.0.0.1/cat.jpg"], urlList: "urls.txt", variants: ["avatar"], out: "o"))
    }

    @Test("without --jobs both readings render one image per CPU this process may use")
    func jobsDefaultToAllowedCPUs() {
        let line = ["batch", "Samples", "--variant", "thumbnail", "--out", "out"]
        let cpus = SpreadThreads.allowedCPUCount
        #expect(cpus >= 1)
        #expect(PlainBatchCommandLine.options(line)?.jobs == cpus)
        #expect(parsed(line)?.jobs == cpus)
        #expect(parsed(line + ["--jobs", "1"])?.jobs == 1)
    }

    @Test("help, unknown options, odd spellings and invalid lines are left to swift-argument-parser")
    func declines() {
        let declined: [[String]] = [
            ["render", "a.jpg", "--variant", "t", "--out", "o"],
            ["batch", "--help"], ["batch", "-h"], ["batch", "help"],
            ["batch", "a.jpg", "--variant", "t"],  // no --out
            ["batch", "a.jpg", "--out", "o"],  // no --variant
            ["batch", "--variant", "t", "--out", "o"],  // no input
            ["batch", "a.jpg", "--variant", "t", "--out", "o", "--jobs", "0"],
            ["batch", "a.jpg", "--variant", "t", "--out", "o", "--jobs", "two"],
            ["batch", "a.jpg", "--variant", "t", "--out", "o", "--jobs", "-2"],
            ["batch", "a.jpg", "--variant", "t", "--out", "o", "--out", "p"],
            ["batch", "a.jpg", "--variant", "t", "--out", "o", "--colour", "red"],
            ["batch", "a.jpg", "--variant", "t", "--out", "o", "--", "-b.jpg"],
            ["batch", "a.jpg", "--variant", "t", "--out"],
            ["batch", "a.jpg", "--variant", "t", "--out", "o", "--no-cache=yes"],
        ]
        for line in declined {
            #expect(PlainBatchCommandLine.options(line) == nil, "\(line)")
        }
    }

    // MARK: - Against swift-argument-parser

    @Test("every line it reads, swift-argument-parser reads to the same options (4,000 random lines)")
    func agreesWithArgumentParser() {
        // Mostly well-formed pieces, with an odd one now and then (a value that looks like an
        // option, an unknown option, `help`, `--`, a repeated single-valued option …).
        let inputs = ["a.jpg", "photos", "https://127.0.0.1/c.png", "x y.png", "render", "batch"]
        let oddInputs = ["help", "-", "-q", "--", "--help", "-h", "--version", "--no-cache=1", "--colour", "-j"]
        let options = ["--variant", "--out", "--jobs", "--config", "--url-list", "--no-cache"]
        let values = ["t", "out dir", "2", "filters.d", "a=b", "07", "+2"]
        let oddValues = ["0", "-1", "", "--out", " 3", "two", "-"]
        var random = SeededGenerator(seed: 0xDA7C_400D)
        func pick(_ common: [String], _ odd: [String]) -> String {
            Int.random(in: 0..<12, using: &random) == 0 ? odd.randomElement(using: &random)! : common.randomElement(using: &random)!
        }
        var read = 0
        for _ in 0..<4_000 {
            var line = ["batch"]
            for _ in 0..<Int.random(in: 1...7, using: &random) {
                let option = options.randomElement(using: &random)!
                switch Int.random(in: 0..<4, using: &random) {
                case 0: line.append(pick(inputs, oddInputs))
                case _ where option == "--no-cache": line.append(option)
                case 1: line += [option, pick(values, oddValues)]
                case 2: line.append(option + "=" + pick(values, oddValues))
                default: line += Bool.random(using: &random) ? ["--variant", "v", "--out", "o"] : ["a.jpg", "--variant", "w"]
                }
            }
            guard let fast = PlainBatchCommandLine.options(line) else { continue }
            read += 1
            #expect(parsed(line) == fast, "\(line)")
        }
        // The generator must produce plenty of plain lines, or this test proves nothing.
        #expect(read > 400, "only \(read) random lines were plain")
    }
}
