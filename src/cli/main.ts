#!/usr/bin/env node
import { ConfigError, loadConfig } from '../config/load-config.js';
import { UsageError } from './usage-error.js';
import { usageOf, type CommandName } from './usage.js';

/** `--help` or `-h` anywhere after a command asks for that command's usage instead of running it. */
function asksForHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

function printUsage(...commands: CommandName[]): number {
  process.stdout.write(usageOf(...commands));
  return 0;
}

/**
 * Runs one command, loading its module only then: `serve` loads the server alone, not the TPP
 * client and the PSU pages' driver the other commands use (it starts faster).
 */
async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return asksForHelp(rest) ? printUsage('serve') : (await import('./serve.command.js')).serveCommand(rest);
    case 'migrate':
      return asksForHelp(rest) ? printUsage('migrate') : (await import('./migrate.command.js')).migrateCommand(rest, loadConfig);
    case 'tpp': {
      const [sub, ...args] = rest;
      if (sub === 'init') return asksForHelp(args) ? printUsage('tpp init') : (await import('./tpp.commands.js')).tppInitCommand(args);
      if (sub === 'call') return asksForHelp(args) ? printUsage('tpp call') : (await import('./tpp.commands.js')).tppCallCommand(args);
      if (sub === 'consent') {
        return asksForHelp(args)
          ? printUsage('tpp consent')
          : (await import('./tpp-account-information.commands.js')).tppConsentCommand(args);
      }
      if (sub === 'transactions') {
        return asksForHelp(args)
          ? printUsage('tpp transactions')
          : (await import('./tpp-account-information.commands.js')).tppTransactionsCommand(args);
      }
      if (asksForHelp(rest)) return printUsage('tpp init', 'tpp call', 'tpp consent', 'tpp transactions');
      throw new UsageError(
        sub === undefined ? 'tpp needs a command: init, call, consent or transactions' : `unknown tpp command "${sub}"`,
        {
          commands: ['tpp init', 'tpp call', 'tpp consent', 'tpp transactions'],
        },
      );
    }
    case 'psu': {
      const [sub, ...args] = rest;
      if (sub === 'sca') return asksForHelp(args) ? printUsage('psu sca') : (await import('./psu.commands.js')).psuScaCommand(args);
      if (asksForHelp(rest)) return printUsage('psu sca');
      throw new UsageError(sub === undefined ? 'psu needs a command: sca' : `unknown psu command "${sub}"`, { commands: ['psu sca'] });
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      return printUsage();
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

// Output piped into a reader that stops early (`… | head -1`): the rest is not wanted, which is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof ConfigError) {
      for (const problem of error.problems) {
        process.stderr.write(`nordic-xs2a: configuration error: ${problem}\n`);
      }
      process.exitCode = 2;
    } else if (error instanceof UsageError && error.details.brief) {
      process.stderr.write(`nordic-xs2a: ${error.message}\n`);
      process.exitCode = 2;
    } else if (error instanceof UsageError) {
      // The usage of the command whose line it is (command-line.ts), every command's when none is named.
      const commands = error.details.commands ?? [];
      process.stderr.write(`nordic-xs2a: ${error.message}\n\n${usageOf(...commands)}`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`nordic-xs2a: ${(error as Error).message ?? String(error)}\n`);
      process.exitCode = 1;
    }
  },
);
