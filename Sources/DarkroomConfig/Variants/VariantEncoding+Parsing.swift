import DarkroomCore

// MARK: - Encoder settings in identifier syntax

extension VariantEncoding {
    /// Parses encoder settings written as in an identifier — `jpeg(progressive=true,quality=85)`,
    /// `png(compression=9)`, `auto(quality=80)`, `webp` — so that the part after `>` of any
    /// identifier `darkroom list` prints parses back into the same settings.
    ///
    /// ```swift
    /// let encoding = try VariantEncoding(parsing: "jpeg(progressive=true,quality=85)")
    /// encoding.identifier   // "jpeg(progressive=true,quality=85)"
    /// ```
    /// - Throws: `DarkroomError/invalidArgument(name:value:expected:)` naming the unknown
    ///   format, the unknown setting (with the nearest known one) or the value out of range.
    public init(parsing text: String) throws {
        let spec: FilterSpec
        do {
            spec = try FilterSpec(parsing: text)
        } catch {
            throw DarkroomError.invalidArgument(
                name: "encoder settings", value: text, expected: "format or format(key=value,…), e.g. jpeg(quality=85)")
        }
        self.init()
        let formats = ["auto"] + ImageFormat.allCases.map(\.rawValue)
        if spec.name.lowercased() != "auto" {
            guard let format = ImageFormat(name: spec.name) else {
                let hint = NearestName.suggestion(for: spec.name, among: formats).map { " (did you mean '\($0)'?)" } ?? ""
                throw DarkroomError.invalidArgument(
                    name: "output format", value: spec.name, expected: "one of \(formats.joined(separator: ", "))\(hint)")
            }
            self.format = format
        }
        let settings = VariantEncoding.keys.filter { $0 != "format" }
        var seen: Set<String> = []
        for argument in spec.arguments {
            guard seen.insert(argument.name).inserted else {
                throw DarkroomError.invalidArgument(
                    name: "encoder setting", value: argument.name, expected: "each setting once")
            }
            guard case let .text(value) = argument.value else { continue }
            switch argument.name {
            case "quality", "compression", "speed":
                guard let number = Int(value) else {
                    throw DarkroomError.invalidArgument(name: argument.name, value: value, expected: "an integer")
                }
                switch argument.name {
                case "quality": quality = number
                case "compression": compression = number
                default: speed = number
                }
            case "progressive", "lossless", "strip", "optimize":
                guard let flag = Bool(value) else {
                    throw DarkroomError.invalidArgument(name: argument.name, value: value, expected: "true or false")
                }
                switch argument.name {
                case "progressive": progressive = flag
                case "lossless": lossless = flag
                case "optimize": optimize = flag
                default: strip = flag
                }
            default:
                let hint = NearestName.suggestion(for: argument.name, among: settings).map { " (did you mean '\($0)'?)" } ?? ""
                throw DarkroomError.invalidArgument(
                    name: "encoder setting", value: argument.name, expected: "one of \(settings.joined(separator: ", "))\(hint)")
            }
        }
        try EncodeOptions(format: format ?? .jpeg, quality: quality, compressionLevel: compression, speed: speed).validate()
    }
}
