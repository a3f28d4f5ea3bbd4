#!/usr/bin/env python3
"""Differential comparison of `nfcscan decode --hex --json` against the
ndeflib-derived expectations written by generate_corpus.py.

For every message of DIR/corpus.jsonl the binary is run once (hex text on
stdin by default) and its JSON output is compared FIELD BY FIELD with
`expected`: every key present in the expectation must be present and equal in
the output, recursively (nested `records` included); lists are compared
element-wise and must have the same length.  Keys the expectation does not
mention are not checked, with two exceptions that hold for every record of a
valid corpus: a record must not carry `"lossy": true` nor a string `error`
(payload decode failure) unless its expectation asks for an `error` (a payload
that does not fit its type, such as a vCard in Latin-1: the other records must
still be there).  Disable those with --no-extra-checks.

The hex text is fed in four deterministic layouts (plain, trailing newline,
space-separated octets, 32-character lines) because the CLI contract allows
whitespace.  --input selects other ways to pass the message.

The last line printed is exactly `oracle: N passed, M failed`.  The exit status
is non-zero when M > 0 or when fewer than --min-messages (2000) messages ran.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'Support'))
import json_schema  # noqa: E402  (the one validator of nfcscan's --json, Docs/schemas)

DECODE_SCHEMA = json_schema.validator('decode')

EXIT_OK = 0


def hex_layout(hexstr, index):
    style = index % 4
    if style == 0:
        return hexstr, 'plain'
    if style == 1:
        return hexstr + '\n', 'trailing-newline'
    if style == 2:
        return ' '.join(hexstr[i:i + 2] for i in range(0, len(hexstr), 2)), \
            'spaced-octets'
    return '\n'.join(hexstr[i:i + 32] for i in range(0, len(hexstr), 32)) + \
        '\n', 'wrapped-lines'


def run_one(binary, hexstr, index, mode, timeout, tmpdir):
    """Run the binary on one message; returns (argv, input_style, rc, stdout,
    stderr)."""
    if mode == 'mixed':
        mode = ('hex-stdin', 'hex-stdin', 'hex-file', 'binary-stdin')[index % 4]
    if mode == 'hex-stdin':
        text, style = hex_layout(hexstr, index)
        argv = [binary, 'decode', '--hex', '--json']
        data = text.encode('ascii')
    elif mode == 'hex-file':
        text, style = hex_layout(hexstr, index)
        path = os.path.join(tmpdir, '%d.hex' % index)
        with open(path, 'w') as f:
            f.write(text)
        argv = [binary, 'decode', '--hex', '--json', path]
        data = b''
        style = 'file/' + style
    elif mode == 'binary-stdin':
        argv = [binary, 'decode', '--json']
        data = bytes.fromhex(hexstr)
        style = 'binary-stdin'
    else:
        raise ValueError(mode)
    try:
        p = subprocess.run(argv, input=data, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        rc, out, err = 'timeout', b'', b''
    finally:
        if mode == 'hex-file':
            try:
                os.unlink(path)
            except OSError:
                pass
    return argv, style, rc, out, err


def same_scalar(exp, act):
    if isinstance(exp, bool) or isinstance(act, bool):
        return type(exp) is type(act) and exp == act
    if isinstance(exp, (int, float)) and isinstance(act, (int, float)):
        return exp == act
    return type(exp) is type(act) and exp == act


TYPES = {'string': str, 'object': dict, 'array': list}


def compare(exp, act, path, out):
    """Append (path, expected, actual) for every difference.  An expectation
    `{"$type": "string"}` accepts any value of that JSON type; a key `$absent`
    lists keys the actual object must not have."""
    if isinstance(exp, dict) and set(exp) == {'$type'}:
        if not isinstance(act, TYPES[exp['$type']]):
            out.append((path, Marker('<any %s>' % exp['$type']), act))
        return
    if isinstance(exp, dict):
        if not isinstance(act, dict):
            out.append((path, exp, act))
            return
        for key in exp.get('$absent', []):
            if key in act:
                out.append((path + '.' + key, ABSENT, act[key]))
        for key, value in exp.items():
            if key == '$absent':
                continue
            sub = path + '.' + key if path else key
            if key not in act:
                out.append((sub, value, MISSING))
            else:
                compare(value, act[key], sub, out)
    elif isinstance(exp, list):
        if not isinstance(act, list):
            out.append((path, exp, act))
            return
        if len(exp) != len(act):
            out.append((path + '.length', len(exp), len(act)))
        for i, (e, a) in enumerate(zip(exp, act)):
            compare(e, a, '%s[%d]' % (path, i), out)
    elif not same_scalar(exp, act):
        out.append((path, exp, act))


def extra_checks(act_records, exp_records, path, out):
    """Records must carry no `lossy` and no `error` unless the expectation
    asks for one (a payload that does not fit its type)."""
    if not isinstance(act_records, list):
        return
    exp_records = exp_records if isinstance(exp_records, list) else []
    for i, rec in enumerate(act_records):
        if not isinstance(rec, dict):
            continue
        exp = exp_records[i] if i < len(exp_records) and \
            isinstance(exp_records[i], dict) else {}
        p = '%s[%d]' % (path, i)
        if rec.get('lossy') is True:
            out.append((p + '.lossy', ABSENT, True))
        if isinstance(rec.get('error'), str) and 'error' not in exp:
            out.append((p + '.error', ABSENT, rec['error']))
        if 'records' in rec:
            extra_checks(rec['records'], exp.get('records'), p + '.records',
                         out)


def check(entry, result, extra):
    argv, style, rc, out, err = result
    diffs = []
    if rc != EXIT_OK:
        diffs.append(('<exit status>', EXIT_OK, rc if isinstance(rc, int) else Marker(rc)))
    try:
        actual = json.loads(out.decode('utf-8'))
    except (UnicodeDecodeError, ValueError) as e:
        diffs.append(('<json>', Marker('one JSON document on stdout'),
                      Marker('unparsable (%s): %r' % (e, out[:200]))))
        return diffs, err
    compare(entry['expected'], actual, '', diffs)
    for problem in DECODE_SCHEMA.iter_errors(actual):
        where = '/'.join(str(part) for part in problem.absolute_path)
        diffs.append(('<schema> ' + where, Marker('follows decode.schema.json'), Marker(problem.message)))
    if extra and isinstance(actual, dict):
        extra_checks(actual.get('records'), entry['expected'].get('records'),
                     'records', diffs)
    return diffs, err


class Marker(str):
    """A placeholder such as <missing>, printed without JSON quoting."""


MISSING = Marker('<missing>')
ABSENT = Marker('<absent>')


def short(value, limit=300):
    s = value if isinstance(value, Marker) else \
        json.dumps(value, ensure_ascii=False)
    return s if len(s) <= limit else s[:limit] + '...(%d chars)' % len(s)


def diff_class(path):
    """A mismatch class: the path without indices, e.g.
    records.records.auxiliary_data_references."""
    return re.sub(r'\[\d+\]', '[]', path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--corpus', required=True,
                    help='directory holding corpus.jsonl')
    ap.add_argument('--nfcscan', required=True, help='path of the binary')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--limit', type=int, default=40,
                    help='mismatching messages printed in detail')
    ap.add_argument('--input', default='hex-stdin',
                    choices=['hex-stdin', 'hex-file', 'binary-stdin', 'mixed'])
    ap.add_argument('--timeout', type=float, default=30)
    ap.add_argument('--min-messages', type=int, default=2000)
    ap.add_argument('--no-extra-checks', action='store_true')
    ap.add_argument('--only', type=int, action='append',
                    help='run only this message index (repeatable)')
    args = ap.parse_args()

    path = os.path.join(args.corpus, 'corpus.jsonl')
    with open(path, encoding='utf-8') as f:
        entries = [json.loads(line) for line in f if line.strip()]
    indices = args.only if args.only else range(len(entries))
    binary = os.path.abspath(args.nfcscan) if os.sep in args.nfcscan \
        else args.nfcscan
    if not os.access(binary, os.X_OK) and os.sep in binary:
        print('compare: %s is not an executable file' % binary,
              file=sys.stderr)

    passed = failed = printed = 0
    classes = collections.Counter()
    examples = {}
    with tempfile.TemporaryDirectory() as tmpdir, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [(i, pool.submit(run_one, binary, entries[i]['hex'], i,
                                   args.input, args.timeout, tmpdir))
                   for i in indices]
        for i, fut in futures:
            try:
                result = fut.result()
            except OSError as e:
                result = ([binary], '-', 'exec failed: %s' % e, b'', b'')
            diffs, stderr = check(entries[i], result,
                                  not args.no_extra_checks)
            if not diffs:
                passed += 1
                continue
            failed += 1
            seen = set()
            for p, e, a in diffs:
                c = diff_class(p)
                if c not in seen:
                    seen.add(c)
                    classes[c] += 1
                    examples.setdefault(c, (i, len(entries[i]['hex'])))
            if printed < args.limit:
                printed += 1
                print('--- message %d (%s; %s)' % (
                    i, entries[i].get('desc', ''), result[1]))
                print('    hex: %s' % entries[i]['hex'])
                for p, e, a in diffs[:12]:
                    print('    %s: expected %s, actual %s' % (
                        p, short(e), short(a)))
                if len(diffs) > 12:
                    print('    ... %d more differences' % (len(diffs) - 12))
                if stderr:
                    print('    stderr: %s' % stderr.decode(
                        'utf-8', 'replace').strip()[:300])
    if classes:
        print('--- mismatch classes (messages affected; first example index)')
        for c, n in classes.most_common():
            print('    %5d  %s  (e.g. message %d)' % (n, c, examples[c][0]))
    ran = passed + failed
    if ran < args.min_messages and not args.only:
        print('compare: only %d messages ran, %d required' % (
            ran, args.min_messages))
    print('oracle: %d passed, %d failed' % (passed, failed))
    ok = failed == 0 and (ran >= args.min_messages or args.only)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
