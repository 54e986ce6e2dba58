import { ERROR_CATALOGUE } from './error-catalogue.js';

/** docs/errors.md, rendered from the catalogue so the two never disagree (a test checks it). */
export function renderErrorDocs(): string {
  const rows = Object.entries(ERROR_CATALOGUE)
    .sort(([a, x], [b, y]) => x.status - y.status || a.localeCompare(b))
    .map(([code, entry]) => `| ${entry.status} | \`${entry.tppCode}\` | \`${code}\` | ${entry.text.en} | ${entry.text.nb} |`);
  return [
    '# Error codes',
    '',
    'Generated from `src/errors/error-catalogue.ts` by `npm run docs:errors`; do not edit by hand.',
    '',
    'Every error answer has the body `{id, system, status, code, message?, tppMessages}`:',
    '`code` and `tppMessages[].code` carry the wire code below, `message` and `tppMessages[].text`',
    'the text in the language chosen by `Accept-Language` (`nb`/`no`/`nn` for Bokmål, else English),',
    'followed by what exactly was wrong, and `tppMessages[].path` names the offending body field or',
    'header. A 500 carries no `message` and no detail; quote its `id` to the bank.',
    '',
    '| HTTP | code on the wire | internal code | text (en) | text (nb) |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
