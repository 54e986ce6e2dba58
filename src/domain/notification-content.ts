import { fail, localized, pass, type Check } from './localized.js';

/**
 * The constants of the Berlin Group notification content (TPP-Notification-Content-Preferred,
 * ASPSP-Notification-Content): SCA, every scaStatus change of the resource's authorisations;
 * PROCESS, every change of its transactionStatus or consentStatus; LAST, only its final one.
 */
export const NOTIFICATION_CONTENTS = ['SCA', 'PROCESS', 'LAST'] as const;
export type NotificationContent = (typeof NOTIFICATION_CONTENTS)[number];

/** What this server sends when asked: every constant the standard defines. */
export const SUPPORTED_NOTIFICATION_CONTENT: readonly NotificationContent[] = NOTIFICATION_CONTENTS;

const MAX_LENGTH = 100;

/**
 * Reads `status=X1, …, Xn` (each Xi one of SCA, PROCESS, LAST). Spaces around the parts and the
 * case of the letters are forgiven, as TPPs write both; a constant named twice counts once. Anything
 * else (another key, an unknown constant, an empty list) is refused.
 */
export function checkNotificationContent(value: string): Check<readonly NotificationContent[]> {
  const refusal = fail(
    localized(
      'must have the form status=X1,…,Xn with each X one of SCA, PROCESS, LAST, e.g. status=SCA,LAST',
      'må ha formen status=X1,…,Xn der hver X er én av SCA, PROCESS, LAST, for eksempel status=SCA,LAST',
    ),
  );
  if (value.length > MAX_LENGTH) return refusal;
  const match = /^\s*status\s*=(.*)$/i.exec(value);
  if (!match) return refusal;
  const parts = (match[1] ?? '').split(',').map((part) => part.trim().toUpperCase());
  const contents: NotificationContent[] = [];
  for (const part of parts) {
    if (!(NOTIFICATION_CONTENTS as readonly string[]).includes(part)) return refusal;
    if (!contents.includes(part as NotificationContent)) contents.push(part as NotificationContent);
  }
  return pass(NOTIFICATION_CONTENTS.filter((content) => contents.includes(content)));
}

/** `status=SCA,PROCESS,LAST`: the header value naming these constants, in the standard's order. */
export function formatNotificationContent(contents: readonly NotificationContent[]): string {
  return `status=${NOTIFICATION_CONTENTS.filter((content) => contents.includes(content)).join(',')}`;
}
