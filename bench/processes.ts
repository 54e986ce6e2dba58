import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A child process the bench started; every one is registered so it can be stopped on any exit path. */
export interface Child {
  readonly name: string;
  readonly pid: number;
  readonly process: ChildProcess;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  readonly exited: Promise<number | string>;
  /** Where stdout and stderr go. */
  readonly logFile: string;
}

const live = new Set<Child>();

/** Asks the kernel for a free port on 127.0.0.1 (the tiny race until the child binds it is acceptable here). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || !address) throw new Error('could not find a free port');
  return address.port;
}

/** Starts a process with its output going to a file, so a chatty logger never blocks on a pipe we do not drain. */
export function startChild(
  name: string,
  command: string,
  args: readonly string[],
  options: { readonly env: NodeJS.ProcessEnv; readonly cwd: string; readonly logFile: string },
): Child {
  const { env, cwd, logFile } = options;
  const fd = openSync(logFile, 'a');
  const child = spawn(command, args, { env, cwd, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`${name}: could not start ${command}`);
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  const handle: Child = { name, pid: child.pid, process: child, exited, logFile };
  live.add(handle);
  void exited.then(() => live.delete(handle));
  return handle;
}

/** The status of one GET, or undefined when nothing answers (yet). */
export function httpStatus(url: string, timeoutMs = 1_000): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'GET', agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(undefined));
    req.end();
  });
}

/**
 * Polls `url` until `ready(status)` holds. Polling every 5 ms keeps the cold-start figure within a
 * few ms of the truth; the child dying or the deadline passing ends the wait with an error.
 */
export async function waitForHttp(child: Child, url: string, ready: (status: number) => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let died: number | string | undefined;
  void child.exited.then((code) => (died = code));
  while (Date.now() < deadline) {
    if (died !== undefined) throw new Error(`${child.name} exited (${died}) before it was ready; see ${child.logFile}`);
    const status = await httpStatus(url, 500);
    if (status !== undefined && ready(status)) return;
    await sleep(5);
  }
  throw new Error(`${child.name} was not ready within ${timeoutMs} ms (${url}); see ${child.logFile}`);
}

/** SIGTERM (the servers shut down gracefully on it), then SIGKILL if it takes longer than `graceMs`. */
export async function stopChild(child: Child, graceMs = 5_000): Promise<void> {
  if (!live.has(child)) return;
  child.process.kill('SIGTERM');
  const timedOut = await Promise.race([child.exited.then(() => false), sleep(graceMs).then(() => true)]);
  if (timedOut) {
    child.process.kill('SIGKILL');
    await Promise.race([child.exited, sleep(1_000)]);
  }
}

export async function stopAllChildren(): Promise<void> {
  await Promise.all([...live].map((child) => stopChild(child)));
}

/** Last resort for `process.on('exit')`, where nothing asynchronous runs any more. */
export function killAllChildrenSync(): void {
  for (const child of live) {
    try {
      child.process.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}

/**
 * A process and all its descendants (Linux: /proc/<pid>/task/<tid>/children), so a server that
 * forks workers (`serve --workers 2`) or a CLI that starts a child (Prism) is measured whole.
 * Elsewhere: the process alone.
 */
export function processTree(pid: number): number[] {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    const parent = tree[i]!;
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${parent}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        const children = readFileSync(`/proc/${parent}/task/${task}/children`, 'utf8').trim();
        if (children !== '') tree.push(...children.split(/\s+/).map(Number));
      } catch {
        // the task ended meanwhile
      }
    }
  }
  return tree;
}

/** Summed RSS of a process and its descendants in kB (shared pages counted in each: an upper bound). */
export function treeRssKb(pid: number): number | undefined {
  const sizes = processTree(pid)
    .map(rssKb)
    .filter((kb) => kb !== undefined);
  return sizes.length === 0 ? undefined : sizes.reduce((sum, kb) => sum + kb, 0);
}

/** Resident set size in kB: /proc on Linux, `ps` elsewhere; undefined when the process is gone. */
export function rssKb(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (match) return Number(match[1]);
  } catch {
    // no /proc: fall through to ps
  }
  const ps = spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' });
  const kb = Number.parseInt(ps.stdout.trim(), 10);
  return Number.isFinite(kb) ? kb : undefined;
}

/** Samples the RSS of a process and its descendants at a fixed interval and keeps the peak. */
export function sampleRss(pid: number, intervalMs = 100): { stop(): number | undefined } {
  let peak: number | undefined;
  const take = () => {
    const kb = treeRssKb(pid);
    if (kb !== undefined && (peak === undefined || kb > peak)) peak = kb;
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return peak;
    },
  };
}

/**
 * User+system CPU seconds a process and its live descendants have used so far (Linux only;
 * undefined elsewhere). Sampled before and after a run, the difference is the run's server CPU.
 */
export function treeCpuSeconds(pid: number): number | undefined {
  const seconds = processTree(pid)
    .map(cpuSeconds)
    .filter((s) => s !== undefined);
  return seconds.length === 0 ? undefined : seconds.reduce((sum, s) => sum + s, 0);
}

/** User+system CPU seconds one process has used so far (Linux only; undefined elsewhere). */
export function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (comm) may hold spaces, so count fields from after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
    return ticks / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds all processes on the machine have spent busy since boot (Linux only). Compared with
 * the target's and the bench's own, it shows how much other work (tests, builds) shared the CPUs.
 */
export function machineBusySeconds(): number | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    // cpu user nice system idle iowait irq softirq steal ...: everything but idle and iowait is busy.
    const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

const CLOCK_TICKS = (() => {
  const result = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const value = Number.parseInt(result.stdout?.trim() ?? '', 10);
  return Number.isFinite(value) && value > 0 ? value : 100;
})();
