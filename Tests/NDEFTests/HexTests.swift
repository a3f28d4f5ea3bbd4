import NDEF
import Testing

/// The one hex formatter's formats, each as its users print it.
@Suite struct HexTests {
    @Test func identifiersAreLowercaseWithoutSeparators() {
        #expect(Hex.string([0x04, 0xA1, 0x0B]) == "04a10b")
        #expect(Hex.string([]) == "")
    }

    @Test func tracesSeparateBytesWithSpacesInEitherCase() {
        #expect(Hex.spaced([0x90, 0x00]) == "90 00")
        #expect(Hex.spaced([0x3B, 0x8F, 0x80], uppercase: true) == "3B 8F 80")
        #expect(Hex.spaced([0x0A]) == "0a")
        #expect(Hex.spaced([]) == "")
    }

    @Test func numbersKeepEveryDigitOfTheirWidth() {
        #expect(Hex.digits(UInt16(0x072f)) == "072f")
        #expect(Hex.digits(UInt16(0)) == "0000")
        #expect(Hex.digits(UInt32(0x1a2b3c)) == "001a2b3c")
        #expect(Hex.digits(UInt8(7)) == "07")
    }

    @Test func codesHaveTheirPrefix() {
        #expect(Hex.code(UInt8(0x0c)) == "0x0c")
        #expect(Hex.code(UInt16(0x40)) == "0x0040")
    }
}
