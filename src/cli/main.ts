#!/usr/bin/env node
import { ConfigError, loadConfig } from '../config/load-config.js';
import { migrateCommand } from './migrate.command.js';
import { psuScaCommand } from './psu.commands.js';
import { serveCommand } from './serve.command.js';
import { tppCallCommand, tppInitCommand } from './tpp.commands.js';
import { UsageError } from './usage-error.js';

const USAGE = `nordic-xs2a: a Berlin Group NextGenPSD2 server with a Norwegian-bank sandbox

Usage:
  nordic-xs2a serve [--workers N]         start the server (configuration: environment, see README); with
                                          --workers N (1 to 64, default 1) N processes share the port
  nordic-xs2a migrate                     apply pending database migrations and exit
  nordic-xs2a tpp init --org PSDNO-FSA-123456789 --name "Example TPP AS" --roles PSP_PI,PSP_AI --out DIR [--server URL [--rotate-with DIR]]
                                          make a key and a sandbox QSealC for a TPP (from the local sandbox CA,
                                          or from a running sandbox with --server; an id taken there moves to the new
                                          key only with --rotate-with DIR, its current credentials)
  nordic-xs2a tpp call METHOD PATH [--body FILE|-] [--header "Name: value"]... [--tpp DIR] [--server URL]
                                          sign a request with the TPP's QSealC, send it and print the answer
  nordic-xs2a psu sca URL [--psu-id ID] [--code CODE]... [--reject] [--app] [--lang nb|en]
                                          play the PSU on the SCA redirect pages of URL (a scaRedirect link) with
                                          plain form posts: identify, one-time code (sandbox: 123456), approve or reject
  nordic-xs2a help                        this text
`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return serveCommand(rest);
    case 'migrate':
      return migrateCommand(loadConfig());
    case 'tpp': {
      const [sub, ...args] = rest;
      if (sub === 'init') return tppInitCommand(args);
      if (sub === 'call') return tppCallCommand(args);
      throw new UsageError(`unknown tpp command "${sub ?? ''}"`);
    }
    case 'psu': {
      const [sub, ...args] = rest;
      if (sub === 'sca') return psuScaCommand(args);
      throw new UsageError(`unknown psu command "${sub ?? ''}"`);
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return 0;
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/** node:util parseArgs refuses an unknown option or a missing value with ERR_PARSE_ARGS_* codes. */
function isArgumentError(error: unknown): error is Error {
  return error instanceof TypeError && String((error as NodeJS.ErrnoException).code ?? '').startsWith('ERR_PARSE_ARGS_');
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
    } else if (error instanceof UsageError || isArgumentError(error)) {
      process.stderr.write(`nordic-xs2a: ${error.message}\n\n${USAGE}`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`nordic-xs2a: ${(error as Error).message ?? String(error)}\n`);
      process.exitCode = 1;
    }
  },
);
