/**
 * The PSU page's stored state (src/modules/psu-overview/psu-overview.service.ts), on each dialect
 * of DIALECTS: the sweep deletes the visits that ended and the sandbox links that expired, and
 * keeps the ones still live; a link issued is in the audit log with the request that asked for
 * it, by its hash, never its secret.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PsuAuthenticator } from '../../src/bank/psu-authenticator.port.js';
import { createPsuOverviewService, LOGIN_MINUTES, PAGE_LINK_HOURS } from '../../src/modules/psu-overview/psu-overview.service.js';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../support/databases.js';

const TPP = 'PSDNO-FSA-123456789';
const START = Date.parse('2026-11-26T08:00:00.000Z');
const MINUTE = 60_000;

describe.each(DIALECTS)('the PSU page sweep (%s)', (dialect) => {
  let database: TestDatabase;
  let clock = START;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database?.dispose());

  const service = () =>
    createPsuOverviewService(
      {
        db: database.db,
        now: () => new Date(clock),
        // The sweep and the links use none of these.
        authenticator: { kind: 'in-page-code' } as unknown as PsuAuthenticator,
        coreBanking: {} as never,
        consents: {} as never,
        payments: {} as never,
        tpps: {} as never,
      },
      { publicUrl: 'https://bank.example', sandbox: true, codeLock: { attempts: 5, windowMinutes: 15, lockMinutes: 15 } },
    );
  const counts = async () => ({
    visits: (await database.db.selectFrom('psu_overview_session').select('id').execute()).length,
    links: (await database.db.selectFrom('psu_page_link').select('token_hash').execute()).length,
  });

  it('deletes the visits that ended and the links that expired, and keeps the live ones', async () => {
    const overview = service();
    clock = START;
    const link = await overview.issuePageLink({ tppId: TPP, requestId: 'req-link-1' });
    const token = new URL(link.href).searchParams.get('access')!;
    expect(await overview.openLink(undefined, token)).toBeDefined();
    expect(await counts()).toEqual({ visits: 1, links: 1 });

    // Both still live: nothing goes.
    clock = START + (LOGIN_MINUTES - 1) * MINUTE;
    await overview.purgeEnded();
    expect(await counts()).toEqual({ visits: 1, links: 1 });

    // The visit has ended, the link still works.
    clock = START + (LOGIN_MINUTES + 1) * MINUTE;
    await overview.purgeEnded();
    expect(await counts()).toEqual({ visits: 0, links: 1 });

    // The link has expired too.
    clock = START + PAGE_LINK_HOURS * 60 * MINUTE + MINUTE;
    await overview.purgeEnded();
    expect(await counts()).toEqual({ visits: 0, links: 0 });
  });

  it("records a link issued in the audit log: the TPP, its request, the link's hash and expiry, never the secret", async () => {
    clock = START;
    const link = await service().issuePageLink({ tppId: TPP, requestId: 'req-link-2' });
    const token = new URL(link.href).searchParams.get('access')!;
    const events = await database.db
      .selectFrom('audit_event')
      .select(['actor_type', 'actor_id', 'request_id', 'action', 'resource_type', 'resource_id', 'details'])
      .where('request_id', '=', 'req-link-2')
      .execute();
    expect(events).toHaveLength(1);
    const event = events[0]!;
    expect(event).toMatchObject({
      actor_type: 'tpp',
      actor_id: TPP,
      action: 'psu-page-link.issued',
      resource_type: 'psu-page-link',
      resource_id: createHash('sha256').update(token).digest('hex'),
    });
    expect(JSON.parse(String(event.details))).toEqual({ expiresAt: link.expiresAt });
    expect(JSON.stringify(await database.db.selectFrom('audit_event').selectAll().execute())).not.toContain(token);
  });
});
