#!/usr/bin/env python3
"""Fails when what the iOS app links reaches libyaml: the dependency closure of the
EmbeddingExample target (and of the OperatorRules library) must not contain RulesYAML or
CLibYAML; CSodium (libsodium, Ed25519 on Linux) is the one C library it may link, and only
on Linux. Reads `swift package describe --type json` on standard input."""
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
sys.exit(1 if failures else 0)
