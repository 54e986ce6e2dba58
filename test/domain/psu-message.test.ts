/**
 * The psuMessage length rule (Berlin Group psuMessageText, maxLength 500): a text within it is
 * kept as it is; a longer one is cut to the limit and ends in "…", never between the halves of a
 * surrogate pair.
 */
import { describe, expect, it } from 'vitest';
import { clipText, PSU_MESSAGE_MAX_LENGTH, withinPsuMessage } from '../../src/domain/psu-message.js';

describe('withinPsuMessage', () => {
  it('keeps a text of up to 500 characters as it is', () => {
    expect(withinPsuMessage('Cancelled by the TPP before the PSU approved it')).toBe('Cancelled by the TPP before the PSU approved it');
    const full = 'x'.repeat(PSU_MESSAGE_MAX_LENGTH);
    expect(withinPsuMessage(full)).toBe(full);
  });

  it('cuts a longer one to 500 characters ending in "…"', () => {
    const cut = withinPsuMessage(`Not executed: ${'the bank explains at length '.repeat(100)}`);
    expect(cut.length).toBeLessThanOrEqual(PSU_MESSAGE_MAX_LENGTH);
    expect(cut).toMatch(/^Not executed: the bank explains at length .*\S…$/);
  });
});

describe('clipText', () => {
  it('does not split a surrogate pair at the cut', () => {
    expect(clipText('ab😀cd', 4)).toBe('ab…');
    expect(clipText('abc😀d', 4)).toBe('abc…');
    expect(clipText('ab😀', 4)).toBe('ab😀');
  });
});
