/**
 * A CPU profile of a window of the server's requests only: from the request numbered
 * BENCH_PROFILE_FROM (default 6000) for BENCH_PROFILE_REQUESTS requests (default 6000), written to
 * BENCH_PROFILE_DIR (default the temp dir) as `window.<pid>.cpuprofile`, with a line beside it
 * giving the window's wall time and the process's CPU per request. `--cpu-prof` covers the
 * server's whole life; this leaves out its start, the sandbox's seeding and the bench's data fill
 * (10 000 postings before (g) and (h)), so the shares are those of the load alone.
 *
 * Loaded into the server by the bench (bench/README.md):
 *   BENCH_SCENARIOS=g BENCH_SERVER_NODE_ARGS="--import tsx --import ./bench/profile-window.ts" npm run bench
 * The warm-up sends about 3 s of the scenario's rate first: choose the window past it, and short
 * enough to end inside the measured run (a window not reached writes nothing). The CPU figure
 * includes the profiler's own cost.
 */
import { writeFileSync } from 'node:fs';
import { Server } from 'node:http';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const from = Number(process.env.BENCH_PROFILE_FROM ?? 6000);
const requests = Number(process.env.BENCH_PROFILE_REQUESTS ?? 6000);
const dir = process.env.BENCH_PROFILE_DIR ?? tmpdir();
if (!Number.isInteger(from) || from < 1 || !Number.isInteger(requests) || requests < 1) {
  throw new Error('BENCH_PROFILE_FROM and BENCH_PROFILE_REQUESTS must be whole numbers of at least 1');
}
process.stderr.write(`[profile-window] profiling requests ${from} to ${from + requests - 1} into ${dir}\n`);

let seen = 0;
let window: { session: Session; startedAt: number; cpu: NodeJS.CpuUsage } | undefined;

// Every request reaches the server's 'request' event: counting there needs nothing from the app.
// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with each server as `this`
const emit = Server.prototype.emit;
Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
  if (event === 'request') {
    seen += 1;
    if (seen === from) window = start();
    else if (seen === from + requests && window) stop(window);
  }
  return Reflect.apply(emit, this, [event, ...args]) as boolean;
} as typeof emit;

function start(): NonNullable<typeof window> {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  // 200 µs between samples: a request costs a few hundred, so each is seen a few times.
  session.post('Profiler.setSamplingInterval', { interval: 200 });
  session.post('Profiler.start');
  return { session, startedAt: performance.now(), cpu: process.cpuUsage() };
}

function stop({ session, startedAt, cpu }: NonNullable<typeof window>): void {
  const wallMs = performance.now() - startedAt;
  const used = process.cpuUsage(cpu);
  session.post('Profiler.stop', (error, result) => {
    if (error) throw error;
    const file = join(dir, `window.${process.pid}.cpuprofile`);
    writeFileSync(file, JSON.stringify(result.profile));
    const cpuPerRequest = (used.user + used.system) / requests;
    writeFileSync(
      `${file}.txt`,
      `${requests} requests from number ${from}: ${wallMs.toFixed(0)} ms, ${cpuPerRequest.toFixed(0)} CPU µs per request (the process, all threads)\n`,
    );
    session.disconnect();
  });
}
