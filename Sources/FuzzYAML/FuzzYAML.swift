// libFuzzer entry point for the YAML reader. Build and run (see Fuzz/run-yaml.sh):
//   swift build -c release --product FuzzYAML --sanitize=fuzzer
//   .build/release/FuzzYAML -max_total_time=60 Fuzz/corpus/yaml
// The reader must never trap or hang, whatever the bytes.
import RulesYAML

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let parsed = YAMLReader.parse(bytes, file: "fuzz.yaml")
    // Touch the result so the tree is really built.
    if parsed.documents.count > 1_000_000 { print(parsed.documents.count) }
    return 0
}
