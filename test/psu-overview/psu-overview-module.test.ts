/**
 * The PSU page's module (src/modules/psu-overview/psu-overview.module.ts) sweeps ended visits and
 * expired links every minute while the server is ready, and stops with it.
 */
import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { psuOverviewModule } from '../../src/modules/psu-overview/psu-overview.module.js';
import type { PsuOverviewService } from '../../src/modules/psu-overview/psu-overview.service.js';

describe('the PSU page module', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs the sweep once a minute once the server is ready, and no more once it closed', async () => {
    // Only the job's interval is faked: Fastify's start and close run on real ticks.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let sweeps = 0;
    const overview = { purgeEnded: async () => void sweeps++ } as unknown as PsuOverviewService;
    const module = psuOverviewModule({ overview, bankName: 'Bank', sandbox: true, basePath: '/psu/consents', secureCookie: false });
    const app = Fastify();
    module.jobs!(app);
    await app.ready();
    await vi.advanceTimersByTimeAsync(59_000);
    expect(sweeps).toBe(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sweeps).toBe(1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sweeps).toBe(3);
    await app.close();
    await vi.advanceTimersByTimeAsync(180_000);
    expect(sweeps).toBe(3);
  });
});
