import { describe, expect, it } from 'vitest';
import { plainText, plainTextProblem } from '../../../src/http-kit/plain-text.ts';

describe('plainTextProblem', () => {
  it.each([
    ['U+0000', 'a\u0000b', 'U+0000', 1],
    ['another C0 control (ESC)', '\u001b[2J', 'U+001B', 0],
    ['DEL', 'x\u007f', 'U+007F', 1],
    ['a C1 control (CSI)', 'x\u009b', 'U+009B', 1],
    ['an unpaired high surrogate', 'ab\ud800', 'U+D800', 2],
    ['an unpaired low surrogate', '\udc00', 'U+DC00', 0],
    ['U+FFFE', '\ufffe', 'U+FFFE', 0],
    ['U+FFFF', 'a\uffff', 'U+FFFF', 1],
    ['a non-character of the U+FDD0 block', '\ufdef', 'U+FDEF', 0],
    ['a non-character of another plane', 'x\u{10FFFF}', 'U+10FFFF', 1],
  ])('refuses %s, naming it and its index', (_name, text, codePoint, index) => {
    expect(plainTextProblem(text)).toMatch(new RegExp(`^Contains ${codePoint.replace('+', '\\+')} at index ${index};`));
  });

  it.each([
    ['tab, line feed and carriage return', 'Main St 1\r\n\t10115 Berlin'],
    ['letters of any script, combining marks, emoji (a surrogate pair)', 'Zürich e\u0301 東京 🏢'],
    ['format characters (ZWJ, BOM, direction marks)', '\u200d\ufeff\u200f'],
    ['the empty string', ''],
  ])('takes %s', (_name, text) => {
    expect(plainTextProblem(text)).toBeUndefined();
  });
});

describe('plainText', () => {
  it('is a string schema that refuses what plainTextProblem refuses, and chains as one', () => {
    const name = plainText({ error: 'Required.' }).trim().max(5, 'Too long.');
    expect(name.parse('  ok  ')).toBe('ok');
    expect(name.safeParse('a\u0000').error?.issues.map((i) => i.message)).toEqual([plainTextProblem('a\u0000')]);
    expect(name.safeParse(undefined).error?.issues.map((i) => i.message)).toEqual(['Required.']);
  });
});
