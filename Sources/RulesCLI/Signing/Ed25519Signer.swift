import Foundation
import Ruleset

#if canImport(CryptoKit)
    import CryptoKit
#elseif canImport(CSodium)
    import CSodium
#endif

/// Ed25519 key pairs and signing (RFC 8032) for `rules keygen` and `rules bundle --sign`,
/// with the platform's library (CryptoKit on Apple platforms, libsodium on Linux). The app
/// never signs: it only verifies (`Ed25519.isValid`).
package enum Ed25519Signer {
    /// A key pair: the 32-byte seed (the private key) and the 32-byte public key.
    package struct KeyPair {
        package var seed: [UInt8]
        package var publicKey: [UInt8]
    }

    /// The key pair of a 32-byte seed; nil for another length or without a library.
    package static func keyPair(seed: [UInt8]) -> KeyPair? {
        guard seed.count == 32 else { return nil }
        #if canImport(CryptoKit)
            guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed) else { return nil }
            return KeyPair(seed: seed, publicKey: Array(key.publicKey.rawRepresentation))
        #elseif canImport(CSodium)
            guard Sodium.ready else { return nil }
            var publicKey = [UInt8](repeating: 0, count: 32)
            var secret = [UInt8](repeating: 0, count: 64)
            guard crypto_sign_seed_keypair(&publicKey, &secret, seed) == 0 else { return nil }
            return KeyPair(seed: seed, publicKey: publicKey)
        #else
            return nil
        #endif
    }

    /// A fresh key pair from the system's random source.
    package static func generate() -> KeyPair? {
        #if canImport(CryptoKit)
            return keyPair(seed: Array(Curve25519.Signing.PrivateKey().rawRepresentation))
        #elseif canImport(CSodium)
            guard Sodium.ready else { return nil }
            var seed = [UInt8](repeating: 0, count: 32)
            randombytes_buf(&seed, 32)
            return keyPair(seed: seed)
        #else
            return nil
        #endif
    }

    /// The signature of `message` by the key of `seed`.
    package static func sign(_ message: [UInt8], seed: [UInt8]) -> [UInt8]? {
        guard seed.count == 32 else { return nil }
        #if canImport(CryptoKit)
            guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed), let signature = try? key.signature(for: message) else {
                return nil
            }
            return Array(signature)
        #elseif canImport(CSodium)
            guard Sodium.ready else { return nil }
            var publicKey = [UInt8](repeating: 0, count: 32)
            var secret = [UInt8](repeating: 0, count: 64)
            guard crypto_sign_seed_keypair(&publicKey, &secret, seed) == 0 else { return nil }
            defer { sodium_memzero(&secret, 64) }
            var signature = [UInt8](repeating: 0, count: 64)
            guard crypto_sign_detached(&signature, nil, message, UInt64(message.count), secret) == 0 else { return nil }
            return signature
        #else
            return nil
        #endif
    }
}
