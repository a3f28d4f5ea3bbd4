#!/usr/bin/python3
"""Validates what an nfcscan command printed with --json against its schema in Docs/schemas: the
one check every test that reads nfcscan's JSON uses (the e2e scenarios through lib.sh's
valid_json, the Swift tests through TestSupport's JSONSchemaCheck, the Python tests by import).

    json_schema.py SCHEMA FILE|-     every non-empty line of FILE (JSON Lines) against
                                     Docs/schemas/SCHEMA.schema.json (scan, decode, info, ending, ...)
    json_schema.py --check           every schema is itself valid (draft 2020-12)

Exits 0 when all is valid; 1 with each problem (line, path in the document, why) on stderr.
Python 3 with python3-jsonschema (Debian 12: 4.10; newer ones too). Reads nothing from the network:
the schemas refer to each other by their $id (urn:nfcscan:schema:NAME), resolved here."""
import json
import pathlib
import sys

import jsonschema

SCHEMAS = pathlib.Path(__file__).resolve().parent.parent.parent / "Docs" / "schemas"


def load_all():
    return {path.name[: -len(".schema.json")]: json.loads(path.read_text()) for path in sorted(SCHEMAS.glob("*.schema.json"))}


def validator(name, schemas=None):
    schemas = schemas or load_all()
    if name not in schemas:
        raise SystemExit(f"json_schema.py: no schema {name!r} in {SCHEMAS} (there are: {', '.join(schemas)})")
    store = {schema["$id"]: schema for schema in schemas.values()}
    cls = jsonschema.Draft202012Validator
    try:
        from referencing import Registry, Resource  # jsonschema >= 4.18
        registry = Registry().with_resources((uri, Resource.from_contents(schema)) for uri, schema in store.items())
        return cls(schemas[name], registry=registry, format_checker=cls.FORMAT_CHECKER)
    except ImportError:  # Debian 12's 4.10: a resolver with the store
        resolver = jsonschema.RefResolver.from_schema(schemas[name], store=store)
        return cls(schemas[name], resolver=resolver, format_checker=cls.FORMAT_CHECKER)


def problems(name, text):
    """Each problem of `text` (JSON Lines) against schema `name`, as a sentence; [] when valid."""
    check = validator(name)
    found = []
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return [f"no JSON document (schema {name})"]
    for number, line in enumerate(lines, 1):
        try:
            document = json.loads(line)
        except ValueError as error:
            found.append(f"line {number}: not JSON: {error}")
            continue
        for error in sorted(check.iter_errors(document), key=lambda e: list(e.absolute_path)):
            # "not valid under any of the given schemas" (oneOf): say what the closest one lacks.
            error = jsonschema.exceptions.best_match(error.context) if error.context else error
            where = "/".join(str(part) for part in error.absolute_path) or "(the document)"
            found.append(f"line {number}: {where}: {error.message}")
    return found


def main(argv):
    if argv == ["--check"]:
        bad = 0
        for name, schema in load_all().items():
            try:
                jsonschema.Draft202012Validator.check_schema(schema)
                validator(name)
            except jsonschema.SchemaError as error:
                print(f"{name}: {error.message}", file=sys.stderr)
                bad += 1
        return 1 if bad else 0
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    name, source = argv
    text = sys.stdin.read() if source == "-" else pathlib.Path(source).read_text()
    found = problems(name, text)
    for problem in found:
        print(f"{source} against {name}.schema.json: {problem}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
