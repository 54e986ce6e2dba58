import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { SigningCredentials } from '../client/request-signer.js';
import { CREDENTIAL_FILES, readCredentials } from '../client/tpp-credentials.js';
import { UsageError } from './usage-error.js';
import type { CommandName } from './usage.js';

/**
 * The arguments of `command`, parsed the one way every command parses them: strictly, so an
 * unknown option, a missing value or a stray argument is a usage error naming it, printed with
 * that command's usage (exit 2), never ignored.
 */
export function parseCommandArgs<T extends Omit<ParseArgsConfig, 'args' | 'strict' | 'tokens'>>(
  command: CommandName,
  args: readonly string[],
  config: T,
): ReturnType<typeof parseArgs<T & { args: string[]; strict: true }>> {
  try {
    return parseArgs({ ...config, args: [...args], strict: true as const });
  } catch (error) {
    const code = String((error as NodeJS.ErrnoException).code ?? '');
    if (!code.startsWith('ERR_PARSE_ARGS_')) throw error;
    throw new UsageError(`${command}: ${argumentProblem(code, (error as Error).message)}`, { commands: [command] });
  }
}

/** node:util's text for what is wrong, in the CLI's words for the common cases, on one line. */
function argumentProblem(code: string, message: string): string {
  const option = /'(-[^' ]*)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option !== undefined) return `unknown option ${option}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option !== undefined && message.includes('argument missing')) {
    return `${option} needs a value`;
  }
  const argument = /^Unexpected argument '(.*)'\./.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' && argument !== undefined) return `takes no argument "${argument}"`;
  return message.replace(/\s*\n\s*/g, ' ');
}

/** Whether a text is an absolute http(s) URL. */
export function isHttpUrl(value: string): boolean {
  return /^https?:\/\//i.test(value) && URL.canParse(value);
}

/** An option's value that must be an http(s) URL (a server, a link): a usage error naming the option otherwise. */
export function httpUrl(command: CommandName, option: string, value: string): string {
  if (!isHttpUrl(value)) {
    throw new UsageError(`${option} takes an http(s) URL such as http://127.0.0.1:8080, not "${value}"`, { commands: [command] });
  }
  return value;
}

/**
 * The credentials `tpp init --out DIR` wrote, from the directory `option` names. A directory
 * without them is a TPP not set up yet (or the wrong directory): saying so helps more than the
 * file system's ENOENT.
 */
export function credentialsIn(option: '--tpp' | '--rotate-with', dir: string): SigningCredentials {
  const missing = Object.values(CREDENTIAL_FILES).filter((file) => !existsSync(join(dir, file)));
  if (missing.length > 0) {
    const remedy =
      option === '--tpp'
        ? `run nordic-xs2a tpp init --out ${dir} first, or give --tpp the directory tpp init wrote`
        : `give --rotate-with the directory tpp init wrote the current credentials to`;
    throw new Error(`${option} ${dir} holds no TPP credentials (no ${missing.join(', ')}): ${remedy}`);
  }
  return readCredentials(dir);
}
