import { newTimeOrderedId } from '../../db/time-ordered-id.js';
import type { BankAccount, CoreBanking } from '../../bank/core-banking.port.js';
import { withTransaction, type Db, type DbOrTx } from '../../db/create-db.js';
import { CreatedResource } from '../../domain/created-resource.js';
import { localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import type { RequestHeaders } from '../../http/headers/request-headers.js';
import { notificationAnswerHeaders, notificationOutbox, type NotificationService } from '../notifications/notification.service.js';
import type { TppIdentity } from '../../security/tpp-identity.js';
import { auditService } from '../audit/audit.service.js';
import type { AuthorisationService } from '../authorisations/authorisation.service.js';
import type { AuthorisableResource } from '../authorisations/authorisation-start.js';
import { allows } from '../payments/payment-status.js';
import { paymentStore } from '../payments/payment-store.js';
import type { Payment } from '../payments/payment.model.js';
import type { PsuAccessService } from '../psu-access/psu-access.service.js';
import { basketAllows, basketStatusOf, type BasketStatus } from './basket-status.js';
import { basketCreationLinks, basketHref, basketLinks } from './signing-basket-links.js';
import { signingBasketRepository, type SigningBasket } from './signing-basket.repository.js';

/** The most payments one basket holds (the requirement's limit). */
export const MAX_BASKET_PAYMENTS = 10;

/** A basket creation request after the front door. */
export interface BasketCreation {
  readonly tpp: TppIdentity;
  readonly paymentIds: readonly string[];
  /** Berlin Group's consents to sign with the payments: taken only empty. */
  readonly consentIds?: readonly string[] | undefined;
  readonly headers: RequestHeaders;
  /** The request's X-Request-ID, kept with the basket and its audit event. */
  readonly requestId: string;
}

/** A basket just created: its address, and the Berlin Group creation view (RCVD, its id and links). */
export type CreatedBasket = CreatedResource<{
  readonly transactionStatus: 'RCVD';
  readonly basketId: string;
  readonly _links: ReturnType<typeof basketCreationLinks>;
}>;

/** A basket with the payments it holds (or, once deleted, held), in the TPP's order. */
export interface BasketContent {
  readonly basket: SigningBasket;
  readonly payments: readonly Payment[];
}

export interface SigningBasketsService {
  /** Creates a basket: its payments taken, their own links ended, its audit event and authorisation in one transaction. */
  create(creation: BasketCreation): Promise<CreatedBasket>;
  /** A basket of this TPP with its payments (authorisations whose links expired are failed first). */
  find(tpp: TppIdentity, basketId: string): Promise<BasketContent>;
  statusOf(content: BasketContent): BasketStatus;
  view(content: BasketContent): { payments: string[]; transactionStatus: BasketStatus; _links: Record<string, { href: string }> };
  /** DELETE: before any approval only; the payments stay as they are and are free again. */
  remove(tpp: TppIdentity, basketId: string, requestId: string): Promise<void>;
  /** The basket as `POST …/authorisations` starts on it: refused unless it may get an authorisation now. */
  authorisationTarget(trx: DbOrTx, content: BasketContent): Promise<AuthorisableResource>;
}

export interface SigningBasketSettings {
  readonly publicUrl: string;
}

/** Who a payment's approval belongs to: the corporate agreement it names, or the debtor account's owner. */
type DebtorParty = { readonly kind: 'corporate'; readonly id: string } | { readonly kind: 'private'; readonly id: string };

const describeParty = (party: DebtorParty) =>
  party.kind === 'corporate'
    ? localized(`agreement ${party.id}`, `avtale ${party.id}`)
    : localized(`customer ${party.id}`, `kunde ${party.id}`);

const listed = (ids: readonly string[]) => ids.join(', ');

/**
 * Signing baskets (docs/design.md §2): a TPP groups 1..10 of its single payments, still received
 * and in no other open basket, of one debtor PSU; the PSU approves them with one SCA. The basket's
 * status is computed from its payments on every read.
 */
export function createSigningBasketsService(
  db: Db,
  coreBanking: CoreBanking,
  sca: {
    readonly authorisations: AuthorisationService;
    readonly psuAccess: Pick<PsuAccessService, 'psuRequired'>;
    /** Whether the TPP's TPP-Notification-URI is accepted (docs/notifications.md). */
    readonly notifications: Pick<NotificationService, 'decide'>;
  },
  now: () => Date,
  settings: SigningBasketSettings,
): SigningBasketsService {
  /** The payments, in the TPP's order, after the refusals that need nothing but the payments. */
  async function basketablePayments(tpp: TppIdentity, ids: readonly string[]): Promise<Payment[]> {
    const twice = ids.filter((id, index) => ids.indexOf(id) !== index);
    if (twice.length > 0) {
      throw new AppError('FORMAT_ERROR', {
        path: 'paymentIds',
        detail: localized(
          `each payment may be listed once; listed twice: ${listed([...new Set(twice)])}`,
          `hver betaling kan stå én gang; står to ganger: ${listed([...new Set(twice)])}`,
        ),
      });
    }
    const own = await paymentStore.findManyById(db, tpp.id, ids);
    // A payment of this TPP whose authorisation link expired is rejected before it is judged.
    const expired = await sca.authorisations.expireOverdueOf(
      'payment',
      own.map((payment) => payment.id),
    );
    const found = new Map((expired > 0 ? await paymentStore.findManyById(db, tpp.id, ids) : own).map((payment) => [payment.id, payment]));
    const unknown = ids.filter((id) => !found.has(id));
    if (unknown.length > 0) {
      throw new AppError('RESOURCE_UNKNOWN', {
        path: 'paymentIds',
        detail: localized(
          `no payment of this TPP has the id ${listed(unknown)}`,
          `ingen betaling fra denne tredjeparten har id ${listed(unknown)}`,
        ),
      });
    }
    const payments = ids.map((id) => found.get(id)!);
    const notSingle = payments.filter((payment) => payment.service !== 'payments');
    if (notSingle.length > 0) {
      throw new AppError('REFERENCE_MIX_INVALID', {
        path: 'paymentIds',
        detail: localized(
          `a basket holds single payments only; ${notSingle.map((payment) => `${payment.id} is a ${payment.service.replace('-payments', ' payment')}`).join(', ')}`,
          `en kurv kan bare inneholde enkeltbetalinger; ${notSingle.map((payment) => `${payment.id} er en ${payment.service === 'bulk-payments' ? 'massebetaling' : 'fast betaling'}`).join(', ')}`,
        ),
      });
    }
    const blocked = payments.filter((payment) => !allows(payment.status, 'put-in-basket') || payment.basketId !== undefined);
    if (blocked.length > 0) {
      throw new AppError('REFERENCE_STATUS_INVALID', {
        path: 'paymentIds',
        detail: localized(
          `only payments still waiting for their first approval, in no open basket, can be put in a basket: ${blocked.map((payment) => `${payment.id} ${whyBlocked(payment).en}`).join('; ')}`,
          `bare betalinger som venter på første godkjenning, og ikke ligger i en åpen kurv, kan legges i en kurv: ${blocked.map((payment) => `${payment.id} ${whyBlocked(payment).nb}`).join('; ')}`,
        ),
      });
    }
    return payments;
  }

  /** The one debtor party of the payments, or 400 when they belong to different PSUs. */
  async function debtorPartyOf(tpp: TppIdentity, payments: readonly Payment[]): Promise<DebtorParty> {
    // A basket's payments mostly share one account: each is asked of the bank once.
    const accounts = new Map<string, Promise<BankAccount | undefined>>();
    const parties: DebtorParty[] = [];
    for (const payment of payments) {
      if (payment.psuCorporateId !== undefined) {
        parties.push({ kind: 'corporate', id: payment.psuCorporateId });
        continue;
      }
      const known = accounts.get(payment.debtorAccountId) ?? debtorAccountOf(tpp, payment);
      accounts.set(payment.debtorAccountId, known);
      const account = await known;
      if (!account) {
        throw new AppError('REFERENCE_STATUS_INVALID', {
          path: 'paymentIds',
          detail: localized(
            `the debtor account of payment ${payment.id} no longer exists`,
            `belastningskontoen til betaling ${payment.id} finnes ikke lenger`,
          ),
        });
      }
      parties.push({ kind: 'private', id: account.ownerCustomerNumber });
    }
    const first = parties[0]!;
    const other = parties.find((party) => party.kind !== first.kind || party.id !== first.id);
    if (other) {
      throw new AppError('REFERENCE_MIX_INVALID', {
        path: 'paymentIds',
        detail: localized(
          `the payments are from accounts of different PSUs (${describeParty(first).en} and ${describeParty(other).en}); one basket is approved by one PSU`,
          `betalingene er fra kontoer til ulike brukere (${describeParty(first).nb} og ${describeParty(other).nb}); én kurv godkjennes av én bruker`,
        ),
      });
    }
    return first;
  }

  async function debtorAccountOf(tpp: TppIdentity, payment: Payment): Promise<BankAccount | undefined> {
    const reference = payment.body.debtorAccount;
    if (reference.iban !== undefined) return coreBanking.findAccount({ tppId: tpp.id }, { iban: reference.iban });
    if (reference.bban !== undefined) return coreBanking.findAccount({ tppId: tpp.id }, { bban: reference.bban });
    return undefined;
  }

  /** The PSU who approves: identified, of the payments' corporate agreement if they have one, and allowed to use their accounts. */
  async function approvingPsu(creation: BasketCreation, party: DebtorParty, payments: readonly Payment[]): Promise<string> {
    const corporateId = creation.headers.psuCorporateId;
    if (party.kind === 'corporate' && corporateId === undefined) {
      throw new AppError('CORPORATE_ID_REQUIRED', { path: 'PSU-Corporate-ID' });
    }
    if (corporateId !== undefined && (party.kind !== 'corporate' || corporateId !== party.id)) {
      throw new AppError('CORPORATE_ID_INVALID', { path: 'PSU-Corporate-ID' });
    }
    const psuId = creation.headers.psuId?.number;
    if (psuId === undefined) throw await sca.psuAccess.psuRequired(creation.tpp, creation.headers);
    const notAllowed: string[] = [];
    const allowed = new Map<string, boolean>();
    for (const payment of payments) {
      const key = `${payment.debtorAccountId}\n${payment.psuCorporateId ?? ''}`;
      if (!allowed.has(key)) {
        const permission = await coreBanking.permission({ tppId: creation.tpp.id }, psuId, payment.debtorAccountId, payment.psuCorporateId);
        allowed.set(key, permission.canRegister);
      }
      if (allowed.get(key) !== true) notAllowed.push(payment.id);
    }
    if (notAllowed.length > 0) {
      throw new AppError('DEBTOR_ACCOUNT_NOT_PERMITTED', {
        path: 'PSU-ID',
        detail: localized(
          `the PSU may not use the debtor account of ${listed(notAllowed)}`,
          `brukeren har ikke rett til å bruke belastningskontoen til ${listed(notAllowed)}`,
        ),
      });
    }
    return psuId;
  }

  async function contentOf(basket: SigningBasket): Promise<BasketContent> {
    const found = new Map((await paymentStore.findManyById(db, basket.tppId, basket.paymentIds)).map((payment) => [payment.id, payment]));
    return { basket, payments: basket.paymentIds.flatMap((id) => found.get(id) ?? []) };
  }

  function statusOf(content: BasketContent): BasketStatus {
    return basketStatusOf(
      content.payments.map((payment) => payment.status),
      content.basket.deletedAt !== undefined,
    );
  }

  /** Whether the basket may still get an authorisation: not deleted, and a payment in it waits for approval. */
  function authorisable(content: BasketContent): boolean {
    return basketAllows(
      content.payments.map((payment) => payment.status),
      content.basket.deletedAt !== undefined,
      'authorise',
    );
  }

  return {
    async create(creation) {
      if (creation.consentIds !== undefined && creation.consentIds.length > 0) {
        // Berlin Group lets a basket sign consents too; here a consent has its own SCA and a basket holds payments only.
        throw new AppError('REFERENCE_MIX_INVALID', {
          path: 'consentIds',
          detail: localized(
            'a basket of this bank holds payments only: send consentIds empty or not at all, and authorise each consent on its own',
            'en kurv i denne banken inneholder bare betalinger: send consentIds tom eller ikke i det hele tatt, og godkjenn hvert samtykke for seg',
          ),
        });
      }
      const payments = await basketablePayments(creation.tpp, creation.paymentIds);
      const party = await debtorPartyOf(creation.tpp, payments);
      const psuId = await approvingPsu(creation, party, payments);
      const id = newTimeOrderedId();
      const at = now().toISOString();
      const { psuId: _psu, psuCorporateId, notification: _wish, ...context } = creation.headers;
      const actor = { type: 'tpp' as const, id: creation.tpp.id };
      const notification = await sca.notifications.decide(creation.tpp, creation.headers.notification);
      return withTransaction(db, async (trx): Promise<CreatedBasket> => {
        // Baskets sharing payments queue here. Authorisations first, then payments: the order
        // the SCA flow locks them in.
        await sca.authorisations.lockOf(trx, 'payment', creation.paymentIds);
        await paymentStore.lockRows(trx, creation.paymentIds);
        await signingBasketRepository.insert(trx, {
          id,
          tppId: creation.tpp.id,
          psuId,
          psuCorporateId,
          paymentIds: creation.paymentIds,
          requestId: creation.requestId,
          requestContext: { ...context, acceptFixes: [...context.acceptFixes] },
          createdAt: at,
        });
        // Conditional updates: a payment another request approved or put in a basket meanwhile is not taken.
        if ((await paymentStore.claimForBasket(trx, creation.tpp.id, creation.paymentIds, id)) !== creation.paymentIds.length) {
          throw new AppError('REFERENCE_STATUS_INVALID', {
            path: 'paymentIds',
            detail: localized(
              'a payment of the basket was approved or put in another basket meanwhile; read the payments again',
              'en betaling i kurven ble godkjent eller lagt i en annen kurv i mellomtiden; les betalingene på nytt',
            ),
          });
        }
        // A payment in a basket is approved with the basket: a link started for it alone stops working.
        const superseded = localized(`The payment was put in signing basket ${id}`, `Betalingen ble lagt i signeringskurv ${id}`);
        await sca.authorisations.abandonOpen(trx, 'payment', creation.paymentIds, superseded, actor);
        await auditService.append(
          trx,
          {
            actor,
            requestId: creation.requestId,
            action: 'signing-basket.created',
            resource: { type: 'signing-basket', id },
            details: { paymentIds: [...creation.paymentIds], psuId },
          },
          at,
        );
        const self = basketHref(settings.publicUrl, id);
        await notificationOutbox.subscribe(
          trx,
          notification,
          { type: 'signing-basket', id, tppId: creation.tpp.id, selfHref: self, statusHref: `${self}/status` },
          at,
        );
        const started = creation.headers.tppExplicitAuthorisationPreferred
          ? undefined
          : await sca.authorisations.create(trx, {
              tpp: creation.tpp,
              purpose: 'signing-basket',
              resourceId: id,
              expectedPsuId: psuId,
              psuCorporateId,
              redirectUri: context.tppRedirectUri,
              nokRedirectUri: context.tppNokRedirectUri,
              biometric: context.biometricAuthentication,
            });
        const links = basketCreationLinks(
          settings.publicUrl,
          id,
          started && { authorisationId: started.id, scaRedirect: sca.authorisations.redirectLink(started) },
        );
        return new CreatedResource(
          self,
          { transactionStatus: 'RCVD' as const, basketId: id, _links: links },
          notificationAnswerHeaders(notification),
        );
      });
    },

    async find(tpp, basketId) {
      const basket = await signingBasketRepository.find(db, tpp.id, basketId);
      if (!basket) throw new AppError('RESOURCE_UNKNOWN', { path: 'basketId' });
      // An authorisation whose link expired rejects the payments: the status read tells the truth.
      if (basket.deletedAt === undefined) await sca.authorisations.expireOverdueOf('signing-basket', [basket.id]);
      return contentOf(basket);
    },

    statusOf,

    view(content) {
      return {
        payments: [...content.basket.paymentIds],
        transactionStatus: statusOf(content),
        _links: basketLinks(settings.publicUrl, content.basket.id, authorisable(content)),
      };
    },

    async remove(tpp, basketId, requestId) {
      const { basket } = await this.find(tpp, basketId);
      if (basket.deletedAt !== undefined) return;
      const at = now().toISOString();
      const actor = { type: 'tpp' as const, id: tpp.id };
      await withTransaction(db, async (trx) => {
        // The basket's authorisations are locked first, as an approval locks them (then the basket,
        // then the payments): an approval under way finishes before this reads, or waits for it.
        await sca.authorisations.lockOf(trx, 'signing-basket', [basket.id]);
        // Read in this transaction: on SQLite its one connection is held by it.
        const approved = await sca.authorisations.anyFinalised(trx, tpp.id, 'signing-basket', basket.id);
        if (approved) {
          throw new AppError('REFERENCE_STATUS_INVALID', {
            detail: localized(
              'the PSU has already approved the basket (or part of it); it can no longer be deleted',
              'brukeren har allerede godkjent kurven (eller deler av den); den kan ikke lenger slettes',
            ),
          });
        }
        if (!(await signingBasketRepository.markDeleted(trx, basket.id, at))) return;
        await paymentStore.releaseFromBasket(trx, basket.id);
        await notificationOutbox.statusChanged(trx, 'signing-basket', basket.id, [{ status: 'CANC', final: true }], at);
        await sca.authorisations.abandonOpen(
          trx,
          'signing-basket',
          [basket.id],
          localized('The TPP deleted the signing basket', 'Tredjepartstjenesten slettet signeringskurven'),
          actor,
        );
        await auditService.append(
          trx,
          { actor, requestId, action: 'signing-basket.deleted', resource: { type: 'signing-basket', id: basket.id }, details: {} },
          at,
        );
      });
    },

    // Judged on the content just read, without a lock: the approval checks the basket again (a
    // basket deleted meanwhile refuses it), so a start racing a DELETE cannot approve anything.
    async authorisationTarget(_trx, content) {
      const { basket, payments } = content;
      if (!authorisable(content)) {
        throw new AppError('REFERENCE_STATUS_INVALID', {
          detail:
            basket.deletedAt !== undefined
              ? localized('the basket was deleted', 'kurven er slettet')
              : localized('no payment in the basket waits for approval', 'ingen betaling i kurven venter på godkjenning'),
        });
      }
      const context = basket.requestContext;
      return {
        id: basket.id,
        href: basketHref(settings.publicUrl, basket.id),
        psuCorporateId: basket.psuCorporateId,
        // Until someone approves, the PSU the basket was created for is the one expected.
        expectedPsuId: payments.every((payment) => payment.status === 'RCVD') ? basket.psuId : undefined,
        redirectUri: context.tppRedirectUri,
        nokRedirectUri: context.tppNokRedirectUri,
      };
    },
  };
}

/** Why a payment cannot go into a basket, in a few words. */
function whyBlocked(payment: Payment) {
  // Its status allows it: what blocks it is the basket that holds it.
  if (allows(payment.status, 'put-in-basket')) {
    return localized(`is in signing basket ${payment.basketId ?? ''}`, `ligger i signeringskurv ${payment.basketId ?? ''}`);
  }
  if (payment.status === 'PATC') return localized('is partly approved (PATC)', 'er delvis godkjent (PATC)');
  if (payment.status === 'RJCT') return localized('is rejected (RJCT)', 'er avvist (RJCT)');
  if (payment.status === 'CANC') return localized('is cancelled (CANC)', 'er kansellert (CANC)');
  return localized(`is already approved (${payment.status})`, `er allerede godkjent (${payment.status})`);
}
