import { isIP } from 'node:net';

/** The longest TPP-Notification-URI kept; a longer one is not a URI the server sends to. */
const MAX_LENGTH = 2048;

/** Loopback hosts: plain http to them never leaves the machine (sandbox mode only). */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '127.0.0.1' || hostname === '[::1]';
}

export interface NotificationUriRules {
  /** Sandbox mode: http is allowed to a loopback host, so a developer's machine (and a test) can receive. */
  readonly allowLoopbackHttp: boolean;
}

export type NotificationUriCheck =
  { readonly ok: true; readonly uri: string; readonly host: string } | { readonly ok: false; readonly problem: string };

/**
 * Whether the server would send notifications to this URI at all: an absolute https URI with a
 * host, no user:password and no fragment (http only to a loopback host, in sandbox mode). Whose
 * host it is, is {@link hostCoveredBy}'s question.
 */
export function checkNotificationUri(value: string, rules: NotificationUriRules): NotificationUriCheck {
  if (value.length > MAX_LENGTH || /[^\x21-\x7e]/.test(value) || value.includes('#') || value.includes('\\')) {
    return { ok: false, problem: 'not a URI the bank sends to' };
  }
  if (!/^https?:\/\/[^/?#]/i.test(value) || !URL.canParse(value)) {
    return { ok: false, problem: 'not an absolute http(s) URI with a host' };
  }
  const url = new URL(value);
  if (url.username !== '' || url.password !== '') return { ok: false, problem: 'has a user name or password' };
  const host = url.hostname.toLowerCase();
  if (url.protocol === 'http:' && !(rules.allowLoopbackHttp && isLoopback(host))) {
    return { ok: false, problem: 'must use https' };
  }
  return { ok: true, uri: value, host: host.replace(/^\[(.*)\]$/, '$1') };
}

/**
 * Whether a host lies in one of the TPP's domains (the Berlin Group rule for TPP-Notification-URI:
 * the domain its certificate secures, CN or subjectAltName): the domain itself or a name under it
 * (`example-tpp.com` covers `www.example-tpp.com` and `notifications.example-tpp.com`); a wildcard
 * entry `*.example-tpp.com` covers the names under it. An IP address matches only itself.
 */
export function hostCoveredBy(host: string, domains: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return domains.some((entry) => {
    const domain = entry.trim().toLowerCase().replace(/\.$/, '');
    if (domain === '') return false;
    if (isIP(name) !== 0 || isIP(domain) !== 0) return name === domain;
    if (domain.startsWith('*.')) return name.endsWith(domain.slice(1)) && name.length > domain.length - 1;
    return name === domain || name.endsWith(`.${domain}`);
  });
}
