/** What the CLI needs of an answer to report it. */
export interface AnswerLike {
  readonly status: number;
  readonly body: unknown;
  readonly text: string;
}

/**
 * An error answer as the CLI reports it, one line per Berlin Group tppMessage: the status, the
 * code, where (`at PSU-ID`, `at creditorAccount.iban`: the message's path, when it has one) and the
 * text. `HTTP 400 FORMAT_ERROR at PSU-ID: The request is not well formed: must be 11 digits, got 3`.
 * A body without tppMessages gives one line from its code and message, or from the raw text.
 */
export function errorLines(response: AnswerLike): string[] {
  const body = (typeof response.body === 'object' && response.body !== null ? response.body : {}) as {
    code?: unknown;
    message?: unknown;
    tppMessages?: unknown;
  };
  const messages = Array.isArray(body.tppMessages)
    ? body.tppMessages.filter((message): message is Record<string, unknown> => typeof message === 'object' && message !== null)
    : [];
  if (messages.length > 0) {
    return messages.map((message) =>
      line(response.status, textOf(message['code']) ?? textOf(body.code), textOf(message['path']), textOf(message['text'])),
    );
  }
  const said = textOf(body.message) ?? (response.text.replace(/\s+/g, ' ').trim().slice(0, 200) || undefined);
  return [line(response.status, textOf(body.code), undefined, said)];
}

function line(status: number, code: string | undefined, path: string | undefined, text: string | undefined): string {
  return `HTTP ${status}${code ? ` ${code}` : ''}${path ? ` at ${path}` : ''}${text ? `: ${text}` : ''}`;
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Reports an error answer on stderr, every line prefixed as the CLI's errors are; returns exit code 1. */
export function reportErrorAnswer(response: AnswerLike, suffix = ''): number {
  for (const said of errorLines(response)) process.stderr.write(`nordic-xs2a: ${said}${suffix}\n`);
  return 1;
}
