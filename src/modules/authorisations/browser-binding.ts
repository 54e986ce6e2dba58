import { createHash, randomBytes } from 'node:crypto';
import { sameSecret } from '../../security/same-secret.js';
import type { Db } from '../../db/create-db.js';
import { scaBrowserSessionRepository } from './sca-browser-session.repository.js';

/** What a browser sends with a page request: its session cookie's value, if any. */
export interface BrowserAccess {
  readonly session: string | undefined;
}

/** A form post: the session cookie and the form's CSRF token. */
export interface FormAccess extends BrowserAccess {
  readonly csrf: string;
}

/** A browser opening an authorisation's page: its CSRF token (and a new session to set), or bound elsewhere. */
export type BrowserEntry = { readonly bound: true; readonly csrf: string; readonly newSession?: string } | { readonly bound: false };

/**
 * An authorisation's pages belong to the first browser that opens its link: that browser gets a
 * random session (its cookie; only the SHA-256 is stored) and a CSRF token of its own. Any other
 * browser, or the same one without its cookie, is told the authorisation is in progress elsewhere.
 */
export function createBrowserBinding(db: Db, now: () => Date) {
  return {
    /** A GET of the pages: binds the authorisation to this browser unless one is bound already. */
    async enter(authorisationId: string, access: BrowserAccess): Promise<BrowserEntry> {
      const found = await scaBrowserSessionRepository.find(db, authorisationId);
      if (found) return sameSession(found.sessionHash, access.session) ? { bound: true, csrf: found.csrfToken } : { bound: false };
      // A cookie sent before the binding is not taken over: a session always starts fresh here.
      const session = randomBytes(32).toString('base64url');
      const csrf = randomBytes(24).toString('base64url');
      const bound = await scaBrowserSessionRepository.bind(db, {
        authorisationId,
        sessionHash: sha256Hex(session),
        csrfToken: csrf,
        createdAt: now().toISOString(),
      });
      // Another browser opened the link at the same moment and was bound first.
      return bound ? { bound: true, csrf, newSession: session } : { bound: false };
    },

    /** A GET that changes state without a form (the return from the bank's IdP): whether this browser owns the pages. */
    async owns(authorisationId: string, access: BrowserAccess): Promise<boolean> {
      const found = await scaBrowserSessionRepository.find(db, authorisationId);
      return found !== undefined && sameSession(found.sessionHash, access.session);
    },

    /**
     * A form post: `elsewhere` without the bound browser's cookie, `csrf` when its form token is not
     * that browser's (or no browser opened the pages yet), else `ok`.
     */
    async check(authorisationId: string, access: FormAccess): Promise<'ok' | 'elsewhere' | 'csrf'> {
      const found = await scaBrowserSessionRepository.find(db, authorisationId);
      if (!found) return 'csrf';
      if (!sameSession(found.sessionHash, access.session)) return 'elsewhere';
      return sameSecret(found.csrfToken, access.csrf) ? 'ok' : 'csrf';
    },
  };
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function sameSession(storedHash: string, session: string | undefined): boolean {
  return session !== undefined && sameSecret(storedHash, sha256Hex(session));
}
