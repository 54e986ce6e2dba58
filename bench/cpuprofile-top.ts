/**
 * `npx tsx bench/cpuprofile-top.ts FILE.cpuprofile [N]`: the N (default 12) frames with the most
 * self time in a V8 CPU profile (what `node --cpu-prof` writes), summed by function and file, so a
 * profile of the server under load reads as a list without a browser (bench/README.md).
 *
 * Self time of a node = its samples × the mean sampling interval (the profile's duration / its
 * samples); nodes of the same function, file and line (called from different places) add up.
 * `(idle)` (the event loop waiting) is left out and shares are of the busy samples, so a profile
 * of a whole server life reads the same however long it sat idle.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
}

export interface FrameTime {
  /** `function (file:line)`, the file relative to the repository or to node_modules. */
  readonly frame: string;
  readonly selfMs: number;
  /** Share of the busy (not idle) samples, in %. */
  readonly selfPercent: number;
}

const IDLE = '(idle)';

/** Samples of the profile and how many of them were idle. */
export function sampleCounts(profile: CpuProfile): { total: number; idle: number } {
  const idleIds = new Set(profile.nodes.filter((node) => node.callFrame.functionName === IDLE).map((node) => node.id));
  return { total: profile.samples.length, idle: profile.samples.filter((id) => idleIds.has(id)).length };
}

const REPO = fileURLToPath(new URL('..', import.meta.url));

function shortFile(url: string): string {
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const inModules = path.lastIndexOf('node_modules/');
  if (inModules >= 0) return path.slice(inModules + 'node_modules/'.length);
  return path.startsWith(REPO) ? path.slice(REPO.length) : path;
}

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const name = functionName === '' ? '(anonymous)' : functionName;
  // V8's own entries ((garbage collector), (program), (idle)) have no file.
  return url === '' ? name : `${name} (${shortFile(url)}:${lineNumber + 1})`;
}

export function topSelfFrames(profile: CpuProfile, count: number): FrameTime[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const samplesById = new Map<number, number>();
  for (const id of profile.samples) samplesById.set(id, (samplesById.get(id) ?? 0) + 1);
  const msPerSample = profile.samples.length === 0 ? 0 : (profile.endTime - profile.startTime) / 1_000 / profile.samples.length;
  const { total, idle } = sampleCounts(profile);
  const busy = total - idle;
  const byFrame = new Map<string, number>();
  for (const [id, samples] of samplesById) {
    const node = byId.get(id);
    if (node === undefined) continue;
    const frame = frameName(node);
    if (frame === IDLE) continue;
    byFrame.set(frame, (byFrame.get(frame) ?? 0) + samples);
  }
  return [...byFrame]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([frame, samples]) => ({
      frame,
      selfMs: samples * msPerSample,
      selfPercent: busy === 0 ? 0 : (samples / busy) * 100,
    }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, countText] = process.argv.slice(2);
  if (file === undefined) {
    process.stderr.write('usage: npx tsx bench/cpuprofile-top.ts FILE.cpuprofile [N]\n');
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const seconds = (profile.endTime - profile.startTime) / 1e6;
  const { total, idle } = sampleCounts(profile);
  process.stdout.write(
    `${file}: ${total} samples over ${seconds.toFixed(1)} s, ${((idle / Math.max(total, 1)) * 100).toFixed(0)} % idle\n`,
  );
  process.stdout.write(' self ms  % busy  frame\n');
  for (const { frame, selfMs, selfPercent } of topSelfFrames(profile, Number(countText ?? 12))) {
    process.stdout.write(`${selfMs.toFixed(0).padStart(8)}  ${selfPercent.toFixed(1).padStart(5)}  ${frame}\n`);
  }
}
