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
