import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LoadResult } from './load.js';

export interface ScenarioResult {
  readonly id: string;
  readonly label: string;
  readonly load: LoadResult;
  /** Peak RSS of the target process during warm-up and measured run. */
  readonly rssPeakMb: number | undefined;
  /** CPU cores the target process used on average during the measured run (1.0 = one core saturated). */
  readonly targetCpuCores: number | undefined;
  /** CPU cores the bench process (autocannon) used during the measured run. */
  readonly loadGeneratorCpuCores: number;
  /** CPU cores everything else on the machine used during the measured run: noise when well above 0. */
  readonly otherCpuCores: number | undefined;
  /** Exit code or signal when the target died during the scenario (a crash under load). */
  readonly targetExited: number | string | undefined;
}

export interface BudgetLine {
  readonly name: string;
  readonly figure: string;
  readonly budget: string;
  readonly met: boolean;
}

export interface BenchReport {
  readonly startedAt: string;
  readonly machine: {
    readonly cpus: number;
    readonly cpuModel: string;
    readonly node: string;
    readonly platform: string;
    /** 1-minute load average when the bench started. */
    readonly loadAverageAtStart: number;
  };
  readonly settings: {
    readonly connections: number;
    readonly warmupSeconds: number;
    readonly durationSeconds: number;
    readonly poolSize: number;
  };
  readonly server: { readonly logLevel: string; readonly logDestination: string; readonly logLines: number; readonly coldStartMs: number };
  readonly scenarios: readonly ScenarioResult[];
  /** Subject throughput as a share of the baseline's, in %. */
  readonly ratioPercent: number;
  readonly budgets: readonly BudgetLine[];
  /** Scenarios that got non-2xx answers or connection errors: their figures do not mean what they say. */
  readonly flagged: readonly string[];
}

/** docs/design.md §9's budgets that this bench can measure today, from the figures of one run. */
export function evaluateBudgets(
  baseline: ScenarioResult,
  subject: ScenarioResult,
  coldStartMs: number,
): { ratioPercent: number; budgets: BudgetLine[] } {
  const ratioPercent = (subject.load.requestsPerSecond / baseline.load.requestsPerSecond) * 100;
  const budgets: BudgetLine[] = [
    {
      name: `throughput (${subject.id}) / (${baseline.id})`,
      figure: `${ratioPercent.toFixed(1)} %`,
      budget: '>= 60 % of baseline',
      met: ratioPercent >= 60,
    },
    {
      name: `p99 latency (${subject.id}), 50 connections`,
      figure: `${fmtMs(subject.load.latencyMs.p99)} ms`,
      budget: '<= 15 ms',
      met: subject.load.latencyMs.p99 <= 15,
    },
    {
      name: 'cold start, fresh data dir (spawn -> ready)',
      figure: `${Math.round(coldStartMs)} ms`,
      budget: '< 1500 ms',
      met: coldStartMs < 1_500,
    },
    {
      name: `RSS peak under load (${subject.id})`,
      figure: subject.rssPeakMb === undefined ? 'n/a' : `${subject.rssPeakMb.toFixed(0)} MB`,
      budget: '< 250 MB',
      met: subject.rssPeakMb !== undefined && subject.rssPeakMb < 250,
    },
  ];
  return { ratioPercent, budgets };
}

export function flaggedScenarios(scenarios: readonly ScenarioResult[]): string[] {
  return scenarios
    .filter((s) => s.load.non2xx > 0 || s.load.errors > 0 || s.load.total === 0 || s.load.repeated > 0 || s.targetExited !== undefined)
    .map(
      (s) =>
        `(${s.id}) ${s.label}: ${s.load.non2xx} non-2xx, ${s.load.errors} errors (${s.load.timeouts} timeouts), statuses ${JSON.stringify(s.load.statusCodes)}` +
        (s.load.repeated > 0 ? `; ${s.load.repeated} requests were sent twice (the pool ran out)` : '') +
        (s.targetExited === undefined ? '' : `; the target process exited during the run (${s.targetExited})`),
    );
}

export function printReport(report: BenchReport): void {
  const { settings, server, machine } = report;
  const out: string[] = [];
  out.push('');
  out.push(
    `nordic-xs2a bench: ${machine.cpus} CPU (${machine.cpuModel}), Node ${machine.node}; ${settings.connections} connections, ` +
      `${settings.warmupSeconds} s warm-up (pool of ${settings.poolSize}) + ${settings.durationSeconds} s measured, every measured request distinct and pre-signed`,
  );
  out.push(`server: LOG_LEVEL=${server.logLevel}, logs to ${server.logDestination} (${server.logLines} lines written)`);
  out.push('');
  out.push(
    table(
      ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'avg ms', 'non-2xx', 'errors', 'RSS peak', 'target CPU', 'autocannon CPU', 'other CPU'],
      report.scenarios.map((s) => [
        `(${s.id}) ${s.label}`,
        Math.round(s.load.requestsPerSecond).toLocaleString('en-US'),
        fmtMs(s.load.latencyMs.p50),
        fmtMs(s.load.latencyMs.p99),
        s.load.latencyMs.average.toFixed(2),
        String(s.load.non2xx),
        String(s.load.errors),
        s.rssPeakMb === undefined ? 'n/a' : `${s.rssPeakMb.toFixed(0)} MB`,
        percent(s.targetCpuCores),
        percent(s.loadGeneratorCpuCores),
        percent(s.otherCpuCores),
      ]),
    ),
  );
  out.push('(CPU columns: share of one core during the measured run; 100 % = one core busy.)');
  const noisy = report.scenarios.filter((s) => (s.otherCpuCores ?? 0) > NOISY_OTHER_CPU);
  if (noisy.length > 0) {
    out.push(
      `NOTE: other processes used > ${percent(NOISY_OTHER_CPU)} of a core during ${noisy.map((s) => `(${s.id})`).join(', ')} ` +
        `(load average ${report.machine.loadAverageAtStart.toFixed(2)} at start): the figures are noisy, re-run on a quiet machine.`,
    );
  }
  out.push('');
  out.push(
    table(
      ['budget (docs/design.md §9)', 'figure', 'budget', 'verdict'],
      report.budgets.map((b) => [b.name, b.figure, b.budget, b.met ? 'met' : 'NOT MET']),
    ),
  );
  if (report.flagged.length > 0) {
    out.push('');
    out.push('!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!');
    out.push('!!! RUN FLAGGED: some responses were not 2xx or failed; the figures are not valid:');
    for (const line of report.flagged) out.push(`!!!   ${line}`);
    out.push('!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!');
  }
  out.push('');
  process.stdout.write(out.join('\n') + '\n');
}

export function writeJson(file: string, report: BenchReport & Record<string, unknown>): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
}

/** Above this much CPU used by other processes during a measured run, the run is called noisy. */
const NOISY_OTHER_CPU = 0.1;

function percent(cores: number | undefined): string {
  return cores === undefined ? 'n/a' : `${(cores * 100).toFixed(0)} %`;
}

/** autocannon's percentiles have 1 ms resolution; averages keep two decimals. */
function fmtMs(ms: number): string {
  return Number.isInteger(ms) ? String(ms) : ms.toFixed(2);
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  // First column left-aligned (names), the rest right-aligned (numbers).
  const line = (cells: readonly string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
