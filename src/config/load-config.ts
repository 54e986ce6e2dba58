import { VARIABLES, type Config, type Variable } from './config.schema.js';

/** A configuration that cannot be used; `problems` holds one line per bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

/**
 * Reads the configuration once from an environment, checks every variable and the rules between
 * them, and returns it frozen. All problems are reported together, one line each, naming the
 * variable, so an operator can fix them in one go.
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>> = process.env): Config {
  const settled: Partial<Record<keyof Config, unknown>> = {};
  const problems: string[] = [];
  for (const variable of VARIABLES as readonly Variable<keyof Config>[]) {
    const given = env[variable.name];
    const text = given ?? (typeof variable.fallback === 'function' ? variable.fallback(settled as Partial<Config>) : variable.fallback);
    const result = variable.parse(text);
    if ('problem' in result) {
      problems.push(`${variable.name}=${JSON.stringify(given ?? '')}: ${result.problem}`);
    } else {
      settled[variable.key] = result.value;
    }
  }
  if (settled.mode === 'production' && settled.requireSignature === false) {
    problems.push('XS2A_REQUIRE_SIGNATURE=false: unsigned requests are allowed only in sandbox mode (XS2A_MODE=sandbox)');
  }
  if (settled.mode === 'production' && Array.isArray(settled.trustedCaFiles) && settled.trustedCaFiles.length === 0) {
    problems.push('XS2A_TRUSTED_CA_FILES="": production mode needs the PEM files of the QTSP CAs whose QSealCs it accepts');
  }
  // Production puts the server in front of a real bank: its adapter, never the sandbox's mock bank.
  if (settled.mode === 'production' && settled.bankAdapter === undefined) {
    problems.push(
      'XS2A_BANK_ADAPTER="": production mode needs the bank\'s adapter module, a file exporting createBankAdapter (docs/bank-adapter.md)',
    );
  }
  if (settled.mode === 'sandbox' && settled.bankAdapter !== undefined) {
    problems.push(
      `XS2A_BANK_ADAPTER=${JSON.stringify(settled.bankAdapter)}: a bank adapter is used in production mode only (XS2A_MODE=production); the sandbox is its own bank`,
    );
  }
  // A notification is signed with the bank's own seal; production has no generated one.
  if (
    settled.mode === 'production' &&
    settled.notifications === true &&
    (settled.notificationSealKeyFile === undefined || settled.notificationSealCertificateFile === undefined)
  ) {
    problems.push(
      "XS2A_NOTIFICATIONS=true: production mode signs notifications with the bank's seal: set XS2A_NOTIFICATION_SEAL_KEY_FILE and XS2A_NOTIFICATION_SEAL_CERTIFICATE_FILE",
    );
  }
  if (problems.length > 0) {
    throw new ConfigError(problems);
  }
  return Object.freeze(settled as Config);
}
