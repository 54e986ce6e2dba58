import { createHash } from 'node:crypto';
import type { Language, Localized } from '../../domain/localized.js';
import { checkNorwegianIdentityNumber, maskPsuId } from '../../domain/norwegian-identity-number.js';
import type { Confirmation, ConfirmationChoices, ConfirmationLine } from '../authorisations/authorisation-subject.js';
import type { AuthorisationPurpose } from '../authorisations/authorisation.model.js';
import { loginCodeIntro, PURPOSE_TITLES, SCA_TEXTS } from './sca-texts.js';

/*
 * The PSU's pages: plain server-rendered HTML that works without JavaScript, with no
 * external assets (the one stylesheet is inline and allowed by its hash in the CSP), labelled
 * fields, and every text in the page's language. Pure functions: data in, HTML out.
 */

/** The stylesheet of every page; the CSP allows exactly this text by its SHA-256. */
export const PAGE_STYLE = `
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#eef1f4}
body{margin:0}
header{background:#0b3d5c;color:#fff;padding:14px 20px;display:flex;justify-content:space-between;align-items:center}
header .bank{font-weight:700;font-size:1.15rem}
header .badge{font-size:.8rem;background:#f6c343;color:#1b1f24;border-radius:4px;padding:2px 8px}
main{max-width:34rem;margin:24px auto;background:#fff;border-radius:10px;padding:24px 28px;box-shadow:0 1px 4px rgba(0,0,0,.12)}
h1{font-size:1.45rem;margin:0 0 12px}
p{line-height:1.45}
.step{color:#51606e;font-size:.9rem;margin:0 0 4px}
label{display:block;font-weight:600;margin:18px 0 6px}
input[type=text]{width:100%;box-sizing:border-box;font-size:1.15rem;padding:10px 12px;border:2px solid #6b7885;border-radius:6px}
input[readonly]{background:#eef1f4}
input:focus,button:focus,a:focus{outline:3px solid #f6c343;outline-offset:2px}
.hint{color:#51606e;font-size:.92rem;margin:6px 0 0}
.error{color:#8a1111;background:#fdecec;border-left:4px solid #b3261e;padding:10px 12px;margin:14px 0}
.actions{display:flex;gap:12px;flex-wrap:wrap;margin-top:22px}
button,.button{font-size:1.05rem;padding:11px 20px;border-radius:6px;border:2px solid #0b3d5c;background:#0b3d5c;color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
button.secondary{background:#fff;color:#0b3d5c}
button.app{background:#1f6f43;border-color:#1f6f43;width:100%;margin-top:8px}
dl{display:grid;grid-template-columns:minmax(8rem,40%) 1fr;gap:6px 14px;margin:16px 0}
dt{color:#51606e}
dd{margin:0;font-weight:600;overflow-wrap:anywhere}
section.item{border-top:1px solid #d5dbe1;margin-top:10px}
fieldset{border:1px solid #d5dbe1;border-radius:6px;margin:16px 0;padding:8px 14px}
legend{font-weight:600;padding:0 4px}
.choice{display:flex;gap:10px;align-items:center;margin:8px 0}
.choice label{margin:0;font-weight:400}
input[type=checkbox]{width:1.3rem;height:1.3rem}
h2{font-size:1.05rem;margin:14px 0 0}
.code{font-family:ui-monospace,monospace;font-size:1.1rem;background:#eef1f4;padding:10px;border-radius:6px;overflow-wrap:anywhere}
h3{font-size:1rem;margin:14px 0 0}
.signed-in{display:flex;justify-content:space-between;align-items:center;gap:12px;flex-wrap:wrap;color:#51606e}
.signed-in button{font-size:.9rem;padding:6px 12px}
.state{display:inline-block;font-size:.85rem;font-weight:600;border-radius:4px;padding:1px 8px;background:#eef1f4}
.state.live{background:#e3f1e8;color:#1f6f43}
.notice{background:#e3f1e8;border-left:4px solid #1f6f43;padding:10px 12px;margin:14px 0}
@media (max-width:36rem){main{margin:12px;padding:20px 18px}}
`;

export const PAGE_STYLE_HASH = `sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}`;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** What every page shows around its content. */
export interface PageFrame {
  readonly language: Language;
  readonly bankName: string;
  readonly sandbox: boolean;
  readonly purpose: AuthorisationPurpose | undefined;
  /** The title of a page that serves no authorisation (the PSU's own page of consents). */
  readonly title?: Localized | undefined;
}

/** A whole page: the bank's header, the heading and `content` (HTML, escaped by the caller). */
export function page(frame: PageFrame, heading: string, content: string): string {
  const t = (text: Localized) => escapeHtml(text[frame.language]);
  const named = frame.purpose ? PURPOSE_TITLES[frame.purpose] : frame.title;
  const title = named ? `${t(named)} – ${escapeHtml(frame.bankName)}` : escapeHtml(frame.bankName);
  return `<!doctype html>
<html lang="${frame.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<header><span class="bank">${escapeHtml(frame.bankName)}</span>${frame.sandbox ? `<span class="badge">${t(SCA_TEXTS.sandbox)}</span>` : ''}</header>
<main>
<h1>${heading}</h1>
${content}
</main>
</body>
</html>
`;
}

function errorBox(frame: PageFrame, message: Localized | undefined, id: string): string {
  return message ? `<p class="error" id="${id}" role="alert">${escapeHtml(message[frame.language])}</p>` : '';
}

function stepLine(frame: PageFrame, step: number, of: number): string {
  const t = (text: Localized) => escapeHtml(text[frame.language]);
  return `<p class="step">${t(SCA_TEXTS.step)} ${step} ${t(SCA_TEXTS.of)} ${of}</p>`;
}

const stepsOf = (purpose: AuthorisationPurpose | undefined) => (purpose === 'psu-login' ? 2 : 3);

export interface IdentifyPage {
  readonly action: string;
  readonly csrf: string;
  readonly tppName: string;
  /** The PSU-ID the TPP sent: shown masked (its last four digits), prefilled and locked. */
  readonly lockedPsuId?: string | undefined;
  /** What the PSU typed, shown again after a refusal unless it is a national identity number. */
  readonly typed?: string | undefined;
  readonly message?: Localized | undefined;
  /** Offer the app (biometric) confirmation: Biometric-Authentication and a mobile user agent. */
  readonly offerApp: boolean;
}

/**
 * The identify page. No page shows a PSU's whole national identity number (anyone who saw the
 * link could read it): the TPP's is masked, and a typed number that names someone is not echoed.
 */
export function identifyPage(frame: PageFrame, view: IdentifyPage): string {
  const t = (text: Localized) => escapeHtml(text[frame.language]);
  const typed = view.typed !== undefined && !checkNorwegianIdentityNumber(view.typed.trim()).ok ? view.typed : '';
  const value = view.lockedPsuId === undefined ? typed : maskPsuId(view.lockedPsuId);
  const described = [view.lockedPsuId ? 'psu-id-locked' : '', view.message ? 'psu-id-error' : ''].filter(Boolean).join(' ');
  return page(
    frame,
    t(SCA_TEXTS.identifyHeading),
    `${stepLine(frame, 1, stepsOf(frame.purpose))}
<p><strong>${escapeHtml(view.tppName)}</strong> ${t(SCA_TEXTS.identifyIntro)}</p>
<form method="post" action="${escapeHtml(view.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
<label for="psu-id">${t(SCA_TEXTS.psuIdLabel)}</label>
<input type="text" id="psu-id" name="psuId" inputmode="numeric" autocomplete="username" maxlength="11" required value="${escapeHtml(value)}"${view.lockedPsuId ? ' readonly' : ''}${described ? ` aria-describedby="${described}"` : ''}${view.message ? ' aria-invalid="true"' : ''}>
${view.lockedPsuId ? `<p class="hint" id="psu-id-locked">${t(SCA_TEXTS.psuIdLocked)}</p>` : ''}
${errorBox(frame, view.message, 'psu-id-error')}
<div class="actions"><button type="submit" name="method" value="code">${t(SCA_TEXTS.next)}</button></div>
${
  view.offerApp
    ? `<p class="hint" id="app-hint">${t(SCA_TEXTS.appShortcutHint)}</p>
<button type="submit" class="app" name="method" value="app" aria-describedby="app-hint">${t(SCA_TEXTS.appShortcut)}</button>`
    : ''
}
</form>`,
  );
}

export interface CodePage {
  readonly action: string;
  readonly csrf: string;
  readonly message?: Localized | undefined;
}

export function codePage(frame: PageFrame, view: CodePage): string {
  const t = (text: Localized) => escapeHtml(text[frame.language]);
  return page(
    frame,
    t(SCA_TEXTS.codeHeading),
    `${stepLine(frame, 2, stepsOf(frame.purpose))}
<p>${t(SCA_TEXTS.codeIntro)}</p>
${frame.sandbox ? `<p class="hint">${t(SCA_TEXTS.codeSandboxHint)}</p>` : ''}
<form method="post" action="${escapeHtml(view.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
<label for="code">${t(SCA_TEXTS.codeLabel)}</label>
<input type="text" id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" required autofocus${view.message ? ' aria-invalid="true" aria-describedby="code-error"' : ''}>
${errorBox(frame, view.message, 'code-error')}
<div class="actions"><button type="submit">${t(SCA_TEXTS.next)}</button></div>
</form>`,
  );
}

export interface ExternalLoginPage {
  /** The IdP's address for a new attempt. */
  readonly href: string;
  readonly message: Localized;
}

/** The external login's step after a refused login: why, and the way to the bank's login again. */
export function externalLoginPage(frame: PageFrame, view: ExternalLoginPage): string {
  const t = (text: Localized) => escapeHtml(text[frame.language]);
  return page(
    frame,
    t(SCA_TEXTS.externalLoginHeading),
    `${stepLine(frame, 2, stepsOf(frame.purpose))}
${errorBox(frame, view.message, 'login-error')}
<div class="actions"><a class="button" id="external-login" href="${escapeHtml(view.href)}">${t(SCA_TEXTS.externalLoginAgain)}</a></div>`,
  );
}

function lines(frame: PageFrame, items: readonly ConfirmationLine[]): string {
  const t = (text: Localized) => escapeHtml(text[frame.language]);
  return `<dl>${items.map((line) => `<dt>${t(line.label)}</dt><dd>${t(line.value)}</dd>`).join('')}</dl>`;
}

/** The options the PSU ticks (none ticked at first: sharing is the PSU's choice, account by account). */
function choices(frame: PageFrame, offered: ConfirmationChoices | undefined): string {
  if (!offered) return '';
  const t = (text: Localized) => escapeHtml(text[frame.language]);
  const boxes = offered.options
    .map(
      (option, index) =>
        `<div class="choice"><input type="checkbox" id="choice-${index}" name="choice" value="${escapeHtml(option.value)}"><label for="choice-${index}">${t(option.label)}</label></div>`,
    )
    .join('\n');
  return `<fieldset><legend>${t(offered.legend)}</legend>\n${boxes}\n</fieldset>`;
}

export interface ConfirmPage {
  readonly action: string;
  readonly csrf: string;
  readonly tppName: string;
  readonly confirmation: Confirmation;
  readonly cancelling: boolean;
}

export function confirmPage(frame: PageFrame, view: ConfirmPage): string {
  const t = (text: Localized) => escapeHtml(text[frame.language]);
  const items = (view.confirmation.items ?? [])
    .map((item) => `<section class="item"><h2>${t(item.title)}</h2>${lines(frame, item.lines)}</section>`)
    .join('\n');
  return page(
    frame,
    t(view.confirmation.heading),
    `${stepLine(frame, 3, 3)}
<p>${t(view.cancelling ? SCA_TEXTS.confirmCancellationIntro : SCA_TEXTS.confirmIntro)}</p>
<p>${t(SCA_TEXTS.requestedBy)}: <strong>${escapeHtml(view.tppName)}</strong></p>
${lines(frame, view.confirmation.lines)}
${items}
<form method="post" action="${escapeHtml(view.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
${choices(frame, view.confirmation.choices)}
<div class="actions">
<button type="submit" name="decision" value="approve">${t(view.cancelling ? SCA_TEXTS.confirmCancellation : SCA_TEXTS.approve)}</button>
<button type="submit" class="secondary" name="decision" value="reject">${t(view.cancelling ? SCA_TEXTS.keepPayment : SCA_TEXTS.reject)}</button>
</div>
</form>`,
  );
}

export interface OutcomePage {
  readonly success: boolean;
  /** What happened (success) or why it failed. */
  readonly message: Localized;
  readonly tppName: string;
  /** Where the PSU goes on: the TPP's redirect URI, when it sent one. */
  readonly continueHref?: string | undefined;
  /** A PSU login without redirect URI: the code to hand to the TPP, and how long it works. */
  readonly loginCode?: { readonly code: string; readonly lifetimeSeconds: number } | undefined;
}

export function outcomePage(frame: PageFrame, view: OutcomePage): string {
  const t = (text: Localized) => escapeHtml(text[frame.language]);
  const message = view.success
    ? `<p role="status">${escapeHtml(view.message[frame.language])}</p>`
    : `<p class="error" role="alert">${escapeHtml(view.message[frame.language])}</p>`;
  const code = view.loginCode
    ? `<p>${t(loginCodeIntro(view.loginCode.lifetimeSeconds))}</p><p class="code" id="login-code">${escapeHtml(view.loginCode.code)}</p>`
    : '';
  const next = view.continueHref
    ? `<div class="actions"><a class="button" href="${escapeHtml(view.continueHref)}">${t(SCA_TEXTS.continueTo)} ${escapeHtml(view.tppName)}</a></div>`
    : `<p>${t(SCA_TEXTS.closeWindow)}</p>`;
  return page(frame, t(view.success ? SCA_TEXTS.approvedHeading : SCA_TEXTS.failedHeading), `${message}\n${code}\n${next}`);
}

export function messagePage(frame: PageFrame, heading: Localized, message: Localized): string {
  return page(frame, escapeHtml(heading[frame.language]), `<p role="alert">${escapeHtml(message[frame.language])}</p>`);
}
