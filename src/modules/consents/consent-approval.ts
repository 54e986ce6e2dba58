import type { CoreBanking } from '../../bank/core-banking.port.js';
import type { Db, DbOrTx } from '../../db/create-db.js';
import { displayDate } from '../../domain/display-format.js';
import { localized, type Localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import type { Approval, AuthorisationSubject } from '../authorisations/authorisation-subject.js';
import type { Authorisation } from '../authorisations/authorisation.model.js';
import type { BankClock } from '../clock/bank-clock.js';
import { companyAccountsAskedPrivately } from './company-accounts.js';
import { ACCESS_KINDS, namedAccounts } from './consent-access.js';
import { choiceValue, consentConfirmation } from './consent-confirmation.js';
import type { Grant, GrantedAccount } from './consent-grant.js';
import { supersedes } from './consent-supersession.js';
import { needsSecondApprover, secondApproverRefusal } from './consent-joint-approval.js';
import { isAwaitingApproval } from './consent-status.js';
import { transitionConsent } from './consent-transition.js';
import { consentRepository } from './consent.repository.js';
import type { Consent } from './consent.model.js';
import { accountNamed, referenceText, shareableAccounts, type ShareableAccount } from './shareable-accounts.js';

const refused = (reason: Localized, rejectsResource: boolean): Approval => ({ ok: false, reason, rejectsResource });

function granted(account: ShareableAccount, kinds: GrantedAccount['kinds'], ownerName: boolean): GrantedAccount {
  return { bankAccountId: account.bankAccountId, type: account.type, kinds, ownerName, reference: account.reference };
}

/**
 * What the PSU grants by approving, or why it cannot be granted (docs/design.md §2b): a detailed
 * consent naming an account the PSU cannot share is rejected; a bank-offered one grants the
 * accounts the PSU ticked; global and account-list consents grant what the PSU may share now.
 */
function grantOf(consent: Consent, shareable: readonly ShareableAccount[], chosen: readonly string[]): Grant | Localized {
  const access = consent.access;
  switch (access.kind) {
    case 'global':
      return { accounts: shareable.map((account) => granted(account, ACCESS_KINDS, access.ownerName)) };
    case 'account-list':
      return {
        accounts: shareable.map((account) => granted(account, [], access.ownerName)),
        listOnly: { withBalance: access.withBalance },
      };
    case 'bank-offered': {
      const ticked = new Set(chosen);
      return {
        accounts: shareable
          .filter((account) => ticked.has(choiceValue(consent, account)))
          .map((account) => granted(account, access.kinds, access.ownerName)),
      };
    }
    case 'detailed': {
      const accounts: GrantedAccount[] = [];
      for (const entry of namedAccounts(access)) {
        const account = accountNamed(shareable, entry.reference);
        if (!account) {
          const text = referenceText(entry.reference);
          return localized(
            `The app asked for ${text}, which is not an account you can share`,
            `Appen ba om ${text}, som ikke er en konto du kan dele`,
          );
        }
        // The same account named twice (by BBAN and by IBAN) is one grant with both kinds.
        const earlier = accounts.findIndex((other) => other.bankAccountId === account.bankAccountId && other.type === account.type);
        if (earlier >= 0) {
          const before = accounts[earlier]!;
          accounts[earlier] = {
            ...before,
            kinds: ACCESS_KINDS.filter((kind) => before.kinds.includes(kind) || entry.kinds.includes(kind)),
            ownerName: before.ownerName || entry.ownerName,
          };
        } else {
          accounts.push(granted(account, entry.kinds, entry.ownerName));
        }
      }
      return { accounts };
    }
  }
}

/**
 * The consent's side of its SCA: the confirmation page, the approval that makes it valid (and ends
 * the same TPP's older valid recurring consents of the same PSU it grants at least as much as), and the rejection a
 * failed SCA causes. A corporate grant the bank wants approved by two (consent-joint-approval.ts)
 * is partiallyAuthorised after its first approval, and the approval of a second PSU of the
 * agreement, through another authorisation, makes it valid.
 */
export function consentApprovalSubject(db: Db, coreBanking: CoreBanking, clock: BankClock): AuthorisationSubject {
  async function consentOf(authorisation: Authorisation): Promise<Consent> {
    const consent = authorisation.resourceId === undefined ? undefined : await consentRepository.findById(db, authorisation.resourceId);
    if (!consent) throw new Error(`authorisation ${authorisation.id} names no consent`);
    return consent;
  }

  const corporateIdOf = (authorisation: Authorisation, consent: Consent) => authorisation.psuCorporateId ?? consent.psuCorporateId;

  const shareableFor = (authorisation: Authorisation, consent: Consent, psuId: string) =>
    shareableAccounts(coreBanking, { tppId: consent.tppId }, psuId, corporateIdOf(authorisation, consent));

  /**
   * Of the accounts a detailed consent names that the PSU cannot share, those of its company's
   * agreement asked for without PSU-Corporate-ID: the confirmation page says why. Only the page
   * the PSU reads: the refusal on approving stays neutral, as the TPP reads it too (psuMessage).
   */
  async function companyAccountsFor(authorisation: Authorisation, consent: Consent, psuId: string, shareable: readonly ShareableAccount[]) {
    if (consent.access.kind !== 'detailed' || consent.status === 'partiallyAuthorised') return undefined;
    const unshareable = namedAccounts(consent.access)
      .map((entry) => entry.reference)
      .filter((reference) => accountNamed(shareable, reference) === undefined);
    if (unshareable.length === 0) return undefined;
    return companyAccountsAskedPrivately(coreBanking, { tppId: consent.tppId }, psuId, corporateIdOf(authorisation, consent), unshareable);
  }

  /**
   * Ends the TPP's other valid recurring consents of this PSU that the newly valid one grants at
   * least as much as (consent-supersession.ts, docs/design.md §2b).
   */
  async function supersede(trx: DbOrTx, consent: Consent, grant: Grant, psuId: string, at: string, today: string) {
    if (!consent.recurring) return;
    const newer = { ...consent, grant };
    for (const older of await consentRepository.listValidOf(trx, consent.tppId, psuId)) {
      if (older.id === consent.id || !older.recurring || older.grant === undefined) continue;
      if (!supersedes(newer, { ...older, grant: older.grant })) continue;
      await transitionConsent(trx, older, {
        to: 'terminatedByTpp',
        reason: `Replaced by consent ${consent.id}, which grants at least as much`,
        actor: { type: 'tpp', id: consent.tppId },
        at,
        today,
      });
    }
  }

  /**
   * The consent under its lock in the approving transaction, in the status the checks saw: another
   * approval or a DELETE in between makes this one fail (409), never apply to a changed consent.
   */
  async function lockedAsBefore(trx: DbOrTx, seen: Consent): Promise<Consent> {
    await consentRepository.lock(trx, seen.id);
    const current = await consentRepository.findById(trx, seen.id);
    if (!current || current.status !== seen.status) throw new AppError('STATUS_INVALID');
    return current;
  }

  /**
   * The second approval of a partially authorised consent: the grant the first approver made is
   * approved as it stands (the PSU ticks nothing), and the consent becomes valid. The consent's PSU
   * stays the first approver, whose choice the grant is.
   */
  async function secondApproval(consent: Consent, psuId: string): Promise<Approval> {
    const refusal = await secondApproverRefusal(coreBanking, consent, psuId);
    if (refusal) return refused(refusal.reason, refusal.rejectsConsent);
    return {
      ok: true,
      apply: async (trx, at) => {
        const current = await lockedAsBefore(trx, consent);
        const { psuId: firstApprover, grant } = current;
        if (firstApprover === undefined || grant === undefined) throw new Error(`partially authorised consent ${consent.id} has no grant`);
        const { now: bankNow, today } = await clock.moment(consent.tppId, trx);
        const approved = await transitionConsent(trx, current, {
          to: 'valid',
          reason: 'Approved by a second PSU of the agreement',
          actor: { type: 'psu', id: psuId },
          at,
          today,
          // Its SCA is complete now: the 180 days and the fresh-SCA hour count from here.
          approval: { psuId: firstApprover, psuCorporateId: current.psuCorporateId, grant, scaAt: bankNow.toISOString() },
        });
        await supersede(trx, approved, grant, firstApprover, at, today);
      },
    };
  }

  return {
    async confirmation(authorisation) {
      const consent = await consentOf(authorisation);
      const psuId = authorisation.psuId;
      if (psuId === undefined) return consentConfirmation(consent, []);
      const shareable = await shareableFor(authorisation, consent, psuId);
      return consentConfirmation(consent, shareable, await companyAccountsFor(authorisation, consent, psuId, shareable));
    },

    async prepareApproval(authorisation, psuId, chosen) {
      const consent = await consentOf(authorisation);
      if (!isAwaitingApproval(consent.status)) {
        return refused(localized('The consent no longer waits for approval', 'Samtykket venter ikke lenger på godkjenning'), false);
      }
      if (consent.status === 'partiallyAuthorised') return secondApproval(consent, psuId);
      const shareable = await shareableFor(authorisation, consent, psuId);
      const grant = grantOf(consent, shareable, chosen);
      if (!('accounts' in grant)) return refused(grant, true);
      if (grant.accounts.length === 0) {
        return refused(
          consent.access.kind === 'bank-offered'
            ? localized('No account was ticked, so nothing was shared', 'Ingen konto ble krysset av, så ingenting ble delt')
            : localized('You have no accounts you can share', 'Du har ingen kontoer du kan dele'),
          true,
        );
      }
      const jointly = needsSecondApprover(grant, shareable);
      return {
        ok: true,
        apply: async (trx, at) => {
          const current = await lockedAsBefore(trx, consent);
          const { now: bankNow, today } = await clock.moment(consent.tppId, trx);
          const approval = {
            psuId,
            psuCorporateId: authorisation.psuCorporateId ?? current.psuCorporateId,
            grant,
            scaAt: bankNow.toISOString(),
          };
          const actor = { type: 'psu' as const, id: psuId };
          if (jointly) {
            await transitionConsent(trx, current, {
              to: 'partiallyAuthorised',
              reason: 'Approved by one PSU of the agreement; another must approve too',
              actor,
              at,
              today,
              approval,
            });
            return;
          }
          const approved = await transitionConsent(trx, current, {
            to: 'valid',
            reason: 'Approved by the PSU',
            actor,
            at,
            today,
            approval,
          });
          await supersede(trx, approved, grant, psuId, at, today);
        },
      };
    },

    async approvedMessage(authorisation) {
      const consent = await consentOf(authorisation);
      if (consent.status === 'partiallyAuthorised') {
        return localized(
          `You have approved it. Another approver of your company must approve it too before ${authorisation.tppName} can read the account information.`,
          `Du har godkjent. En annen i bedriften må også godkjenne før ${authorisation.tppName} kan lese kontoinformasjonen.`,
        );
      }
      const until = displayDate(consent.validUntil);
      return localized(
        `${authorisation.tppName} can now read the account information you approved, until ${until.en}.`,
        `${authorisation.tppName} kan nå lese kontoinformasjonen du godkjente, til ${until.nb}.`,
      );
    },

    async onFailure(trx, authorisation, reason, at, actor) {
      if (authorisation.resourceId === undefined) return;
      await consentRepository.lock(trx, authorisation.resourceId);
      const consent = await consentRepository.findById(trx, authorisation.resourceId);
      if (!consent || !isAwaitingApproval(consent.status)) return;
      await transitionConsent(trx, consent, {
        to: 'rejected',
        reason: reason.en,
        actor,
        at,
        today: await clock.today(consent.tppId, trx),
      });
    },
  };
}
