import RulesCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

exit(RulesCLI.run(arguments: Array(CommandLine.arguments.dropFirst()), io: .standard()).rawValue)
