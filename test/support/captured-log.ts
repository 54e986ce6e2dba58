import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';

/** A log line as pino writes it. */
export interface LogLine {
  readonly level: number;
  readonly msg?: string;
  readonly err?: { readonly type?: string; readonly message?: string; readonly stack?: string };
  readonly [field: string]: unknown;
}

/** pino's level of `error`: what an operator is paged for. */
export const ERROR_LEVEL = 50;

/** A server log kept in memory, for tests of what the server logs (startTestServer's `logger`). */
export function capturedLog(): { readonly logger: FastifyBaseLogger; readonly lines: () => readonly LogLine[] } {
  const lines: LogLine[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  return { logger, lines: () => lines };
}
