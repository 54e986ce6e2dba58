/**
 * The bank's seal is opened while the server is built, and a seal that cannot be opened stops the
 * start as the server gets ready: with the error's own words, and without an unhandled rejection
 * in between (src/modules/notifications/notifications.module.ts). Also: a first start creates the
 * sandbox CA and the seal in the data directory, both kept for the next start.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { openBankSeal } from '../../src/modules/notifications/bank-seal.js';
import { openServer } from '../../src/server.js';

describe('the bank seal at the server start', () => {
  let dir: string;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'xs2a-seal-start-'));
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(() => {
    unhandled.length = 0;
  });
  afterAll(() => {
    process.off('unhandledRejection', onUnhandled);
    rmSync(dir, { recursive: true, force: true });
  });

  const configFor = (dataDir: string, env: Record<string, string> = {}) =>
    loadConfig({ XS2A_DATA_DIR: dataDir, LOG_LEVEL: 'silent', XS2A_BATCH_SCHEDULE: 'false', ...env });

  it('refuses to get ready with a seal key that is not its certificate’s, and leaves no rejection unhandled', async () => {
    const [a, b] = [join(dir, 'a'), join(dir, 'b')];
    await openBankSeal({ keyFile: undefined, certificateFile: undefined, dataDir: a, bankName: 'Test Bank' });
    await openBankSeal({ keyFile: undefined, certificateFile: undefined, dataDir: b, bankName: 'Test Bank' });
    const server = await openServer(
      configFor(join(dir, 'mismatched'), {
        XS2A_NOTIFICATION_SEAL_KEY_FILE: join(b, 'notification-seal', 'seal-private-key.pem'),
        XS2A_NOTIFICATION_SEAL_CERTIFICATE_FILE: join(a, 'notification-seal', 'seal-certificate.pem'),
      }),
    );
    try {
      // The seal's failure is known long before the server is asked to get ready.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await expect(server.app.ready()).rejects.toThrow(/does not belong to its certificate/);
      expect(unhandled).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('creates the sandbox CA and the seal on a first start and keeps both for the next one', async () => {
    const dataDir = join(dir, 'fresh');
    const first = await openServer(configFor(dataDir));
    await first.app.ready();
    const seal = (await first.app.inject({ method: 'GET', url: '/notification-seal-certificate' })).body;
    const caPem = first.sandboxCa?.trustAnchor().toString();
    await first.close();
    expect(readFileSync(join(dataDir, 'notification-seal', 'seal-certificate.pem'), 'utf8').length).toBeGreaterThan(0);

    const second = await openServer(configFor(dataDir));
    try {
      await second.app.ready();
      expect((await second.app.inject({ method: 'GET', url: '/notification-seal-certificate' })).body).toBe(seal);
      expect(second.sandboxCa?.trustAnchor().toString()).toBe(caPem);
      expect(unhandled).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
