import { displayDate, displayMoney } from '../../domain/display-format.js';
import type { Localized } from '../../domain/localized.js';
import { maskPsuId } from '../../domain/norwegian-identity-number.js';
import type { AccessKind } from '../consents/consent-access.js';
import type { Consent } from '../consents/consent.model.js';
import { referenceText } from '../consents/shareable-accounts.js';
import type { Payment } from '../payments/payment.model.js';
import { escapeHtml, page, type PageFrame } from '../sca-redirect/sca-pages.js';
import { SCA_TEXTS } from '../sca-redirect/sca-texts.js';
import type { ListedConsent, ListedPayment, Overview } from './psu-overview.service.js';
import { CONSENT_STATUS_TEXTS, KIND_TEXTS, OVERVIEW_TEXTS, PAYMENT_STATUS_TEXTS } from './psu-overview-texts.js';

/*
 * The PSU's own page of consents and payments: server-rendered HTML without JavaScript, in the
 * SCA pages' frame and stylesheet (so under the same CSP). Pure functions: data in, HTML out.
 */

type Text = (text: Localized) => string;
const translator =
  (frame: PageFrame): Text =>
  (text) =>
    escapeHtml(text[frame.language]);

function errorBox(frame: PageFrame, message: Localized | undefined, id: string): string {
  return message ? `<p class="error" id="${id}" role="alert">${escapeHtml(message[frame.language])}</p>` : '';
}

export interface LoginView {
  readonly action: string;
  readonly csrf: string;
  readonly message?: Localized | undefined;
}

/** The first step: the PSU-ID (the bank is the visit's: in the sandbox, the TPP's link chose it). */
export function overviewLoginPage(frame: PageFrame, view: LoginView): string {
  const t = translator(frame);
  return page(
    frame,
    t(OVERVIEW_TEXTS.loginHeading),
    `<p>${t(OVERVIEW_TEXTS.loginIntro)}</p>
<form method="post" action="${escapeHtml(view.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
<label for="psu-id">${t(SCA_TEXTS.psuIdLabel)}</label>
<input type="text" id="psu-id" name="psuId" inputmode="numeric" autocomplete="username" maxlength="11" required${view.message ? ' aria-invalid="true" aria-describedby="psu-id-error"' : ''}>
${errorBox(frame, view.message, 'psu-id-error')}
<div class="actions"><button type="submit">${t(SCA_TEXTS.next)}</button></div>
</form>`,
  );
}

/** The sandbox without a visit: where the link to the page comes from; no login. `message`: why a link was refused. */
export function overviewLinkNeededPage(frame: PageFrame, view: { readonly message?: Localized | undefined } = {}): string {
  const t = translator(frame);
  return page(
    frame,
    t(OVERVIEW_TEXTS.linkHeading),
    `${errorBox(frame, view.message, 'link-error')}
<p>${t(OVERVIEW_TEXTS.linkNeeded)}</p>`,
  );
}

export interface OverviewCodeView {
  readonly action: string;
  readonly csrf: string;
  /** Ends the visit, so the PSU can start again with another PSU-ID. */
  readonly restartAction: string;
  readonly message?: Localized | undefined;
}

/** The in-page one-time code. */
export function overviewCodePage(frame: PageFrame, view: OverviewCodeView): string {
  const t = translator(frame);
  return page(
    frame,
    t(SCA_TEXTS.codeHeading),
    `<p>${t(SCA_TEXTS.codeIntro)}</p>
${frame.sandbox ? `<p class="hint">${t(SCA_TEXTS.codeSandboxHint)}</p>` : ''}
<form method="post" action="${escapeHtml(view.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
<label for="code">${t(SCA_TEXTS.codeLabel)}</label>
<input type="text" id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" required autofocus${view.message ? ' aria-invalid="true" aria-describedby="code-error"' : ''}>
${errorBox(frame, view.message, 'code-error')}
<div class="actions"><button type="submit">${t(SCA_TEXTS.next)}</button></div>
</form>
<form method="post" action="${escapeHtml(view.restartAction)}">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
<div class="actions"><button type="submit" class="secondary">${t(OVERVIEW_TEXTS.restart)}</button></div>
</form>`,
  );
}

/** After a refused external login: why, and the way to the bank's login again. */
export function overviewExternalLoginPage(frame: PageFrame, view: { readonly href: string; readonly message: Localized }): string {
  const t = translator(frame);
  return page(
    frame,
    t(SCA_TEXTS.externalLoginHeading),
    `${errorBox(frame, view.message, 'login-error')}
<div class="actions"><a class="button" id="external-login" href="${escapeHtml(view.href)}">${t(SCA_TEXTS.externalLoginAgain)}</a></div>`,
  );
}

/** A refusal or an ended visit: why, and the way back to the login. */
export function overviewMessagePage(frame: PageFrame, view: { readonly message: Localized; readonly href: string }): string {
  const t = translator(frame);
  return page(
    frame,
    t(SCA_TEXTS.errorHeading),
    `<p role="alert">${t(view.message)}</p>
<div class="actions"><a class="button" href="${escapeHtml(view.href)}">${t(OVERVIEW_TEXTS.again)}</a></div>`,
  );
}

function kindsText(frame: PageFrame, kinds: readonly AccessKind[]): string {
  return kinds.map((kind) => KIND_TEXTS[kind][frame.language]).join(', ');
}

/** What a consent shares, from what the PSU granted: the accounts and what of each, or the list of accounts. */
function sharedLines(frame: PageFrame, consent: Consent): string {
  const t = translator(frame);
  const grant = consent.grant;
  if (!grant) return '';
  const ownerName = grant.accounts.some((account) => account.ownerName) ? ` ${t(OVERVIEW_TEXTS.ownerName)}` : '';
  if (grant.listOnly) {
    const list = grant.listOnly.withBalance ? OVERVIEW_TEXTS.accountListWithBalances : OVERVIEW_TEXTS.accountList;
    return `<dt>${t(OVERVIEW_TEXTS.shares)}</dt><dd>${t(list)}${ownerName}</dd>`;
  }
  const accounts = grant.accounts
    .map((account) => `${escapeHtml(referenceText(account.reference))} (${escapeHtml(kindsText(frame, account.kinds))})`)
    .join('<br>');
  const all = consent.access.kind === 'global' ? `${t(OVERVIEW_TEXTS.allAccounts)}<br>` : '';
  return `<dt>${t(OVERVIEW_TEXTS.accounts)}</dt><dd>${all}${accounts || '–'}${ownerName}</dd>`;
}

function consentSection(frame: PageFrame, listed: ListedConsent, index: number, form: { action: string; csrf: string }): string {
  const t = translator(frame);
  const { consent } = listed;
  const live = consent.status === 'valid';
  const revoke = live
    ? `<form method="post" action="${escapeHtml(form.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(form.csrf)}">
<input type="hidden" name="consentId" value="${escapeHtml(consent.id)}">
<div class="actions"><button type="submit" class="secondary" aria-describedby="consent-${index}">${t(OVERVIEW_TEXTS.revoke)}</button></div>
</form>`
    : '';
  return `<section class="item consent" data-consent-id="${escapeHtml(consent.id)}">
<h3 id="consent-${index}">${escapeHtml(listed.tppName)}</h3>
<dl>
${sharedLines(frame, consent)}
<dt>${t(OVERVIEW_TEXTS.validUntil)}</dt><dd>${t(displayDate(consent.validUntil))}</dd>
<dt>${t(OVERVIEW_TEXTS.status)}</dt><dd><span class="state${live ? ' live' : ''}">${t(CONSENT_STATUS_TEXTS[consent.status])}</span></dd>
<dt>${t(OVERVIEW_TEXTS.lastUsed)}</dt><dd>${t(displayDate(consent.lastActionDate))}</dd>
</dl>
${revoke}
</section>`;
}

function creditorOf(frame: PageFrame, payment: Payment): string {
  if (payment.service === 'bulk-payments') return OVERVIEW_TEXTS.payments(payment.body.payments.length)[frame.language];
  return payment.body.creditorName;
}

function paymentSection(frame: PageFrame, listed: ListedPayment): string {
  const t = translator(frame);
  const { payment } = listed;
  const date = payment.requestedExecutionDate;
  return `<section class="item payment" data-payment-id="${escapeHtml(payment.id)}">
<h3>${escapeHtml(listed.tppName)}</h3>
<dl>
<dt>${t(OVERVIEW_TEXTS.to)}</dt><dd>${escapeHtml(creditorOf(frame, payment))}</dd>
<dt>${t(OVERVIEW_TEXTS.amount)}</dt><dd>${t(displayMoney({ minor: payment.amountMinor, currency: payment.currency }))}</dd>
<dt>${t(OVERVIEW_TEXTS.created)}</dt><dd>${t(displayDate(payment.createdAt.slice(0, 10)))}</dd>
${date ? `<dt>${t(OVERVIEW_TEXTS.executionDate)}</dt><dd>${t(displayDate(date))}</dd>` : ''}
<dt>${t(OVERVIEW_TEXTS.status)}</dt><dd><span class="state">${t(PAYMENT_STATUS_TEXTS[payment.status])}</span></dd>
</dl>
</section>`;
}

export interface OverviewView {
  readonly overview: Overview;
  readonly csrf: string;
  readonly revokeAction: string;
  readonly logoutAction: string;
  /** What the last post did (a revocation), shown at the top. */
  readonly notice?: Localized | undefined;
  readonly message?: Localized | undefined;
}

/** The logged-in PSU's consents (valid ones with their revoke button) and payments. */
export function overviewPage(frame: PageFrame, view: OverviewView): string {
  const t = translator(frame);
  const { overview } = view;
  const consents =
    overview.consents.length === 0
      ? `<p>${t(OVERVIEW_TEXTS.noConsents)}</p>`
      : overview.consents
          .map((listed, index) => consentSection(frame, listed, index, { action: view.revokeAction, csrf: view.csrf }))
          .join('\n');
  const payments =
    overview.payments.length === 0
      ? `<p>${t(OVERVIEW_TEXTS.noPayments)}</p>`
      : overview.payments.map((listed) => paymentSection(frame, listed)).join('\n');
  return page(
    frame,
    t(OVERVIEW_TEXTS.title),
    `<form method="post" action="${escapeHtml(view.logoutAction)}" class="signed-in">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
<span>${t(OVERVIEW_TEXTS.signedInAs)} <strong>${escapeHtml(maskPsuId(overview.psuId))}</strong></span>
<button type="submit" class="secondary">${t(OVERVIEW_TEXTS.logout)}</button>
</form>
${view.notice ? `<p class="notice" role="status">${t(view.notice)}</p>` : ''}
${errorBox(frame, view.message, 'overview-error')}
<h2>${t(OVERVIEW_TEXTS.consentsHeading)}</h2>
${consents}
<h2>${t(OVERVIEW_TEXTS.paymentsHeading)}</h2>
${payments}`,
  );
}
