import CQREncode

/// A QR code made by libqrencode: the modules of `text`, row by row, true for dark.
/// Error correction level M (15 %), which a phone reads off a screen at an angle.
public enum QRCode {
    public static func modules(_ text: String) -> [[Bool]] {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return [] }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        return (0..<width).map { row in
            (0..<width).map { column in code.pointee.data[row * width + column] & 1 == 1 }
        }
    }
}
