import Foundation

#if canImport(CryptoKit)
    import CryptoKit
#elseif canImport(CSodium)
    import CSodium
#endif

/// Ed25519 signature verification (RFC 8032) with the platform's library: CryptoKit on
/// Apple platforms, libsodium on Linux. Never written by hand; signing is the CLI's alone.
public enum Ed25519 {
    /// Bytes of a public key.
    public static let publicKeyBytes = 32
    /// Bytes of a signature.
    public static let signatureBytes = 64

    /// The encodings of the points of small order (1, 2, 4 and 8) and their non-canonical
    /// twins (a y of p or more, the sign bit set on x = 0): a public key there lets a forger
    /// make signatures that pass for many messages. The curve's own constants, the same on
    /// every platform (CryptoKit has no check of its own).
    static let smallOrderEncodings: Set<[UInt8]> = {
        func bytes(_ hex: String) -> [UInt8] {
            var out: [UInt8] = []
            var index = hex.startIndex
            while index < hex.endIndex {
                let next = hex.index(index, offsetBy: 2)
                out.append(UInt8(hex[index..<next], radix: 16) ?? 0)
                index = next
            }
            return out
        }
        let ones = String(repeating: "ff", count: 30)
        let zeros = String(repeating: "00", count: 30)
        return Set(
            [
                "01" + zeros + "00", "01" + zeros + "80",  // order 1 (y = 1)
                "ec" + ones + "7f", "ec" + ones + "ff",  // order 2 (y = -1)
                "00" + zeros + "00", "00" + zeros + "80",  // order 4 (y = 0)
                "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",  // order 8
                "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
                "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
                "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
                "ed" + ones + "7f", "ed" + ones + "ff",  // y = p (0, not canonical)
                "ee" + ones + "7f", "ee" + ones + "ff",  // y = p + 1 (1, not canonical)
            ].map(bytes))
    }()

    /// Whether `publicKey` is a key to trust: 32 bytes, and not a point of small order (all
    /// zeros included), where one signature can pass for many messages.
    public static func isUsablePublicKey(_ publicKey: [UInt8]) -> Bool {
        guard publicKey.count == publicKeyBytes, !smallOrderEncodings.contains(publicKey) else { return false }
        #if !canImport(CryptoKit) && canImport(CSodium)
            // libsodium also knows points off the curve and outside its main subgroup.
            guard Sodium.ready else { return false }
            return crypto_core_ed25519_is_valid_point(publicKey) == 1
        #else
            return true
        #endif
    }

    /// Whether `signature` is `publicKey`'s signature of `message`. False for keys or
    /// signatures of the wrong length, and where no Ed25519 library is available.
    public static func isValid(signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == signatureBytes, publicKey.count == publicKeyBytes else { return false }
        #if canImport(CryptoKit)
            guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
            return key.isValidSignature(signature, for: message)
        #elseif canImport(CSodium)
            guard Sodium.ready else { return false }
            return crypto_sign_verify_detached(signature, message, UInt64(message.count), publicKey) == 0
        #else
            return false
        #endif
    }
}

#if !canImport(CryptoKit) && canImport(CSodium)
    /// libsodium, initialised once (thread-safe; `sodium_init` may be called again).
    package enum Sodium {
        /// Whether libsodium initialised.
        package static let ready: Bool = sodium_init() >= 0
    }
#endif
