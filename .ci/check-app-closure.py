#!/usr/bin/env python3
"""Fails when what the iOS app links reaches libyaml: the dependency closure of the
EmbeddingExample target (and of the OperatorRules library) must not contain RulesYAML or
CLibYAML; CSodium (libsodium, Ed25519 on Linux) is the one C library it may link, and only
on Linux. Also the simulator's rooms: a target links only the rooms it uses (the language
server and the engine's fuzzer never k-means), and every module a target's sources import is
one it declares. Reads `swift package describe --type json` on standard input."""
import os
import re
import json
import sys

description = json.load(sys.stdin)
targets = {target["name"]: target for target in description["targets"]}
products = {product["name"]: product for product in description.get("products", [])}


def closure(names):
    seen, stack = set(), list(names)
    while stack:
        name = stack.pop()
        if name in seen or name not in targets:
            continue
        seen.add(name)
        stack.extend(targets[name].get("target_dependencies", []))
    return seen


failures = 0
roots = {"EmbeddingExample": ["EmbeddingExample"], "OperatorRules": products.get("OperatorRules", {}).get("targets", [])}
for label, names in roots.items():
    reached = closure(names)
    forbidden = sorted(reached & {"RulesYAML", "CLibYAML", "RulesetFiles"})
    print(f"{label}: links {', '.join(sorted(reached))}")
    if forbidden:
        print(f"{label} must not link {', '.join(forbidden)}")
        failures += 1
# The simulator's rooms: what each target may never link.
never = {
    "RulesLanguageServer": {"RulesChangeImpact", "RulesTune", "RulesFit"},
    "FuzzEngine": {"RulesChangeImpact", "RulesPopulation", "RulesTune", "RulesFit"},
    "FuzzPopulation": {"RulesChangeImpact", "RulesTune", "RulesFit"},
    "FuzzMerge": {"RulesChangeImpact", "RulesTune", "RulesFit"},
    "FuzzTune": {"RulesChangeImpact", "RulesFit"},
    "RulesPopulation": {"RulesChangeImpact", "RulesTune", "RulesFit"},
    "RulesTune": {"RulesChangeImpact", "RulesFit"},
    "RulesChangeImpact": {"RulesPopulation", "RulesTune", "RulesFit"},
}
for name, forbidden in sorted(never.items()):
    reached = closure([name]) & forbidden
    if name not in targets or reached:
        print(f"{name} must not link {', '.join(sorted(reached)) or '(target missing)'}")
        failures += 1
# Every import of a target's sources is a declared dependency (an undeclared one builds only
# by the luck of build order).
for name, target in sorted(targets.items()):
    path = target.get("path", "")
    declared = set(target.get("target_dependencies", [])) | set(target.get("product_dependencies", []))
    local = set(targets)
    for root, _, files in os.walk(path):
        for file in sorted(files):
            if not file.endswith(".swift"):
                continue
            with open(os.path.join(root, file), encoding="utf-8") as handle:
                for line in handle:
                    found = re.match(r"^(?:@testable )?import (\w+)$", line.strip())
                    if found and found.group(1) in local and found.group(1) not in declared and found.group(1) != name:
                        print(f"{os.path.join(root, file)} imports {found.group(1)}, which {name} does not declare")
                        failures += 1
print("rooms: each target links only what it may, and declares what it imports")
sys.exit(1 if failures else 0)
