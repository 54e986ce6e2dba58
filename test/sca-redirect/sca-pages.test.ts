/**
 * The PSU's redirect pages as pure HTML:
 * - every interpolated value is escaped, in text and in attribute values;
 * - every field has a label tied to it (label for= matches the input id);
 * - a PSU-ID the TPP named is shown masked (its last four digits) and read-only; a typed national
 *   identity number is not shown again; the app shortcut appears only when offered;
 * - an error is announced (role="alert") and tied to its field (aria-describedby, aria-invalid);
 * - the page language (html lang) and all texts follow the frame's language;
 * - no scripts and no external resources; the inline stylesheet is exactly what PAGE_STYLE_HASH allows.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { localized, type Language, type Localized } from '../../src/domain/localized.js';
import type { Confirmation } from '../../src/modules/authorisations/authorisation-subject.js';
import type { AuthorisationPurpose } from '../../src/modules/authorisations/authorisation.model.js';
import {
  codePage,
  confirmPage,
  escapeHtml,
  identifyPage,
  messagePage,
  outcomePage,
  PAGE_STYLE,
  PAGE_STYLE_HASH,
  type PageFrame,
} from '../../src/modules/sca-redirect/sca-pages.js';

/** A value that breaks out of text, double- and single-quoted attributes if it is not escaped. */
const HOSTILE = `"'><script>alert(1)</script>&amp;`;
const HOSTILE_ESCAPED = '&#34;&#39;&#62;&#60;script&#62;alert(1)&#60;/script&#62;&#38;amp;';

function frame(overrides: Partial<PageFrame> = {}): PageFrame {
  return { language: 'en', bankName: 'Nordic Test Bank', sandbox: false, purpose: 'payment', ...overrides };
}

const CONFIRMATION: Confirmation = {
  heading: localized('Approve this payment', 'Godkjenn denne betalingen'),
  lines: [
    { label: localized('Amount', 'Beløp'), value: localized('NOK 1,234.56', '1 234,56 kr') },
    { label: localized('To', 'Til'), value: localized('Kari Nordmann') },
  ],
};

/** The attributes of every tag with this name, in document order. */
function tags(html: string, name: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  for (const match of html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, 'gi'))) {
    const attributes: Record<string, string> = {};
    for (const attribute of (match[1] ?? '').matchAll(/([a-z-]+)(?:="([^"]*)")?/gi)) {
      attributes[attribute[1]!.toLowerCase()] = attribute[2] ?? '';
    }
    found.push(attributes);
  }
  return found;
}

const inputs = (html: string) => tags(html, 'input');
const visibleInputs = (html: string) => inputs(html).filter((input) => input['type'] !== 'hidden');
const byId = (html: string, id: string) => [...html.matchAll(new RegExp(`\\bid="${id}"`, 'g'))].length;
const decode = (text: string) => text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

/** Every page type, rendered with the same hostile values wherever a value goes in. */
function everyPage(language: Language, value = 'Test TPP AS'): Record<string, string> {
  const f = frame({ language, bankName: value, sandbox: true });
  const message = localized(value, value);
  return {
    identify: identifyPage(f, { action: '/sca/a1/identify', csrf: value, tppName: value, typed: value, message, offerApp: true }),
    identifyLocked: identifyPage(f, { action: '/sca/a1/identify', csrf: value, tppName: value, lockedPsuId: value, offerApp: false }),
    code: codePage(f, { action: '/sca/a1/code', csrf: value, message }),
    confirm: confirmPage(f, {
      action: '/sca/a1/decision',
      csrf: value,
      tppName: value,
      cancelling: false,
      confirmation: {
        heading: message,
        lines: [{ label: message, value: message }],
        items: [{ title: message, lines: [{ label: message, value: message }] }],
      },
    }),
    confirmChoices: confirmPage(f, {
      action: '/sca/a1/decision',
      csrf: value,
      tppName: value,
      cancelling: false,
      confirmation: {
        heading: message,
        lines: [{ label: message, value: message }],
        choices: { legend: message, options: [{ value, label: message }] },
      },
    }),
    outcome: outcomePage(f, { success: false, message, tppName: value, loginCode: { code: value, lifetimeSeconds: 300 } }),
    message: messagePage(f, message, message),
  };
}

describe('escapeHtml', () => {
  it('escapes the five characters that matter in text and in quoted attribute values', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#60;/a&#62;');
  });

  it('leaves other text, Norwegian letters included, as it is', () => {
    expect(escapeHtml('Blåbær-Økonomi AS, 100 % (NOK)')).toBe('Blåbær-Økonomi AS, 100 % (NOK)');
  });

  it('escapes an ampersand that already looks like an entity, so it reads back as typed', () => {
    expect(escapeHtml('&amp;')).toBe('&#38;amp;');
  });
});

describe('escaping on every page', () => {
  for (const language of ['en', 'nb'] as const) {
    for (const [name, html] of Object.entries(everyPage(language, HOSTILE))) {
      it(`${name} (${language}) shows hostile values only escaped`, () => {
        expect(html).not.toContain(HOSTILE);
        expect(html).not.toContain('<script');
        expect(html).not.toContain("'>");
        expect(html).toContain(HOSTILE_ESCAPED);
      });
    }
  }

  it('escapes the TPP name, the bank name (header and title) and the action and CSRF attribute values', () => {
    const html = identifyPage(frame({ bankName: 'A&B <Bank>' }), {
      action: '/sca/x" onmouseover="alert(1)',
      csrf: 'tok"en',
      tppName: '<b>Evil</b> TPP',
      offerApp: false,
    });
    expect(html).toContain('<strong>&#60;b&#62;Evil&#60;/b&#62; TPP</strong>');
    expect(html).toContain('<span class="bank">A&#38;B &#60;Bank&#62;</span>');
    expect(html).toContain('<title>Approve payment – A&#38;B &#60;Bank&#62;</title>');
    const form = tags(html, 'form')[0]!;
    expect(form['action']).toBe('/sca/x&#34; onmouseover=&#34;alert(1)');
    expect(form).not.toHaveProperty('onmouseover');
    const csrf = inputs(html).find((input) => input['name'] === 'csrf')!;
    expect(decode(csrf['value']!)).toBe('tok"en');
  });

  it('escapes what the PSU typed when the identify page is shown again', () => {
    const html = identifyPage(frame(), {
      action: '/a',
      csrf: 'c',
      tppName: 'T',
      typed: '123" autofocus onfocus="alert(1)',
      offerApp: false,
    });
    const field = inputs(html).find((input) => input['id'] === 'psu-id')!;
    expect(decode(field['value']!)).toBe('123" autofocus onfocus="alert(1)');
    expect(field).not.toHaveProperty('onfocus');
  });

  it('escapes confirmation lines, item titles and the heading (a creditor name with <script>)', () => {
    const html = confirmPage(frame(), {
      action: '/a',
      csrf: 'c',
      tppName: 'T',
      cancelling: false,
      confirmation: {
        heading: localized('Approve <this>'),
        lines: [{ label: localized('To'), value: localized('<script>alert("x")</script>') }],
        items: [{ title: localized('Payment <1>'), lines: [{ label: localized('Message'), value: localized("O'Brien & Sons") }] }],
      },
    });
    expect(html).toContain('<h1>Approve &#60;this&#62;</h1>');
    expect(html).toContain('<dt>To</dt><dd>&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;</dd>');
    expect(html).toContain('<h2>Payment &#60;1&#62;</h2>');
    expect(html).toContain('<dd>O&#39;Brien &#38; Sons</dd>');
    expect(html).not.toContain('<script');
  });

  it('escapes the continue link and the login code on the outcome page', () => {
    const html = outcomePage(frame(), {
      success: true,
      message: localized('Done'),
      tppName: 'T&T',
      continueHref: 'https://tpp.example/cb?a=1&b="2"',
      loginCode: { code: 'abc<def>', lifetimeSeconds: 300 },
    });
    const link = tags(html, 'a')[0]!;
    expect(decode(link['href']!)).toBe('https://tpp.example/cb?a=1&b="2"');
    expect(link['href']).toBe('https://tpp.example/cb?a=1&#38;b=&#34;2&#34;');
    expect(html).toContain('<p class="code" id="login-code">abc&#60;def&#62;</p>');
    expect(html).toContain('T&#38;T</a>');
  });
});

describe('labels and fields', () => {
  const pages = {
    identify: identifyPage(frame(), { action: '/a', csrf: 'c', tppName: 'T', offerApp: true }),
    identifyWithError: identifyPage(frame(), { action: '/a', csrf: 'c', tppName: 'T', message: localized('Bad'), offerApp: false }),
    code: codePage(frame(), { action: '/a', csrf: 'c' }),
    codeWithError: codePage(frame(), { action: '/a', csrf: 'c', message: localized('Wrong') }),
  };

  it.each(Object.entries(pages))('%s: every visible field has exactly one label for its id, and every label names a field', (_, html) => {
    const labels = tags(html, 'label');
    expect(labels.length).toBeGreaterThan(0);
    const fields = visibleInputs(html);
    expect(fields.length).toBe(labels.length);
    for (const field of fields) {
      expect(field['id']).toBeTruthy();
      expect(labels.filter((label) => label['for'] === field['id'])).toHaveLength(1);
      expect(byId(html, field['id']!)).toBe(1);
    }
  });

  it.each(Object.entries(pages))('%s: every aria-describedby names elements that exist, once', (_, html) => {
    const described = [...html.matchAll(/aria-describedby="([^"]*)"/g)].flatMap((match) => match[1]!.split(' '));
    for (const id of described) expect(byId(html, id)).toBe(1);
  });

  it.each(Object.entries(pages))('%s: posts the CSRF token in a hidden field, by POST', (_, html) => {
    expect(tags(html, 'form')).toEqual([expect.objectContaining({ method: 'post', action: '/a' })]);
    expect(inputs(html).filter((input) => input['type'] === 'hidden')).toEqual([{ type: 'hidden', name: 'csrf', value: 'c' }]);
  });

  it('asks for the national identity number as an 11-digit, required username field', () => {
    const field = visibleInputs(pages.identify)[0]!;
    expect(field).toMatchObject({ id: 'psu-id', name: 'psuId', inputmode: 'numeric', autocomplete: 'username', maxlength: '11' });
    expect(field).toHaveProperty('required');
  });

  it('asks for the one-time code as a 6-digit one-time-code field', () => {
    const field = visibleInputs(pages.code)[0]!;
    expect(field).toMatchObject({ id: 'code', name: 'code', inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: '6' });
    expect(field).toHaveProperty('required');
  });
});

describe('identify page', () => {
  it('shows a PSU-ID the TPP named prefilled but masked, read-only and explained; never the whole number', () => {
    const html = identifyPage(frame(), {
      action: '/a',
      csrf: 'c',
      tppName: 'T',
      lockedPsuId: '13039319955',
      typed: '999',
      offerApp: false,
    });
    const field = visibleInputs(html)[0]!;
    expect(field['value']).toBe('\u2022\u2022\u2022\u2022\u2022\u2022\u20229955');
    expect(html).not.toContain('13039319955');
    expect(html).not.toContain('1303931');
    expect(field).toHaveProperty('readonly');
    expect(field['aria-describedby']).toBe('psu-id-locked');
    expect(html).toContain('<p class="hint" id="psu-id-locked">The app you came from named this customer.</p>');
  });

  it('leaves the field editable and empty without a named PSU, and shows what the PSU typed after a refusal', () => {
    const empty = visibleInputs(identifyPage(frame(), { action: '/a', csrf: 'c', tppName: 'T', offerApp: false }))[0]!;
    expect(empty['value']).toBe('');
    expect(empty).not.toHaveProperty('readonly');
    expect(empty).not.toHaveProperty('aria-describedby');
    const typed = visibleInputs(identifyPage(frame(), { action: '/a', csrf: 'c', tppName: 'T', typed: '1303931995', offerApp: false }))[0]!;
    expect(typed['value']).toBe('1303931995');
    expect(typed).not.toHaveProperty('readonly');
  });

  it('does not show a typed number again when it is a valid national identity number (it names someone)', () => {
    const html = identifyPage(frame(), { action: '/a', csrf: 'c', tppName: 'T', typed: ' 13039319955 ', offerApp: false });
    expect(visibleInputs(html)[0]!['value']).toBe('');
    expect(html).not.toContain('13039319955');
  });

  it('offers the app shortcut button only when offerApp', () => {
    const appButton = (html: string) => tags(html, 'button').filter((button) => button['value'] === 'app');
    const offered = identifyPage(frame(), { action: '/a', csrf: 'c', tppName: 'T', offerApp: true });
    expect(appButton(offered)).toEqual([
      expect.objectContaining({ type: 'submit', name: 'method', value: 'app', 'aria-describedby': 'app-hint' }),
    ]);
    expect(offered).toContain('Confirm in the bank app (fingerprint or face)');
    const plain = identifyPage(frame(), { action: '/a', csrf: 'c', tppName: 'T', offerApp: false });
    expect(appButton(plain)).toEqual([]);
    expect(plain).not.toContain('bank app');
    expect(plain).not.toContain('app-hint');
    // The ordinary way on is always there, and it is the first submit button (Enter in the field).
    for (const html of [offered, plain]) {
      expect(tags(html, 'button')[0]).toMatchObject({ type: 'submit', name: 'method', value: 'code' });
    }
  });

  it('announces an error and ties it to the field', () => {
    const html = identifyPage(frame(), {
      action: '/a',
      csrf: 'c',
      tppName: 'T',
      message: localized('Eleven digits, please'),
      offerApp: false,
    });
    expect(html).toContain('<p class="error" id="psu-id-error" role="alert">Eleven digits, please</p>');
    const field = visibleInputs(html)[0]!;
    expect(field['aria-invalid']).toBe('true');
    expect(field['aria-describedby']).toBe('psu-id-error');
  });

  it('ties both the lock hint and the error to a locked field', () => {
    const html = identifyPage(frame(), {
      action: '/a',
      csrf: 'c',
      tppName: 'T',
      lockedPsuId: '13039319955',
      message: localized('No'),
      offerApp: false,
    });
    expect(visibleInputs(html)[0]!['aria-describedby']!.split(' ').sort()).toEqual(['psu-id-error', 'psu-id-locked']);
  });

  it('has no alert and no aria-invalid without an error', () => {
    const html = identifyPage(frame(), { action: '/a', csrf: 'c', tppName: 'T', offerApp: true });
    expect(html).not.toContain('role="alert"');
    expect(html).not.toContain('aria-invalid');
  });

  it('counts the steps: 1 of 3 for a payment, 1 of 2 for a login', () => {
    expect(identifyPage(frame(), { action: '/a', csrf: 'c', tppName: 'T', offerApp: false })).toContain('<p class="step">Step 1 of 3</p>');
    expect(identifyPage(frame({ purpose: 'psu-login' }), { action: '/a', csrf: 'c', tppName: 'T', offerApp: false })).toContain(
      '<p class="step">Step 1 of 2</p>',
    );
  });
});

describe('code page', () => {
  it('announces a wrong code and ties it to the field', () => {
    const html = codePage(frame(), { action: '/a', csrf: 'c', message: localized('Wrong code. 2 attempts left.') });
    expect(html).toContain('<p class="error" id="code-error" role="alert">Wrong code. 2 attempts left.</p>');
    expect(visibleInputs(html)[0]).toMatchObject({ 'aria-invalid': 'true', 'aria-describedby': 'code-error' });
  });

  it('has no alert and no aria-invalid without an error', () => {
    const html = codePage(frame(), { action: '/a', csrf: 'c' });
    expect(html).not.toContain('role="alert"');
    expect(visibleInputs(html)[0]).not.toHaveProperty('aria-invalid');
    expect(visibleInputs(html)[0]).not.toHaveProperty('aria-describedby');
  });

  it('tells the sandbox code only in the sandbox', () => {
    expect(codePage(frame({ sandbox: true }), { action: '/a', csrf: 'c' })).toContain('Sandbox: the code is 123456.');
    expect(codePage(frame({ sandbox: false }), { action: '/a', csrf: 'c' })).not.toContain('123456');
  });

  it('counts the steps: 2 of 3 for a payment, 2 of 2 for a login', () => {
    expect(codePage(frame(), { action: '/a', csrf: 'c' })).toContain('Step 2 of 3');
    expect(codePage(frame({ purpose: 'psu-login' }), { action: '/a', csrf: 'c' })).toContain('Step 2 of 2');
  });
});

describe('confirmation page', () => {
  const view = { action: '/a', csrf: 'c', tppName: 'Budget App AS', confirmation: CONFIRMATION, cancelling: false };

  it('lists exactly the confirmation lines, in order, as a description list', () => {
    const html = confirmPage(frame(), view);
    expect(html).toContain('<dl><dt>Amount</dt><dd>NOK 1,234.56</dd><dt>To</dt><dd>Kari Nordmann</dd></dl>');
    expect(html).toContain('<h1>Approve this payment</h1>');
    expect(html).toContain('Requested by: <strong>Budget App AS</strong>');
    expect(html).toContain('Step 3 of 3');
  });

  it('lists each item of a bulk payment in its own section', () => {
    const html = confirmPage(frame(), {
      ...view,
      confirmation: {
        ...CONFIRMATION,
        items: [
          { title: localized('Payment 1'), lines: [{ label: localized('Amount'), value: localized('NOK 1.00') }] },
          { title: localized('Payment 2'), lines: [{ label: localized('Amount'), value: localized('NOK 2.00') }] },
        ],
      },
    });
    expect([...html.matchAll(/<section class="item">/g)]).toHaveLength(2);
    expect(html).toContain('<section class="item"><h2>Payment 1</h2><dl><dt>Amount</dt><dd>NOK 1.00</dd></dl></section>');
    expect(html.indexOf('Payment 1')).toBeLessThan(html.indexOf('Payment 2'));
    expect(confirmPage(frame(), view)).not.toContain('<section');
  });

  it('offers approve and reject as the two decisions', () => {
    const buttons = tags(confirmPage(frame(), view), 'button');
    expect(buttons.map((button) => [button['name'], button['value']])).toEqual([
      ['decision', 'approve'],
      ['decision', 'reject'],
    ]);
    const html = confirmPage(frame(), view);
    expect(html).toContain('value="approve">Approve</button>');
    expect(html).toContain('value="reject">Reject</button>');
  });

  it('offers the choices as unticked, labelled checkboxes inside the decision form, none without choices', () => {
    const choices = {
      legend: localized('Accounts to share', 'Kontoer som skal deles'),
      options: [
        { value: 'v1', label: localized('Brukskonto 1234.56.78903 (NOK)') },
        { value: 'v2', label: localized('Kari Mastercard 525412******3241 (NOK)') },
      ],
    };
    const html = confirmPage(frame(), { ...view, confirmation: { ...CONFIRMATION, choices } });
    const form = /<form[\s\S]*<\/form>/.exec(html)?.[0] ?? '';
    expect(form).toContain('<fieldset><legend>Accounts to share</legend>');
    expect(form).toContain(
      '<input type="checkbox" id="choice-0" name="choice" value="v1"><label for="choice-0">Brukskonto 1234.56.78903 (NOK)</label>',
    );
    expect(form).toContain('<input type="checkbox" id="choice-1" name="choice" value="v2"><label for="choice-1">');
    expect(html).not.toContain('checked');
    expect(confirmPage(frame(), view)).not.toContain('<fieldset');
  });

  it('words the decisions of a cancellation as cancelling or keeping the payment', () => {
    const html = confirmPage(frame(), { ...view, cancelling: true });
    expect(html).toContain('value="approve">Cancel the payment</button>');
    expect(html).toContain('value="reject">Keep the payment</button>');
    const nb = confirmPage(frame({ language: 'nb' }), { ...view, cancelling: true });
    expect(nb).toContain('value="approve">Kanseller betalingen</button>');
    expect(nb).toContain('value="reject">Behold betalingen</button>');
  });
});

describe('outcome and message pages', () => {
  it('announces success as a status and failure as an alert', () => {
    const ok = outcomePage(frame(), { success: true, message: localized('You have approved it.'), tppName: 'T' });
    expect(ok).toContain('<p role="status">You have approved it.</p>');
    expect(ok).toContain('<h1>Done</h1>');
    expect(ok).not.toContain('role="alert"');
    const failed = outcomePage(frame(), { success: false, message: localized('The customer rejected it'), tppName: 'T' });
    expect(failed).toContain('<p class="error" role="alert">The customer rejected it</p>');
    expect(failed).toContain('<h1>Not completed</h1>');
    expect(failed).not.toContain('role="status"');
  });

  it('links back to the TPP when it sent a redirect URI, and otherwise says to close the window', () => {
    const back = outcomePage(frame(), {
      success: true,
      message: localized('ok'),
      tppName: 'Budget App',
      continueHref: 'https://tpp.example/done',
    });
    expect(back).toContain('<a class="button" href="https://tpp.example/done">Return to Budget App</a>');
    expect(back).not.toContain('close this window');
    const stay = outcomePage(frame(), { success: true, message: localized('ok'), tppName: 'Budget App' });
    expect(tags(stay, 'a')).toEqual([]);
    expect(stay).toContain('You can close this window and return to the app.');
  });

  it('shows a login code only when there is one', () => {
    const withCode = outcomePage(frame(), {
      success: true,
      message: localized('ok'),
      tppName: 'T',
      loginCode: { code: 'Zm9vYmFy', lifetimeSeconds: 60 },
    });
    expect(withCode).toContain('<p class="code" id="login-code">Zm9vYmFy</p>');
    expect(withCode).toContain('It works once, within 60 seconds.');
    const fiveMinutes = outcomePage(frame(), {
      success: true,
      message: localized('ok'),
      tppName: 'T',
      loginCode: { code: 'x', lifetimeSeconds: 300 },
    });
    expect(fiveMinutes).toContain('It works once, within 5 minutes.');
    expect(outcomePage(frame(), { success: true, message: localized('ok'), tppName: 'T' })).not.toContain('login-code');
  });

  it('shows a message page as a heading and an alert', () => {
    const html = messagePage(frame(), localized('Something is wrong'), localized('This link is not known.'));
    expect(html).toContain('<h1>Something is wrong</h1>');
    expect(html).toContain('<p role="alert">This link is not known.</p>');
  });
});

describe('language', () => {
  const purposes: (AuthorisationPurpose | undefined)[] = ['payment', 'payment-cancellation', 'psu-login', undefined];

  it.each(['en', 'nb'] as const)('sets <html lang="%s"> on every page', (language) => {
    for (const html of Object.values(everyPage(language))) {
      expect(html.startsWith('<!doctype html>\n')).toBe(true);
      expect(tags(html, 'html')).toEqual([{ lang: language }]);
    }
  });

  it('titles the page with the purpose in the page language, or the bank name alone', () => {
    const titles = (language: Language) =>
      purposes.map(
        (purpose) => /<title>(.*)<\/title>/.exec(messagePage(frame({ language, purpose }), localized('h'), localized('m')))?.[1],
      );
    expect(titles('en')).toEqual([
      'Approve payment – Nordic Test Bank',
      'Cancel payment – Nordic Test Bank',
      'Log in – Nordic Test Bank',
      'Nordic Test Bank',
    ]);
    expect(titles('nb')).toEqual([
      'Godkjenn betaling – Nordic Test Bank',
      'Kanseller betaling – Nordic Test Bank',
      'Logg inn – Nordic Test Bank',
      'Nordic Test Bank',
    ]);
  });

  /** Texts of each page in both languages, written out literally. */
  const TEXTS: Record<string, { html: (language: Language) => string; texts: Localized[] }> = {
    identify: {
      html: (language) =>
        identifyPage(frame({ language, sandbox: true }), {
          action: '/a',
          csrf: 'c',
          tppName: 'T',
          lockedPsuId: '13039319955',
          offerApp: true,
        }),
      texts: [
        localized('<h1>Log in</h1>', '<h1>Logg inn</h1>'),
        localized('Step 1 of 3', 'Steg 1 av 3'),
        localized('asks you to log in to your bank.', 'ber deg logge inn i banken din.'),
        localized('National identity number (11 digits)', 'Fødselsnummer (11 siffer)'),
        localized('The app you came from named this customer.', 'Appen du kom fra oppga denne kunden.'),
        localized('>Next</button>', '>Neste</button>'),
        localized('Confirm in the bank app (fingerprint or face)', 'Bekreft i bankappen (fingeravtrykk eller ansikt)'),
        localized('<span class="badge">Sandbox</span>', '<span class="badge">Sandkasse</span>'),
      ],
    },
    code: {
      html: (language) => codePage(frame({ language, sandbox: true }), { action: '/a', csrf: 'c' }),
      texts: [
        localized('Enter your one-time code', 'Skriv inn engangskoden'),
        localized('Step 2 of 3', 'Steg 2 av 3'),
        localized('We have sent a one-time code to your phone.', 'Vi har sendt en engangskode til telefonen din.'),
        localized('Sandbox: the code is 123456.', 'Sandkasse: koden er 123456.'),
        localized('One-time code (6 digits)', 'Engangskode (6 siffer)'),
      ],
    },
    confirm: {
      html: (language) =>
        confirmPage(frame({ language }), { action: '/a', csrf: 'c', tppName: 'T', confirmation: CONFIRMATION, cancelling: false }),
      texts: [
        localized('<h1>Approve this payment</h1>', '<h1>Godkjenn denne betalingen</h1>'),
        localized('Check the details. This is exactly what you approve.', 'Kontroller opplysningene. Dette er nøyaktig det du godkjenner.'),
        localized('Requested by:', 'Forespurt av:'),
        localized('<dt>Amount</dt><dd>NOK 1,234.56</dd>', '<dt>Beløp</dt><dd>1 234,56 kr</dd>'),
        localized('>Approve</button>', '>Godkjenn</button>'),
        localized('>Reject</button>', '>Avvis</button>'),
      ],
    },
    outcome: {
      html: (language) =>
        outcomePage(frame({ language }), {
          success: true,
          message: localized('ok'),
          tppName: 'T',
          continueHref: 'https://tpp.example/',
          loginCode: { code: 'x', lifetimeSeconds: 300 },
        }),
      texts: [
        localized('<h1>Done</h1>', '<h1>Ferdig</h1>'),
        localized('Give this one-time code to the app', 'Gi denne engangskoden til appen'),
        localized('Return to T', 'Gå tilbake til T'),
      ],
    },
  };

  for (const [name, { html, texts }] of Object.entries(TEXTS)) {
    it.each(['en', 'nb'] as const)(`${name}: every text in %s and none in the other language`, (language) => {
      const page = html(language);
      const other: Language = language === 'en' ? 'nb' : 'en';
      for (const text of texts) {
        expect(page).toContain(text[language]);
        expect(page).not.toContain(text[other]);
      }
    });
  }
});

describe('no scripts, no external resources, one hashed stylesheet', () => {
  const external = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

  for (const language of ['en', 'nb'] as const) {
    for (const [name, html] of Object.entries(everyPage(language))) {
      it(`${name} (${language}) loads nothing and runs nothing`, () => {
        expect(html).not.toMatch(/<script|<link|<img|<iframe|<object|<embed|<base|<svg/i);
        expect(html).not.toMatch(/\son[a-z]+=/i);
        expect(html).not.toMatch(/javascript:|@import|url\(/i);
        const urls = [...html.matchAll(/\s(?:src|href|action|formaction)="([^"]*)"/gi)].map((match) => match[1]!);
        expect(urls.filter((url) => external.test(url))).toEqual([]);
        expect(tags(html, 'style')).toHaveLength(1);
        expect(tags(html, 'meta')).toContainEqual({ name: 'referrer', content: 'no-referrer' });
      });
    }
  }

  it('links to another origin only through the continue link the TPP gave', () => {
    const html = outcomePage(frame(), { success: true, message: localized('ok'), tppName: 'T', continueHref: 'https://tpp.example/back' });
    const urls = [...html.matchAll(/\s(?:src|href|action)="([^"]*)"/gi)].map((match) => match[1]);
    expect(urls).toEqual(['https://tpp.example/back']);
  });

  it.each(Object.entries(everyPage('en')))('%s: the inline stylesheet hashes to PAGE_STYLE_HASH', (_, html) => {
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1]!);
    expect(styles).toHaveLength(1);
    const hash = `sha256-${createHash('sha256').update(styles[0]!, 'utf8').digest('base64')}`;
    expect(hash).toBe(PAGE_STYLE_HASH);
  });

  it('PAGE_STYLE_HASH is the CSP source of PAGE_STYLE, and the stylesheet loads nothing', () => {
    expect(PAGE_STYLE_HASH).toMatch(/^sha256-[A-Za-z0-9+/]{43}=$/);
    expect(PAGE_STYLE_HASH).toBe(`sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}`);
    expect(PAGE_STYLE).not.toMatch(/url\(|@import|expression\(/i);
  });
});
