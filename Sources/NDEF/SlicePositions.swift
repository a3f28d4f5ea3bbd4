/// Positions counted from the start of a slice. A slice keeps the indices of the array it views,
/// but the codec reports offsets from the start of the message or payload, so the parser and the
/// payload reader address bytes by position and map them here, in one place.
extension ArraySlice {
    @inline(__always)
    subscript(position position: Int) -> Element { self[startIndex + position] }

    @inline(__always)
    subscript(positions range: Range<Int>) -> ArraySlice<Element> {
        self[(startIndex + range.lowerBound)..<(startIndex + range.upperBound)]
    }
}
