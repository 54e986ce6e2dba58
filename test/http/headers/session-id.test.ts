import { describe, expect, it } from 'vitest';
import { checkTppSessionId } from '../../../src/http/headers/session-id.js';

describe('checkTppSessionId', () => {
  it.each(['99391c7e-ad88-49ec-a2ad-99ddcb1f7721', 'a', '!~', 'x'.repeat(100), 'session:42/abc?x=1'])('accepts %s', (value) => {
    expect(checkTppSessionId(value)).toEqual({ ok: true, value });
  });

  it.each([
    ['', 'must not be empty', 'kan ikke være tom'],
    ['x'.repeat(101), 'at most 100 characters, got 101', 'høyst 100 tegn, men har 101'],
    ['abc def', 'character 4 is not a visible ASCII character', 'tegn nr. 4 er ikke et synlig ASCII-tegn'],
    ['abc\tdef', 'character 4', 'tegn nr. 4'],
    ['økt', 'character 1 is not a visible ASCII character', 'tegn nr. 1'],
    ['abc\x7f', 'character 4', 'tegn nr. 4'],
  ])('refuses %j: %s', (value, en, nb) => {
    const result = checkTppSessionId(value);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason.en).toContain(en);
    expect(result.reason.nb).toContain(nb);
  });
});
