// MARK: - Matrix3

/// A row-major 3×3 matrix, for colour maths.
struct Matrix3 {
    var m: [Double]

    init(_ m: [Double]) { self.m = m }

    func times(_ other: Matrix3) -> Matrix3 {
        Matrix3((0..<9).map { index in
            let row = index / 3, column = index % 3
            return (0..<3).reduce(0) { $0 + m[row * 3 + $1] * other.m[$1 * 3 + column] }
        })
    }

    func applied(to v: [Double]) -> [Double] {
        (0..<3).map { row in m[row * 3] * v[0] + m[row * 3 + 1] * v[1] + m[row * 3 + 2] * v[2] }
    }

    var inverted: Matrix3? {
        let c00 = m[4] * m[8] - m[5] * m[7], c01 = m[5] * m[6] - m[3] * m[8], c02 = m[3] * m[7] - m[4] * m[6]
        let determinant = m[0] * c00 + m[1] * c01 + m[2] * c02
        guard abs(determinant) > 1e-12, determinant.isFinite else { return nil }
        let adjugate = [
            c00, m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            c01, m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            c02, m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        return Matrix3(adjugate.map { $0 / determinant })
    }
}
