import RulesEngine
import RulesExpression
import Ruleset
import Testing

@Suite struct ParticleTests {
    @Test(arguments: [
        ("3", Particle.eulReul, "을"), ("2", .eulReul, "를"), ("10", .eulReul, "을"), ("100", .eulReul, "을"),
        ("1000", .eulReul, "을"), ("10000", .eulReul, "을"), ("7", .euroRo, "로"), ("1", .euroRo, "로"),
        ("3", .euroRo, "으로"), ("물", .euroRo, "로"), ("방", .euroRo, "으로"), ("물", .eulReul, "을"),
        ("URL", .eulReul, "을"), ("URL", .euroRo, "로"), ("ml", .eulReul, "를"), ("300ml", .iGa, "가"),
        ("양치", .eulReul, "를"), ("스킨케어", .iGa, "가"), ("공부", .eunNeun, "는"), ("걸음 수", .gwaWa, "와"),
        ("영양제", .iya, "야"), ("방 청소", .iya, "야"), ("3,240", .eulReul, "을"), ("0.5", .eulReul, "를"),
        ("5h 30m", .eulReul, "을"), ("3.2k", .iGa, "이"), ("50%", .eulReul, "를"), ("0", .eulReul, "을"),
        ("(양치)", .eulReul, "를"), ("ABC", .eulReul, "를"), ("M", .iGa, "이"), ("6", .euroRo, "으로"),
        ("헬스 💪", .eulReul, "을(를)"), ("", .iGa, "이(가)"), ("?!", .euroRo, "(으)로"),
    ])
    func choosesTheFittingForm(word: String, particle: Particle, expected: String) {
        #expect(KoreanParticles.form(particle, after: word) == expected)
    }
}
