/**
 * `npx tsx bench/readme-table.ts [bench/results/latest.json]`: the README's performance tables in
 * Markdown, from a run's results file, so the figures in the README are the run's, copied by no
 * hand: the scenarios with req/s, the ratio to the baseline and CPU µs per request (`flagged`: some
 * answers not 2xx; `Noisy:` below the table names the scenarios other processes disturbed, as the
 * bench's NOTE does), the batch runs, and every budget with its verdict.
 */
import { readFileSync } from 'node:fs';
import type { BatchBenchResult } from './batch.js';
import { isFlagged, noiseNote, type BenchReport } from './report.js';

type Results = BenchReport & { readonly batchRuns: readonly BatchBenchResult[] };

const number = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function readmeTables(results: Results): string {
  const { machine, settings } = results;
  const baseline = results.scenarios.find((s) => s.budgetRole === 'baseline')?.load.requestsPerSecond;
  const out: string[] = [
    `Run of ${results.startedAt.slice(0, 16).replace('T', ' ')} UTC: ${machine.cpus} CPU (${machine.cpuModel}), Node ${machine.node}, ` +
      `${machine.platform}; ${settings.connections} connections, ${settings.warmupSeconds} s warm-up, ${settings.durationSeconds} s measured; ` +
      `load average ${machine.loadAverageAtStart.toFixed(1)} at the start.`,
    '',
    '| scenario | req/s | vs (a) | CPU µs/req | p50 ms | p99 ms | measured s | flagged |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const s of results.scenarios) {
    const flagged = isFlagged(s);
    out.push(
      `| (${s.id}) ${s.label.replace(/\|/g, '\\|')} | ${number(s.load.requestsPerSecond)} | ` +
        `${baseline === undefined ? 'n/a' : `${(s.load.requestsPerSecond / baseline).toFixed(2)}x`} | ` +
        `${s.cpuMicrosPerRequest === undefined ? 'n/a' : number(s.cpuMicrosPerRequest)} | ${s.load.latencyMs.p50} | ${s.load.latencyMs.p99} | ` +
        `${s.load.durationSeconds} | ${flagged ? `yes: ${JSON.stringify(s.load.statusCodes)}, ${s.load.errors} errors` : 'no'} |`,
    );
  }
  const noise = noiseNote(results);
  if (noise !== undefined) out.push('', `Noisy: ${noise}`);
  if (results.batchRuns.length > 0) {
    out.push('', '| batch run | payments | seconds | payments/s |', '|---|---:|---:|---:|');
    for (const run of results.batchRuns) {
      out.push(`| ${run.dialect} | ${number(run.payments)} | ${run.seconds.toFixed(1)} | ${number(run.paymentsPerSecond)} |`);
    }
  }
  out.push('', '| budget (docs/design.md §9) | figure | by CPU µs/req | budget | verdict |', '|---|---:|---:|---:|---|');
  for (const budget of results.budgets) {
    const verdict = budget.verdict === 'MISSED' ? '**MISSED**' : budget.verdict;
    out.push(`| ${budget.name} | ${budget.figure} | ${budget.byCpu ?? ''} | ${budget.budget} | ${verdict} |`);
  }
  return out.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2] ?? new URL('./results/latest.json', import.meta.url).pathname;
  process.stdout.write(readmeTables(JSON.parse(readFileSync(file, 'utf8')) as Results) + '\n');
}
