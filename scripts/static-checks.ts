import { spawn } from 'node:child_process';

/**
 * The checks `npm test` runs before the tests: formatting, lint and types, side by side. Each is a
 * single-threaded process, so on a machine of two cores or more running them together takes about
 * as long as the lint alone. Each one's output is printed whole when it ends; the exit code is 1
 * when any failed.
 */
const CHECKS: readonly { name: string; script: string }[] = [
  { name: 'format', script: 'format:check' },
  { name: 'lint', script: 'lint' },
  { name: 'types', script: 'typecheck' },
];

function run(name: string, script: string): Promise<boolean> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    let ended = false;
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      finish(false);
    });
    child.on('close', (code) => finish(code === 0));
    function finish(passed: boolean): void {
      if (ended) return;
      ended = true;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`${passed ? 'passed' : 'FAILED'}: ${name} (npm run ${script}, ${seconds} s)\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(passed);
    }
  });
}

const results = await Promise.all(CHECKS.map(({ name, script }) => run(name, script)));
process.exitCode = results.every(Boolean) ? 0 : 1;
