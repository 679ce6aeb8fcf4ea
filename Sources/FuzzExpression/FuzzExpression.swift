// libFuzzer entry point for the expression pipeline: lexer, parser, checker, compiler and
// evaluator must never trap or hang, whatever the text. Run: Fuzz/run.sh FuzzExpression.
import RulesExpression

private let schema = FactSchema.standard(
    routineIDs: ["steps", "sleep", "water", "study", "skincare"],
    settings: [("bedtime", .optional(.time)), ("quiet", .bool), ("tone", .enumeration(EnumType(name: "tone", cases: ["calm_directive"])))])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExpression(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let (compiled, _) = CompiledExpression.compile(text, schema: schema, expecting: .anything)
    guard let compiled else { return 0 }
    var facts = FactValues(schema: schema)
    for (index, fact) in schema.facts.enumerated() {
        switch fact.type.unwrapped {
        case .int: facts[fact.slot] = .int(index * 997 - 5000)
        case .number: facts[fact.slot] = .number(Double(index) / 7)
        case .time: facts[fact.slot] = .time(index * 3571 % 86_400)
        case .bool: facts[fact.slot] = .bool(index % 2 == 0)
        case .enumeration(let type): facts[fact.slot] = .string(type.cases[index % type.cases.count])
        case .string: facts[fact.slot] = .string("물 300ml")
        case .date: facts[fact.slot] = .date(20_000)
        default: break
        }
    }
    var context = EvaluationContext(facts: facts)
    _ = try? compiled.value(&context)
    _ = ConstantAnalysis.truth(of: compiled)
    return 0
}
