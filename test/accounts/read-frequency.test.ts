import { describe, expect, it } from 'vitest';
import { decideRead, mostConstrained, rateLimitHeaders } from '../../src/modules/accounts/read-frequency.js';

const at = (iso: string) => new Date(iso);

describe('the frequencyPerDay rule (rolling 24 hours)', () => {
  it('allows up to the limit, keeping the newest read times, and says how many remain', () => {
    const first = decideRead([], at('2026-05-01T08:00:00Z'), 2);
    expect(first).toMatchObject({
      allowed: true,
      readTimes: ['2026-05-01T08:00:00.000Z'],
      allowance: { remaining: 1, resetSeconds: 86_400 },
    });
    const second = decideRead(['2026-05-01T08:00:00.000Z'], at('2026-05-01T20:00:00Z'), 2);
    expect(second).toMatchObject({ allowed: true, allowance: { limit: 2, remaining: 0, resetSeconds: 12 * 3600 } });
  });

  it('refuses the read over the limit until the oldest counted read is 24 hours old', () => {
    const earlier = ['2026-05-01T08:00:00.000Z', '2026-05-01T20:00:00.000Z'];
    const refused = decideRead(earlier, at('2026-05-02T07:59:59Z'), 2);
    expect(refused).toEqual({
      allowed: false,
      nextReadAt: at('2026-05-02T08:00:00Z'),
      allowance: { limit: 2, remaining: 0, resetSeconds: 1 },
    });
    const allowed = decideRead(earlier, at('2026-05-02T08:00:00Z'), 2);
    expect(allowed).toMatchObject({ allowed: true, readTimes: ['2026-05-01T20:00:00.000Z', '2026-05-02T08:00:00.000Z'] });
  });

  it('ignores stored times it cannot read, and a lower limit than reads stored refuses', () => {
    expect(decideRead(['garbage'], at('2026-05-01T08:00:00Z'), 1)).toMatchObject({ allowed: true });
    const times = ['2026-05-01T07:00:00.000Z', '2026-05-01T07:30:00.000Z'];
    expect(decideRead(times, at('2026-05-01T08:00:00Z'), 1)).toMatchObject({ allowed: false, nextReadAt: at('2026-05-02T07:30:00Z') });
  });

  it('writes the IETF rate-limit fields in the limit, remaining, reset form', () => {
    expect(rateLimitHeaders({ limit: 4, remaining: 1, resetSeconds: 30 })).toEqual({
      'ratelimit-policy': '4;w=86400',
      ratelimit: 'limit=4, remaining=1, reset=30',
    });
  });

  it('speaks for a read of several quotas by the most constrained: the fewest remaining, then the latest reset', () => {
    const details = { limit: 4, remaining: 2, resetSeconds: 600 };
    const balances = { limit: 4, remaining: 1, resetSeconds: 300 };
    const otherAccount = { limit: 4, remaining: 1, resetSeconds: 900 };
    expect(mostConstrained([details])).toBe(details);
    expect(mostConstrained([details, balances])).toBe(balances);
    expect(mostConstrained([details, balances, otherAccount])).toBe(otherAccount);
    expect(mostConstrained([otherAccount, balances, details])).toBe(otherAccount);
  });
});
