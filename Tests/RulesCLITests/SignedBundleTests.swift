import Foundation
import RulesCLI
import RulesDiagnostics
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// Ed25519 through the platform's library, checked with RFC 8032 §7.1's vectors.
@Suite struct Ed25519Tests {
    /// (secret seed, public key, message, signature), RFC 8032 §7.1 TEST 1, 2 and 3.
    static let vectors: [(String, String, String, String)] = [
        (
            "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
            "",
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        ),
        (
            "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb", "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
            "72",
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
        ),
        (
            "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7", "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
            "af82",
            "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"
        ),
    ]

    @Test(arguments: 0..<3)
    func rfc8032Vectors(_ index: Int) throws {
        let (seedHex, publicHex, messageHex, signatureHex) = Self.vectors[index]
        let seed = try #require(Hex.bytes(seedHex))
        let publicKey = try #require(Hex.bytes(publicHex))
        let message = try #require(Hex.bytes(messageHex))
        let signature = try #require(Hex.bytes(signatureHex))
        // Verification (what the app links) accepts the RFC's signature…
        #expect(Ed25519.isValid(signature: signature, of: message, publicKey: publicKey))
        // …and nothing else: a flipped bit anywhere, another message, another key.
        for bit in [0, 7, 255, 511] {
            var flipped = signature
            flipped[bit / 8] ^= UInt8(1 << (bit % 8))
            #expect(!Ed25519.isValid(signature: flipped, of: message, publicKey: publicKey), "bit \(bit)")
        }
        #expect(!Ed25519.isValid(signature: signature, of: message + [0], publicKey: publicKey))
        #expect(!Ed25519.isValid(signature: Array(signature.dropLast()), of: message, publicKey: publicKey))
        #expect(!Ed25519.isValid(signature: [], of: message, publicKey: publicKey))
        // Signing (the CLI's) derives the RFC's public key and signature from the seed.
        #expect(Ed25519Signer.keyPair(seed: seed)?.publicKey == publicKey)
        #expect(Ed25519Signer.sign(message, seed: seed) == signature)
    }

    @Test func keyIDsAndKeyFilesRoundTrip() throws {
        let pair = try #require(Ed25519Signer.generate())
        let id = TrustedKeys.keyID(pair.publicKey)
        #expect(id.count == 16 && Hex.bytes(id) != nil)
        let publicText = SigningKeyFile.text(kind: "ed25519-public", keyID: id, key: pair.publicKey)
        #expect(SigningKeyFile.publicKey(publicText) == pair.publicKey)
        #expect(SigningKeyFile.privateSeed(SigningKeyFile.text(kind: "ed25519-private", keyID: id, key: pair.seed)) == pair.seed)
        // A public key file whose id does not match its key does not read.
        #expect(SigningKeyFile.publicKey(publicText.replacingOccurrences(of: id, with: String(repeating: "0", count: 16))) == nil)
        #expect(TrustedKeys(publicKeyFiles: [publicText])?.ids == [id])
    }
}
