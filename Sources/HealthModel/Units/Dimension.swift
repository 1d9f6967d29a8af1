extension HealthUnit {
    /// The physical dimension of a unit, as integer powers of independent base dimensions, so that units
    /// measuring the same kind of thing convert and all others do not.
    ///
    /// Besides the physical bases, count and the units HealthKit gives no conversion (IU, dBHL, appleEffortScore,
    /// D, pD) each get a base of their own: `count/s` must not equal `Hz`, and `D` must not equal `m^-1`.
    struct Dimension: Hashable, Sendable {
        /// One independent base dimension; its raw value is its lane in ``exponents``.
        enum Base: Int, CaseIterable {
            case mass
            case length
            case time
            case temperature
            /// Electric current, internal only: it lets volt and siemens be expressed in base units.
            case current
            case illuminance
            case angle
            case count
            case internationalUnit
            case hearingLevel
            case effortScore
            case diopter
            case prismDiopter
        }

        /// The power of each base, indexed by `Base.rawValue`; the unused lanes stay 0.
        var exponents: SIMD16<Int32>

        init(exponents: SIMD16<Int32>) {
            self.exponents = exponents
        }

        /// Equal when every lane is: compared as eight 64-bit words, where the derived comparison
        /// went lane by lane through the generic SIMD code (a few percent of reading a day of
        /// samples, each checked against its type's unit).
        static func == (lhs: Dimension, rhs: Dimension) -> Bool {
            withUnsafeBytes(of: lhs.exponents) { left in
                withUnsafeBytes(of: rhs.exponents) { right in
                    for offset in stride(from: 0, to: MemoryLayout<SIMD16<Int32>>.size, by: 8)
                    where left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        != right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    {
                        return false
                    }
                    return true
                }
            }
        }

        /// A dimension from its non-zero powers, as in `[.mass: 1, .length: 2, .time: -2]` for energy.
        init(_ powers: [Base: Int32]) {
            var exponents = SIMD16<Int32>()
            for (base, power) in powers {
                exponents[base.rawValue] = power
            }
            self.exponents = exponents
        }
    }
}
