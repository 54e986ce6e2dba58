/**
 * A module's repeating job (src/repeating-job.ts): its start runs as the server gets ready, before
 * any run, and a failed start stops the server's start; it runs while the server is ready, one run
 * at a time, goes on after a failed run (which it logs), and on close starts no new run and waits
 * for the one under way.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { installRepeatingJob } from '../../src/repeating-job.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `condition` holds (polled every few ms), failing after 5 s: timers run late on a busy machine. */
async function eventually(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('the condition did not come true within 5 s');
    await sleep(5);
  }
}

describe('a repeating job', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('runs again and again once the server is ready, never before', async () => {
    app = Fastify();
    let runs = 0;
    installRepeatingJob(app, { name: 'counting', intervalMs: 5, run: async () => void runs++ });
    await sleep(30);
    expect(runs).toBe(0);
    await app.ready();
    await eventually(() => runs >= 3);
  });

  it('starts before its first run, as the server gets ready; a start that fails stops the server from starting', async () => {
    app = Fastify();
    const order: string[] = [];
    installRepeatingJob(app, {
      name: 'prepared',
      intervalMs: 5,
      start: async () => {
        await sleep(20);
        order.push('start');
      },
      run: async () => void order.push('run'),
    });
    await app.ready();
    await eventually(() => order.length > 2);
    expect(order[0]).toBe('start');
    expect(order.filter((step) => step === 'start')).toHaveLength(1);

    const failing = Fastify();
    installRepeatingJob(failing, {
      name: 'unprepared',
      intervalMs: 5,
      start: () => Promise.reject(new Error('no key')),
      run: async () => {},
    });
    await expect(failing.ready()).rejects.toThrow('no key');
    await failing.close();
  });

  it('runs one at a time: a run still going when the next is due skips that turn', async () => {
    app = Fastify();
    let running = 0;
    let most = 0;
    let runs = 0;
    installRepeatingJob(app, {
      name: 'slow',
      intervalMs: 2,
      run: async () => {
        running++;
        most = Math.max(most, running);
        await sleep(15);
        running--;
        runs++;
      },
    });
    await app.ready();
    await eventually(() => runs >= 3);
    expect(most).toBe(1);
  });

  it('logs a failed run by its name and runs again', async () => {
    const logged: string[] = [];
    app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => void logged.push(line) } } });
    let runs = 0;
    installRepeatingJob(app, {
      name: 'failing sweep',
      intervalMs: 5,
      // The first run throws at once, the later ones fail as a rejected promise: both are logged.
      run: () => {
        runs++;
        if (runs === 1) throw new Error('database gone at once');
        return Promise.reject(new Error('database gone'));
      },
    });
    await app.ready();
    await eventually(() => runs >= 3);
    expect(logged.some((line) => line.includes('failing sweep failed') && line.includes('database gone at once'))).toBe(true);
    expect(logged.some((line) => line.includes('failing sweep failed') && line.includes('"database gone"'))).toBe(true);
  });

  it('on close starts no new run, and waits for the one under way', async () => {
    app = Fastify();
    let started = 0;
    let finished = 0;
    installRepeatingJob(app, {
      name: 'closing',
      intervalMs: 5,
      run: async () => {
        started++;
        await sleep(40);
        finished++;
      },
    });
    await app.ready();
    while (started === 0) await sleep(2);
    await app.close();
    app = undefined;
    expect(finished).toBe(started);
    await sleep(30);
    expect(started).toBe(finished);
  });
});
