import { AppError } from '../../errors/app-error.js';
import { localized } from '../../domain/localized.js';
import { withTransaction, type Db } from '../../db/create-db.js';
import type { TppIdentity } from '../../security/tpp-identity.js';
import { auditService } from '../audit/audit.service.js';
import { tppRepository, type TppContact } from './tpp.repository.js';

export interface TppService {
  recordContact(tpp: TppIdentity): Promise<void>;
  /** Whether a TPP with this organisation id has made a signed request here. */
  isKnown(id: string): Promise<boolean>;
  /** The names of these TPPs (from their certificates), by id; an id never seen here is left out. */
  namesOf(ids: readonly string[]): Promise<Map<string, string>>;
  saveContactInformation(caller: TppIdentity, pathTppId: string, email: string, requestId: string): Promise<TppContact>;
  contactInformation(caller: TppIdentity, pathTppId: string): Promise<TppContact>;
}

/**
 * TPP records and the TPP dialogue interface (docs/design.md §6): a TPP registers one
 * official mailbox for the bank to reach it, and may read back only its own.
 */
export function createTppService(db: Db, now: () => Date): TppService {
  // A TPP's record is written on its first request per certificate and process; later requests
  // skip the write, so the hot path has no extra query.
  const recorded = new Set<string>();

  return {
    async recordContact(tpp) {
      const key = `${tpp.id}\n${tpp.certificateFingerprint}`;
      if (recorded.has(key)) {
        return;
      }
      await tppRepository.recordContact(db, tpp, now().toISOString());
      recorded.add(key);
    },

    async isKnown(id) {
      return (await tppRepository.findById(db, id)) !== undefined;
    },

    async namesOf(ids) {
      return tppRepository.namesOf(db, ids);
    },

    async saveContactInformation(caller, pathTppId, email, requestId) {
      assertOwnId(caller, pathTppId);
      const at = now().toISOString();
      await withTransaction(db, async (trx) => {
        await tppRepository.saveContact(trx, caller.id, email, at, requestId);
        await auditService.append(
          trx,
          {
            actor: { type: 'tpp', id: caller.id },
            requestId,
            action: 'tpp.contact-information.saved',
            resource: { type: 'tpp', id: caller.id },
          },
          at,
        );
      });
      return { email, updatedAt: at };
    },

    async contactInformation(caller, pathTppId) {
      assertOwnId(caller, pathTppId);
      const contact = await tppRepository.findContact(db, caller.id);
      if (!contact) {
        throw new AppError('RESOURCE_UNKNOWN', {
          detail: localized('no contact information is registered for this TPP', 'ingen kontaktinformasjon er registrert for denne TPP-en'),
        });
      }
      return contact;
    },
  };
}

/**
 * The path names the caller itself, with or without the `PSD` prefix of the certificate's
 * organizationIdentifier. Any other id is answered as unknown (404, never 403: docs/design.md §5).
 */
function assertOwnId(caller: TppIdentity, pathTppId: string): void {
  const own = caller.id.toUpperCase();
  const asked = pathTppId.toUpperCase();
  if (asked !== own && `PSD${asked}` !== own) {
    throw new AppError('RESOURCE_UNKNOWN', { path: 'tppId' });
  }
}
