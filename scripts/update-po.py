#!/usr/bin/env python3
"""Regenerates the translation template and the English catalog from the Swift message table.

xgettext cannot read Swift, so this reads Sources/NFCCopy/CopyMessages.swift itself: every
`CopyMessage(.kind, "context", "English"[, plural: "..."][, note: "..."])` there, arguments plain
string literals, in file order. It writes

  po/nfcscan.pot  the template: msgctxt = the message's name, msgid = the English (with its
                  {placeholders}), msgid_plural for a message that counts, the note as `#.`;
  po/en.po        English: each msgstr is its msgid (the English source is the Swift table);

and merges every other language of po/LINGUAS with msgmerge (new messages come in untranslated,
changed ones fuzzy: CopyCatalogTests fails on both until a translator has seen them).

  scripts/update-po.py           regenerate and merge (make pot)
  scripts/update-po.py --check   exit 1 if po/nfcscan.pot or po/en.po differ from the table
"""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "Sources/NFCCopy/CopyMessages.swift"
PO = ROOT / "po"
STRING = r'"((?:[^"\\\n]|\\.)*)"'
MESSAGE = re.compile(
    r"CopyMessage\(\s*\.(sentence|label|objectName)\s*,\s*" + STRING + r"\s*,\s*" + STRING
    + r"(?:\s*,\s*plural:\s*" + STRING + r")?(?:\s*,\s*note:\s*" + STRING + r")?\s*\)")
PLACEHOLDER = re.compile(r"\{[A-Za-z_]+\}")


def swift_unescape(text):
    def one(match):
        escape = match.group(1)
        if escape.startswith("u{"):
            return chr(int(escape[2:-1], 16))
        return {"n": "\n", "t": "\t", "r": "\r", '"': '"', "'": "'", "\\": "\\", "0": "\0"}[escape]
    return re.sub(r"\\(u\{[0-9A-Fa-f]+\}|.)", one, text)


def messages():
    found = []
    for match in MESSAGE.finditer(TABLE.read_text(encoding="utf-8")):
        kind, context, english, plural, note = match.groups()
        found.append({
            "kind": kind, "context": swift_unescape(context), "english": swift_unescape(english),
            "plural": swift_unescape(plural) if plural is not None else None,
            "note": swift_unescape(note) if note is not None else "",
        })
    if not found:
        sys.exit(f"update-po: no CopyMessage( in {TABLE}")
    keys = [(m["context"], m["english"]) for m in found]
    duplicates = {key for key in keys if keys.count(key) > 1}
    if duplicates:
        sys.exit(f"update-po: the same msgctxt and msgid twice: {sorted(duplicates)}")
    return found


def quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def header(comment, fields):
    lines = [f"# {line}" if line else "#" for line in comment]
    lines += ['msgid ""', 'msgstr ""'] + [quote(f"{name}: {value}\n") for name, value in fields]
    return "\n".join(lines) + "\n"


def entry(message, strings):
    lines = []
    if message["note"]:
        lines.append(f"#. {message['note']}")
    if PLACEHOLDER.search(message["english"] + (message["plural"] or "")):
        lines.append("#, python-brace-format")
    lines.append(f"msgctxt {quote(message['context'])}")
    lines.append(f"msgid {quote(message['english'])}")
    if message["plural"] is None:
        lines.append(f"msgstr {quote(strings[0])}")
    else:
        lines.append(f"msgid_plural {quote(message['plural'])}")
        lines += [f"msgstr[{i}] {quote(s)}" for i, s in enumerate(strings)]
    return "\n".join(lines) + "\n"


COMMON = [("MIME-Version", "1.0"), ("Content-Type", "text/plain; charset=UTF-8"), ("Content-Transfer-Encoding", "8bit")]


def template(found):
    head = header(
        ["nfcscan: every string a person reads (Docs/translating.md says how to translate it).",
         "po/nfcscan.pot is made from Sources/NFCCopy/CopyMessages.swift by `make pot`.",
         "{name} is a value the program fills in (python-brace-format): keep it, anywhere in the sentence."],
        [("Project-Id-Version", "nfcscan"), ("Report-Msgid-Bugs-To", ""),
         ("PO-Revision-Date", "YEAR-MO-DA HO:MI+ZONE"), ("Last-Translator", "FULL NAME <EMAIL@ADDRESS>"),
         ("Language-Team", "LANGUAGE <LL@li.org>"), ("Language", "")] + COMMON
        + [("Plural-Forms", "nplurals=INTEGER; plural=EXPRESSION;")])
    return head + "".join("\n" + entry(m, [""] if m["plural"] is None else ["", ""]) for m in found)


def english(found):
    head = header(
        ["English: every msgstr is its msgid. The English is written once, in",
         "Sources/NFCCopy/CopyMessages.swift; scripts/update-po.py (make pot) makes this file: change the words there."],
        [("Project-Id-Version", "nfcscan"), ("Report-Msgid-Bugs-To", ""), ("PO-Revision-Date", "2026-11-27 00:00+0000"),
         ("Last-Translator", "nfcscan maintainers"), ("Language-Team", "English"), ("Language", "en")] + COMMON
        + [("Plural-Forms", "nplurals=2; plural=(n != 1);")])
    return head + "".join(
        "\n" + entry(m, [m["english"]] if m["plural"] is None else [m["english"], m["plural"]]) for m in found)


def languages():
    return [line.strip() for line in (PO / "LINGUAS").read_text().splitlines()
            if line.strip() and not line.startswith("#")]


def main():
    found = messages()
    wanted = {PO / "nfcscan.pot": template(found), PO / "en.po": english(found)}
    if sys.argv[1:] == ["--check"]:
        stale = [path.relative_to(ROOT) for path, text in wanted.items()
                 if not path.exists() or path.read_text(encoding="utf-8") != text]
        if stale:
            print(f"update-po: {', '.join(map(str, stale))} differ from {TABLE.relative_to(ROOT)}: run make pot",
                  file=sys.stderr)
            return 1
        print(f"update-po: po/nfcscan.pot and po/en.po are current ({len(found)} messages)")
        return 0
    if sys.argv[1:]:
        print(__doc__, file=sys.stderr)
        return 64
    for path, text in wanted.items():
        path.write_text(text, encoding="utf-8")
    for language in languages():
        po = PO / f"{language}.po"
        if language == "en" or not po.exists():
            continue
        subprocess.run(["msgmerge", "--quiet", "--update", "--backup=none", "--no-wrap", str(po), str(PO / "nfcscan.pot")],
                       check=True)
    print(f"update-po: {len(found)} messages; po/nfcscan.pot, po/en.po written; merged: "
          + ", ".join(f"po/{l}.po" for l in languages() if l != "en"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
