#!/usr/bin/env python3
"""Validates a HealthVault FHIR export with an independent FHIR library.

Usage: validate-fhir.py DIR

Reads every `<ResourceType>.ndjson` file in DIR and parses each line with fhir.resources 6.1.0
(FHIR R4, 4.0.1; pydantic models that refuse unknown fields, wrong types and malformed
primitives). Prints one JSON object: resource counts per file, and every error with its file
and line. Exits 1 on the first file that fails to parse a line (all errors are listed), 0 when
everything is valid R4.
"""
import json
import pathlib
import sys

import fhir.resources
from fhir.resources import get_fhir_model_class


def main() -> int:
    directory = pathlib.Path(sys.argv[1])
    report = {"fhirVersion": getattr(fhir.resources, "__fhir_version__", "?"), "files": {}, "errors": []}
    for path in sorted(directory.glob("*.ndjson")):
        count = 0
        with path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                try:
                    data = json.loads(line)
                    model = get_fhir_model_class(data["resourceType"])
                    if model.__name__ != path.stem:
                        raise ValueError(f"a {model.__name__} in {path.name}")
                    model.parse_obj(data)
                    count += 1
                except Exception as error:  # noqa: BLE001 - every failure is reported
                    report["errors"].append({"file": path.name, "line": number, "error": str(error)[:500]})
        report["files"][path.name] = count
    print(json.dumps(report))
    return 1 if report["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
