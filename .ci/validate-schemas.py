#!/usr/bin/env python3
"""Validates the shipped rule files against the JSON Schemas that `rules schema` writes.

YAML is read with YAML 1.2 core typing (as editors' language servers do): `20:30` and `no`
stay strings, unlike PyYAML's default YAML 1.1 reading.
Usage: validate-schemas.py SCHEMA_DIR REPO_DIR
"""
import json
import pathlib
import re
import sys

import jsonschema
import yaml


class CoreLoader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 core-schema implicit types only."""


CoreLoader.yaml_implicit_resolvers = {}
CoreLoader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
CoreLoader.add_implicit_resolver("tag:yaml.org,2002:int", re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"), list("-+0123456789"))
CoreLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
    list("-+0123456789."),
)
CoreLoader.add_implicit_resolver("tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""])


def main() -> int:
    schemas = pathlib.Path(sys.argv[1])
    repo = pathlib.Path(sys.argv[2])
    kinds = {
        "routines": "routine.schema.json",
        "rules": "rules.schema.json",
        "templates": "rules.schema.json",
        "scenarios": "scenario.schema.json",
        "populations": "population.schema.json",
    }
    failures = 0
    checked = 0
    for folder, schema_name in kinds.items():
        schema = json.loads((schemas / schema_name).read_text(encoding="utf-8"))
        validator = jsonschema.Draft202012Validator(schema)
        for path in sorted((repo / folder).rglob("*.y*ml")):
            text = path.read_text(encoding="utf-8")
            expected = f"# yaml-language-server: $schema=../schemas/{schema_name}"
            if not text.startswith(expected):
                print(f"{path}: first line should be '{expected}'")
                failures += 1
            for document in yaml.load_all(text, Loader=CoreLoader):
                if document is None:
                    continue
                checked += 1
                for error in validator.iter_errors(document):
                    location = "/".join(str(p) for p in error.absolute_path)
                    print(f"{path}: {location}: {error.message}")
                    failures += 1
    print(f"schemas: {checked} documents checked, {failures} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
