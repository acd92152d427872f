import Foundation

// MARK: - Grey and CMYK JPEGs

/// Small JPEGs for colour models the committed fixtures lack, embedded as Base64 so the test
/// target has no unhandled resource files. Both encode the 64×48 gradient; regenerate from
/// `Tests/Fixtures` with ImageMagick 6:
///
///     convert gradient-rgb.png -channel R -separate +channel -quality 95 -strip gradient-gray.jpg
///     convert gradient-rgb.png -colorspace CMYK -quality 95 -sampling-factor 1x1 -strip gradient-cmyk.jpg
///     base64 -w 96 gradient-gray.jpg
enum EmbeddedJPEGs {
    /// One-component greyscale JPEG of the gradient's red channel: `L = 4x`.
    static let grey = decode("""
        /9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsI
        CQoKCgoKBggLDAsKDAkKCgr/wAALCAAwAEABAREA/8QAFgABAQEAAAAAAAAAAAAAAAAACAoJ/8QAFxAAAwEAAAAAAAAAAAAA
        AAAAAAdDgf/aAAgBAQAAPwDDdbTwQC2nggFtPBALaeCAW08EAtp4IBbTwQC2nhD+tp4IBbTwQC2nggFtPBALaeCAW08EAtp4
        IBbTwh/W08EAtp4IBbTwQC2nggFtPBALaeCAW08EAtp4Q/raeCAW08EAtp4IBbTwQC2nggFtPBALaeCAW08If1tPBALaeCAW
        08EAtp4IBbTwQC2nggFtPBALaeEP62nggFtPBALaeCAW08EAtp4IBbTwQC2nggFtPD//2Q==
        """)

    /// Four-component JPEG (Adobe APP14 marker, transform 2 = YCCK, inverted CMYK) of the
    /// RGB gradient, as ImageMagick converts RGB to CMYK (K = 1 − max(R,G,B)).
    static let cmyk = decode("""
        /9j/7gAOQWRvYmUAZAAAAAAC/9sAQwACAQEBAQECAQEBAgICAgIEAwICAgIFBAQDBAYFBgYGBQYGBgcJCAYHCQcGBggLCAkK
        CgoKCgYICwwLCgwJCgoK/9sAQwECAgICAgIFAwMFCgcGBwoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoK
        CgoKCgoKCgoKCgoK/8AAFAgAMABABAERAAIRAQMRAQQRAP/EAB0AAAMBAAIDAQAAAAAAAAAAAAYHCAAEBQMJCgL/xAA2EAAB
        AgMFBgQEBQUAAAAAAAABAAIDBQYEBxESoRchMUNkgQgTFCIjJEFRFWFicaIJMjNCUv/EAB0BAAICAwEBAQAAAAAAAAAAAAUH
        BAYDCAoCCQH/xAApEQAABgICAQQCAgMAAAAAAAAAAQIDBREEIQYSQQcTIjEIQhQVYXGR/9oADgQBAAIRAxEEAAA/AIZn3jC8
        S3hMqr8JpGs5lbqLs7hCskhi2lzmSyA0YMhWYE4MhMaA1sIYNY0ANAADVbuS8NjX3lOstkkz3oqL/hCz/ll+GfAc/lOZNwmA
        2wt5alqS2hKEmpRmZmSUkREZmdnRfex6V5DRFukkdroUElgO8YcE+Lmv6pMSv7DBjxagJc7+5rom8H6gpaZfHfYUZUPl1yX0
        I/p31I9qq/wHBdsCDDBH2Tspzxfibw2u/FMcw/7QhyM6+Asc307/AI5mXQUBdty+yK5d4hvVgH12OP6lGVgmQAPcP9v9RQF2
        3L7LuLLfR543WvHusR4gHuca6fqKAu25fZc+Bep5mHzOq8HjCIuBrwKAu25fZcqFeOH8Y/8AJeDYGBUNXgUBdty+y88Ovc3O
        1X4bJjCqJrwKAu25fZeri/mmYE5MbzIQdjjxC26zWyWOwj1Oh25Dv2K7sfJbsk6XRSlVVO1Bd7PXzyk47oLs+aJCBIa/9/z/
        ADVOz8BDl2Q+enqR6a4uStaiRv8A0PPL7tbVLY4j2aCQQd4w4pkXPeK234ssMytT4UZmAex7t4KqGXGdT+hpxyn079hxXwDN
        u7hRIL2Q4rC1w4gqiKH8Q/rITPnsccP9kBewa8BNSnD/AG1H8Q/rtuX2TOp6+gx2t+b/AJKA5iV4FIzONdb+IoC7bl9kYSi9
        URQD6nVRV4wrmRA9T+hQF23L7Iil95GcDC0arArHAd6FrwKAu25fZdxY6+Lh/m1WI2QOcia8CgLtuX2UmXi2MWgxPb91tZkF
        ZDrt5Zjk72Hzm7JOl0SGvFpaHaPMJh48fogeQ2RjWPlkKh3tobZJ0uiRtaUVGsVrNusGaHFYcWvbuQTIxyMax8s4m252+I/U
        G6qLAiCLBgFrhwIC5VB3wTeQ2pkvm0VzHA4BxO5yAZOEQ105DxAkKOkg3oSX2qXRmQLTDIIO44cU86GvoEZjD6vHH9SCPYlB
        RynGupn8Q+btuX2TTpq9XzWtItOPdDnMYUTNget6FAXbcvsjiSXkB7R8xqoa2BV8qGo/oUBdty+yKZXXxeB8bVR1MgC/E14F
        AXbcvsgmsYIi58QtmXSsdWk+33sem3ZJ0uiVNYSpsTPi3RDHU2EjP4RLvQ2yTpdEqqwpxkTP8PRDHmwkp+JSu9DbJOl0Srq+
        kGuLnNh4EbwQELeZIwkZ+ASu9DC6Ug4izaLp5HVk3pW1CBaojjDB9r/t+6Ev4xGEtOccIjPQIqSp22ySO1kaGcgO52Ca9E3q
        +YxmNp1Ql7GoK2TgepnoPC7bl9kz6YvID2tJj6oe4wKNnQ1GehQF23L7I7kdfZg0iNqoa2BVsqJrwKAu25fZH1TQ8+ZbCOEO
        nGYT2sQbsk6XRL2pbHmLtygOEFVMY/axtknS6Je1LKg/MMigOJCrmMIlXobZJ0uiX1TSJr83sUBxAVUxGEq9DbJOl0S9qWmW
        uzfD0UBxsKqYhyO9DbJOl0QvCjTKm7TngFxhg72/ZQHWSMKuXgy3odlIaIt0kjtdCgksB3jDgjmjrx3ODQY/74lDHceguJKF
        oz0HBdsCDDBH2TLpqvswaBH1Q9xgUnNiavQoC7bl9lWE/bjmTvWOiuUTdhW7JOl0QTPrPmzblDcILqUauxtknS6IKn1hBze1
        Q3EhcymMR2Nsk6XRBU/lYdm9oUNxIXcphkd6G2SdLogmfyYOzexQ1oC5lI8jvQ2yTpdEEz+Qh2YZFDW2F1KRZHehtknS6ITt
        lgtUstBtFkJBx3j6FQnGiMLqTiC3ociX3a2qWxxHs0Egg7xhxXe0vXMWG4Qory1w4glQHWRQJCJoz0GZd3CiQXshxWFrhxBX
        /9k=
        """)

    private static func decode(_ base64: String) -> [UInt8] {
        let joined = base64.split(whereSeparator: \.isWhitespace).joined()
        guard let data = Data(base64Encoded: joined) else { fatalError("bad embedded JPEG") }
        return [UInt8](data)
    }
}
