// MARK: - Header lists

extension Substring {
    /// Without the spaces and tabs HTTP allows around the items of a header list
    /// (`"a" , W/"b"`, `image/webp;q=0.9, */*`).
    var trimmingHeaderSpace: Substring {
        var text = drop(while: { $0 == " " || $0 == "\t" })
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
