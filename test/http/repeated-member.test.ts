import { describe, expect, it } from 'vitest';
import { repeatedMemberIn } from '../../src/http/repeated-member.js';

describe('a member name given twice in one object', () => {
  it.each([
    ['{"a":1,"a":2}', 'a'],
    ['{"instructedAmount":{"amount":"1.00"},"creditorName":"x","instructedAmount":{"amount":"9999.00"}}', 'instructedAmount'],
    ['{"access":{"accounts":[{"iban":"NO1"},{"iban":"NO2","iban":"NO3"}]}}', 'access.accounts[1].iban'],
    ['[{"a":1},{"b":1,"b":2}]', '[1].b'],
    ['{"x":[[],[{"y":{"z":1,"z":1}}]]}', 'x[1][0].y.z'],
    // The same name after its escapes are read.
    ['{"amount":"1","\\u0061mount":"2"}', 'amount'],
    ['{"a\\"b":1,"a\\"b":2}', 'a"b'],
  ])('finds it in %s at %s', (text, path) => {
    JSON.parse(text);
    expect(repeatedMemberIn(text)).toBe(path);
  });

  it.each([
    '{}',
    '[]',
    'null',
    '"a"',
    '{"a":{"a":{"a":1}}}',
    '[{"a":1},{"a":2}]',
    '{"a":"b","b":"a"}',
    // Names and values holding the JSON punctuation are text, not structure.
    '{"a":"{\\"a\\":1,","b":"\\\\","c":"[,]","d":{"a":1}}',
    '{"a\\\\":1,"a":2}',
    '{ "a" : 1 , "b" : [ 1 , { "a" : 2 } ] }',
  ])('finds none in %s', (text) => {
    JSON.parse(text);
    expect(repeatedMemberIn(text)).toBeUndefined();
  });

  it('reads a body nested 100,000 levels deep without overflowing the stack', () => {
    const depth = 100_000;
    const text = `${'['.repeat(depth)}{"a":1,"a":2}${']'.repeat(depth)}`;
    expect(repeatedMemberIn(text)).toBe(`${'[0]'.repeat(depth)}.a`);
  });
});
