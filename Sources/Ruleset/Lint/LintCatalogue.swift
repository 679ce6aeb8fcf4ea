/// Every lint check, in the order they run and are documented.
package enum LintCatalogue {
    package static let checks: [LintCheck] = [
        unreachableEntry, tableFallThrough, constantCondition, sensitiveLeak, notificationSurface, textTooLong,
        undecidableParticle, unusedTemplate, forbiddenPhrase, missingLine, neverFires, longCooldown,
        recoveryTooLong, nonPositive, lightScale, noToggle, statusWithoutEnabled, sensitiveWord, cooldownClash, hiddenCharacter, ambiguousTime,
    ]
}
