// libsodium (Debian's libsodium-dev): Ed25519 signatures for ruleset bundles on Linux.
// Apple platforms use CryptoKit instead; nothing here is compiled there.
#include <sodium.h>
