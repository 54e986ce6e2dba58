import { randomBytes } from 'node:crypto';
import { withTransaction, type Db } from '../../db/create-db.js';
import { AppError } from '../../errors/app-error.js';
import type { RequestHeaders } from '../../http/headers/request-headers.js';
import type { TppIdentity } from '../../security/tpp-identity.js';
import { auditService } from '../audit/audit.service.js';
import { sha256, type AuthorisationService } from '../authorisations/authorisation.service.js';
import { psuTokenRepository } from './psu-token.repository.js';

export interface PsuAccessSettings {
  /** XS2A_PSU_TOKEN_LIFETIME_SECONDS */
  readonly tokenLifetimeSeconds: number;
}

export interface PsuAccessToken {
  readonly access_token: string;
  readonly token_type: 'Bearer';
  readonly expires_in: number;
}

export interface PsuAccessService {
  /**
   * The 401 an operation that needs a PSU answers when it has none (docs/design.md §2): it starts a PSU
   * login for the TPP and links it as `_links.scaRedirect`.
   */
  psuRequired(tpp: TppIdentity, headers: RequestHeaders): Promise<AppError>;
  /** `POST /v1/token`: a login's one-time code (once, within XS2A_PSU_LOGIN_CODE_SECONDS, same TPP) for a PSU access token. */
  exchange(tpp: TppIdentity, code: string, requestId: string | undefined): Promise<PsuAccessToken>;
  /** The PSU a bearer token identifies for this TPP; 401 TOKEN_INVALID or TOKEN_EXPIRED otherwise. */
  psuOfToken(tpp: TppIdentity, token: string): Promise<string>;
}

/**
 * The PSU pre-step: a PSU login runs the same identify and one-time-code pages as an
 * authorisation, then sends the PSU back to the TPP with a one-time code that the TPP exchanges
 * for a short-lived bearer token. Tokens are stored as their SHA-256 only.
 */
export function createPsuAccessService(
  db: Db,
  now: () => Date,
  authorisations: AuthorisationService,
  settings: PsuAccessSettings,
): PsuAccessService {
  return {
    async psuRequired(tpp, headers) {
      const login = await authorisations.create(db, {
        tpp,
        purpose: 'psu-login',
        psuCorporateId: headers.psuCorporateId,
        redirectUri: headers.tppRedirectUri,
        nokRedirectUri: headers.tppNokRedirectUri,
        biometric: headers.biometricAuthentication,
      });
      return new AppError('PSU_REQUIRED', { links: { scaRedirect: { href: authorisations.redirectLink(login) } } });
    },

    async exchange(tpp, code, requestId) {
      const redeemed = await authorisations.redeemLoginCode(tpp.id, code);
      if (!redeemed) throw new AppError('LOGIN_CODE_INVALID', { path: 'code' });
      const token = randomBytes(32).toString('base64url');
      const at = now();
      await withTransaction(db, async (trx) => {
        await psuTokenRepository.insert(
          trx,
          sha256(token),
          {
            tppId: tpp.id,
            psuId: redeemed.psuId,
            loginId: redeemed.loginId,
            expiresAt: new Date(at.getTime() + settings.tokenLifetimeSeconds * 1000).toISOString(),
          },
          at.toISOString(),
        );
        await auditService.append(
          trx,
          {
            actor: { type: 'tpp', id: tpp.id },
            requestId,
            action: 'psu-token.issued',
            resource: { type: 'authorisation', id: redeemed.loginId },
            details: { expiresInSeconds: settings.tokenLifetimeSeconds },
          },
          at.toISOString(),
        );
      });
      return { access_token: token, token_type: 'Bearer', expires_in: settings.tokenLifetimeSeconds };
    },

    async psuOfToken(tpp, token) {
      const found = await psuTokenRepository.find(db, sha256(token));
      // Another TPP's token is as unknown as a made-up one.
      if (!found || found.tppId !== tpp.id) throw new AppError('TOKEN_INVALID', { path: 'Authorization' });
      if (found.expiresAt <= now().toISOString()) throw new AppError('TOKEN_EXPIRED', { path: 'Authorization' });
      return found.psuId;
    },
  };
}
