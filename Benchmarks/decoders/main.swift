// Decoder micro-benchmark: see README.md for the command.
import DarkroomCore
import DarkroomJPEG
import DarkroomPNG
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

// MARK: - Timing

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Best of `repeats` runs (the machine is shared).
func best(_ repeats: Int, _ body: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<repeats { times.append(try seconds(body)) }
    return times.min()!
}

func column(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
}

func fixed(_ value: Double, _ digits: Int = 1) -> String {
    let scale = Double([1, 10, 100, 1000][digits])
    return String((value * scale).rounded() / scale)
}

func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count == 0 { break }
        bytes += chunk[0..<count]
    }
    return bytes
}

/// Keeps results observable so the optimiser cannot drop the work.
nonisolated(unsafe) var sink = 0

// MARK: - Inputs

let arguments = CommandLine.arguments
let corpus = arguments.count > 1 ? arguments[1] : "../shared/corpus"
let repeats = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5

/// What each file is, for the table (from its frame header; see the corpus README).
let jpegs: [(file: String, kind: String)] = [
    ("photos/path.jpg", "baseline 4:4:4"),
    ("large/shell-5120.jpg", "baseline 4:2:2"),
    ("photos/colorfulcups.jpg", "progressive 4:2:2"),
    ("large/volna-5120.jpg", "progressive 4:4:4"),
]
let pngs = ["large/altai-5120.png", "large/canopee-3840.png"]

print("Best of \(repeats); Mpx/s per source megapixel (what a thumbnailer reads) and per output megapixel.\n")
print(column("file", 26) + column("kind", 26) + column("scale", 8) + column("output", 11)
    + column("ms", 9) + column("in Mpx/s", 10) + "out Mpx/s")

extension String {
    /// The last path component (no Foundation here).
    fileprivate var lastPathComponent: String { String(split(separator: "/").last ?? Substring(self)) }
}

// MARK: - JPEG at each DCT scale

for (file, kind) in jpegs {
    guard let bytes = readFile("\(corpus)/\(file)") else {
        print("(missing \(corpus)/\(file))")
        continue
    }
    let header = try ImageProbe.probe(bytes)
    for denominator in [1, 2, 4, 8] {
        let hint = JPEGDecoder.scaledSize(of: header.size, denominator: denominator)
        let options = DecodeOptions(sizeHint: hint)
        var tunings: [(String, JPEGDecoder.Tuning)] = [("", .default)]
        if header.isProgressive && denominator >= 4 { tunings.append((" exact", .exact)) }
        for (label, tuning) in tunings {
            let decoder = JPEGDecoder(tuning: tuning)
            var size = PixelSize(width: 0, height: 0)
            let time = try best(repeats) {
                let image = try decoder.decode(bytes, header: header, options: options)
                size = image.size
                sink &+= Int(image.pixels[image.pixels.count / 2])
            }
            print(column(file.lastPathComponent, 26) + column(kind + label, 26) + column("1/\(denominator)", 8)
                + column("\(size.width)x\(size.height)", 11) + column(fixed(time * 1000), 9)
                + column(fixed(Double(header.width * header.height) / 1e6 / time, 0), 10)
                + fixed(Double(size.width * size.height) / 1e6 / time, 1))
        }
    }
}

// MARK: - PNG with box shrink-on-load

for file in pngs {
    guard let bytes = readFile("\(corpus)/\(file)") else {
        print("(missing \(corpus)/\(file))")
        continue
    }
    let header = try ImageProbe.probe(bytes)
    for factor in [1, 2, 4, 8] {
        let hint = PixelSize(width: header.width / factor, height: header.height / factor)
        var size = PixelSize(width: 0, height: 0)
        let time = try best(repeats) {
            let image = try PNGDecoder().decode(bytes, header: header, options: DecodeOptions(sizeHint: hint))
            size = image.size
            sink &+= Int(image.pixels[image.pixels.count / 2])
        }
        print(column(file.lastPathComponent, 26) + column("PNG RGB 8-bit, box", 26) + column("1/\(factor)", 8)
            + column("\(size.width)x\(size.height)", 11) + column(fixed(time * 1000), 9)
            + column(fixed(Double(header.width * header.height) / 1e6 / time, 0), 10)
            + fixed(Double(size.width * size.height) / 1e6 / time, 1))
    }
}

// MARK: - Embedded colour profiles

/// An Adobe RGB-tagged JPEG decoded with its profile converted to sRGB and with it ignored, and
/// the conversion alone on a 2560×1600 image (what a full-size decode of a tagged photo pays).
print("\nEmbedded ICC profile → sRGB (small/rocket.jpg is tagged Adobe RGB (1998))")
if let bytes = readFile("\(corpus)/small/rocket.jpg"), let icc = EmbeddedICCProfile.bytes(in: bytes, format: .jpeg),
    let profile = ICCProfile(bytes: icc), let conversion = SRGBConversion(from: profile)
{
    let header = try ImageProbe.probe(bytes)
    for handling in [ColorProfileHandling.ignore, .convertToSRGB] {
        let time = try best(repeats) {
            let image = try JPEGDecoder().decode(bytes, header: header, options: DecodeOptions(colorProfiles: handling))
            sink &+= Int(image.pixels[image.pixels.count / 2])
        }
        print(column("rocket.jpg decode, \(handling)", 52) + fixed(time * 1000, 2) + " ms")
    }
    // A fresh image per run, handed over whole: converted in place, as after a decode.
    var times: [Double] = []
    for _ in 0..<repeats {
        let photo = Image(width: 2560, height: 1600, hasAlpha: false) { buffer in
            for index in buffer.indices { buffer[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 13) }
        }
        let start = DispatchTime.now().uptimeNanoseconds
        let converted = conversion.apply(to: photo)  // photo's last use: no copy
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        sink &+= Int(converted.pixels[4096])
    }
    let setUp = seconds { sink &+= SRGBConversion(from: profile) == nil ? 0 : 1 }
    print(column("SRGBConversion.apply in place, 2560x1600", 52) + fixed(times.min()! * 1000, 1) + " ms, "
        + fixed(2560 * 1600 / 1e6 / times.min()!, 0) + " Mpx/s (set-up " + fixed(setUp * 1e6, 0) + " µs)")
} else {
    print("(missing or untagged \(corpus)/small/rocket.jpg)")
}
if sink == 42 { print("") }
