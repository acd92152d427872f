import DarkroomCore

// MARK: - OverlayCompositor

/// Porter-Duff "over" of one straight-alpha image onto another, in `Float` per pixel.
enum OverlayCompositor {
    /// `canvas` with `overlay` drawn over it at `placement`, the overlay's alpha scaled by
    /// `opacity`. The canvas keeps its size and its `hasAlpha`.
    static func over(_ overlay: Image, opacity: Float, at placement: OverlayPlacement, onto canvas: Image) -> Image {
        guard !placement.visibleColumns.isEmpty, !placement.visibleRows.isEmpty, opacity > 0 else { return canvas }
        let canvasWidth = canvas.width, overlayWidth = overlay.width
        let columns = placement.visibleColumns, opaqueCanvas = !canvas.hasAlpha
        let copiesOverlay = !overlay.hasAlpha && opacity == 1
        return canvas.pixels.withUnsafeBufferPointer { base in
            overlay.pixels.withUnsafeBufferPointer { top in
                Image(width: canvas.width, height: canvas.height, hasAlpha: canvas.hasAlpha) { out in
                    out.baseAddress!.initialize(from: base.baseAddress!, count: base.count)
                    for y in placement.visibleRows {
                        let s = top.baseAddress! + ((y - placement.top) * overlayWidth + (columns.lowerBound - placement.left)) * 4
                        let d = out.baseAddress! + (y * canvasWidth + columns.lowerBound) * 4
                        let count = columns.count * 4
                        if copiesOverlay {
                            d.update(from: s, count: count)
                            continue
                        }
                        var i = 0
                        while i < count {
                            let sa = Float(s[i + 3]) * opacity * (1 / 255)
                            if opaqueCanvas {
                                let keep = 1 - sa
                                d[i] = roundedByte(Float(s[i]) * sa + Float(d[i]) * keep)
                                d[i + 1] = roundedByte(Float(s[i + 1]) * sa + Float(d[i + 1]) * keep)
                                d[i + 2] = roundedByte(Float(s[i + 2]) * sa + Float(d[i + 2]) * keep)
                            } else {
                                let da = Float(d[i + 3]) * (1 / 255)
                                let keep = da * (1 - sa)
                                let alpha = sa + keep
                                if alpha > 0 {
                                    let f = 1 / alpha
                                    d[i] = roundedByte((Float(s[i]) * sa + Float(d[i]) * keep) * f)
                                    d[i + 1] = roundedByte((Float(s[i + 1]) * sa + Float(d[i + 1]) * keep) * f)
                                    d[i + 2] = roundedByte((Float(s[i + 2]) * sa + Float(d[i + 2]) * keep) * f)
                                }
                                d[i + 3] = roundedByte(alpha * 255)
                            }
                            i += 4
                        }
                    }
                }
            }
        }
    }
}
