import type { IsoDate } from './iso-date.js';
import { localized, type Language, type Localized } from './localized.js';
import { formatAmount, type Money } from './money.js';

const LOCALES: Readonly<Record<Language, string>> = { en: 'en-GB', nb: 'nb-NO' };

/**
 * An amount as a PSU reads it in each language: "1 234,50 kr" / "NOK 1,234.50". Formatted from
 * the decimal string, so even 14-digit amounts stay exact.
 */
export function displayMoney(money: Money): Localized {
  const text = formatAmount(money);
  const decimals = text.includes('.') ? (text.split('.')[1]?.length ?? 0) : 0;
  const format = (language: Language) =>
    new Intl.NumberFormat(LOCALES[language], {
      style: 'currency',
      currency: money.currency,
      currencyDisplay: language === 'nb' && money.currency === 'NOK' ? 'symbol' : 'code',
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    }).format(text as unknown as number);
  return localized(format('en'), format('nb'));
}

/** A calendar date as a PSU reads it: "24 December 2026" / "24. desember 2026". */
export function displayDate(date: IsoDate): Localized {
  const instant = new Date(`${date}T12:00:00Z`);
  const format = (language: Language) => new Intl.DateTimeFormat(LOCALES[language], { dateStyle: 'long', timeZone: 'UTC' }).format(instant);
  return localized(format('en'), format('nb'));
}
