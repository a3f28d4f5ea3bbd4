/// Punycode (RFC 3492) decoding, for the domain of an external type a page reads: objects store
/// it in ASCII (`xn--hndvrker-9zan.dk:abc`) and Web NFC gives pages its Unicode form
/// (`håndværker.dk:abc`, the specification's ToUnicode step). Pure, bounded by the label.
enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 128
    /// A DNS label holds at most 63 bytes, so no decoding loop runs longer than that.
    static let maximumLabelLength = 63

    /// A domain in Unicode: each `xn--` label decoded, every other label lowercased. Nil when a
    /// label is not valid Punycode (the specification then leaves the record out).
    static func unicodeDomain(_ domain: Substring) -> String? {
        var labels: [String] = []
        for label in domain.split(separator: ".", omittingEmptySubsequences: false) {
            let lower = label.lowercased()
            guard lower.hasPrefix("xn--") else {
                labels.append(lower)
                continue
            }
            // An A-label always stands for something beyond ASCII (IDNA's rule).
            guard let decoded = decode(lower.dropFirst(4)), decoded.unicodeScalars.contains(where: { !$0.isASCII }) else { return nil }
            labels.append(decoded)
        }
        return labels.joined(separator: ".")
    }

    /// The Unicode form of one label's Punycode part (after `xn--`); nil when it is not one.
    static func decode(_ input: Substring) -> String? {
        let bytes = Array(input.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumLabelLength, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        var output: [UInt32] = []
        var start = 0
        if let hyphen = bytes.lastIndex(of: UInt8(ascii: "-")) {
            output = bytes[..<hyphen].map(UInt32.init)
            start = hyphen + 1
        }
        var n = initialN, i = 0, bias = initialBias, index = start
        while index < bytes.count {
            let old = i
            var weight = 1, k = base
            while true {
                guard index < bytes.count, let digit = digit(bytes[index]) else { return nil }
                index += 1
                let (product, overflowed) = digit.multipliedReportingOverflow(by: weight)
                guard !overflowed, i <= Int.max - product else { return nil }
                i += product
                let threshold = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if digit < threshold { break }
                let (next, grew) = weight.multipliedReportingOverflow(by: base - threshold)
                guard !grew else { return nil }
                weight = next
                k += base
            }
            let count = output.count + 1
            bias = adapt(i - old, count: count, first: old == 0)
            guard i / count <= 0x10FFFF - n else { return nil }
            n += i / count
            i %= count
            guard n <= 0x10FFFF, !(0xD800...0xDFFF).contains(n) else { return nil }
            output.insert(UInt32(n), at: i)
            i += 1
        }
        var text = String.UnicodeScalarView()
        for value in output {
            guard let scalar = Unicode.Scalar(value) else { return nil }
            text.append(scalar)
        }
        return String(text)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0")) + 26
        default: nil
        }
    }

    private static func adapt(_ delta: Int, count: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }
}
