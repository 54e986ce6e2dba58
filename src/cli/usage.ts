/**
 * The usage text of each command, printed by `--help` (exit 0) and after a command line that
 * cannot be run (exit 2). The full text is every command's, in this order.
 */
export const COMMAND_USAGE = {
  serve: `  nordic-xs2a serve [--workers N]         start the server (configuration: environment, see README); with
                                          --workers N (1 to 64, default 1) N processes share the port`,
  migrate: `  nordic-xs2a migrate                     apply pending database migrations and exit`,
  'tpp init': `  nordic-xs2a tpp init --org PSDNO-FSA-123456789 --name "Example TPP AS" --roles PSP_PI,PSP_AI --out DIR [--domains HOST,…] [--server URL [--rotate-with DIR]]
                                          make a key and a sandbox QSealC for a TPP (from the local sandbox CA,
                                          or from a running sandbox with --server; an id taken there moves to the new
                                          key only with --rotate-with DIR, its current credentials)`,
  'tpp call': `  nordic-xs2a tpp call METHOD PATH|HREF [--body FILE|-] [--header "Name: value"]... [--tpp DIR] [--server URL]
                       [--print MEMBER]... [--expect STATUS]
                                          sign a request with the TPP's QSealC, send it and print the answer; PATH is
                                          /v1/…, HREF a link from _links as printed (http://host:port/v1/…);
                                          --print MEMBER prints only that member of the JSON answer, one line each
                                          (dots between names: _links.scaRedirect.href); exit 1 on an error answer,
                                          unless it has the --expect status`,
  'tpp consent': `  nordic-xs2a tpp consent --psu-id ID [--bban BBAN]... [--all-accounts] [--valid-until YYYY-MM-DD]
                       [--frequency N] [--redirect-uri URI] [--tpp DIR] [--server URL]
                                          ask for an account information consent (the named accounts; none: the PSU
                                          picks them on the bank's page) and print its consentId and scaRedirect link`,
  'tpp transactions': `  nordic-xs2a tpp transactions ACCOUNT-ID --consent ID [--card] [--booking-status booked|pending|both|information]
                       [--date-from YYYY-MM-DD] [--date-to YYYY-MM-DD] [--json] [--tpp DIR] [--server URL]
                                          every transaction of an account (a card account with --card) under the
                                          consent, all pages: a statement table, or the entries as JSON`,
  'psu sca': `  nordic-xs2a psu sca URL [--psu-id ID] [--code CODE]... [--reject] [--app] [--lang nb|en]
                                          play the PSU on the SCA redirect pages of URL (a scaRedirect link) with
                                          plain form posts: identify, one-time code (sandbox: 123456), approve or reject;
                                          --psu-id is needed when the TPP sent no PSU-ID`,
  help: `  nordic-xs2a help                        this text; nordic-xs2a COMMAND --help: that command's`,
} as const;

export type CommandName = keyof typeof COMMAND_USAGE;

const HEADING = 'nordic-xs2a: a Berlin Group NextGenPSD2 server with a Norwegian-bank sandbox\n\nUsage:\n';

/** The usage of the named commands (all of them when none is named). */
export function usageOf(...commands: readonly CommandName[]): string {
  const named = commands.length > 0 ? commands : (Object.keys(COMMAND_USAGE) as CommandName[]);
  return `${HEADING}${named.map((command) => COMMAND_USAGE[command]).join('\n')}\n`;
}
