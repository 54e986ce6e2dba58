import { fail, localized, pass, type Check } from '../../domain/localized.js';

/** Checks a boolean header such as TPP-Redirect-Preferred: `true` or `false`, in any case. */
export function checkBooleanHeader(value: string): Check<boolean> {
  const lower = value.toLowerCase();
  if (lower === 'true') return pass(true);
  if (lower === 'false') return pass(false);
  return fail(localized('must be "true" or "false"', 'må være "true" eller "false"'));
}
