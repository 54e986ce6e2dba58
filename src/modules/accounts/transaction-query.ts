import { addDays, checkIsoDate, type IsoDate } from '../../domain/iso-date.js';
import { MAX_LIST_OFFSET } from '../../domain/list-offset.js';
import { localized, type Localized } from '../../domain/localized.js';
import { AppError } from '../../errors/app-error.js';
import type { TransactionListQuerystring } from './account.schemas.js';

/*
 * The query of a transaction list (docs/design.md §2b), as the route's schema let it through:
 * every value is checked here, and what was left out gets its default, so the paging links can
 * carry every filter explicitly. Pure.
 */

export const REPORT_STATUSES = ['booked', 'pending', 'both', 'information'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** Entries per page when the request names no limit (the bank's documented default), and at most. */
export const DEFAULT_PAGE_SIZE = 200;
export const MAX_PAGE_SIZE = 1000;
/** How far back the list reaches when `dateFrom` is absent, and how far without the PSU present. */
export const HISTORY_DAYS = 90;

export interface TransactionListQuery {
  readonly bookingStatus: ReportStatus;
  readonly dateFrom: IsoDate;
  readonly dateTo: IsoDate | undefined;
  readonly offset: number;
  readonly limit: number;
  /** The list's snapshot, as the paging links carry it (transaction-snapshot.ts); undefined on a first read. */
  readonly snapshot: string | undefined;
}

type Name = keyof TransactionListQuerystring;

function invalid(path: string, detail: Localized): AppError {
  return new AppError('FORMAT_ERROR', { path, detail });
}

/**
 * Berlin Group parameters the bank does not offer ("optional if supported by API provider"):
 * refused, since answering as if they were not there would give the TPP another list than it
 * asked for. withBalance is not among them: the Berlin Group lets the bank ignore it.
 */
function refuseWhatIsNotOffered(values: TransactionListQuerystring): void {
  const notOffered: [Name, boolean, Localized][] = [
    [
      'entryReferenceFrom',
      values.entryReferenceFrom !== undefined,
      localized('delta reports are not offered: read by dateFrom and dateTo', 'deltarapporter tilbys ikke: les med dateFrom og dateTo'),
    ],
    [
      'deltaList',
      values.deltaList === true,
      localized('delta reports are not offered: read by dateFrom and dateTo', 'deltarapporter tilbys ikke: les med dateFrom og dateTo'),
    ],
    [
      'bookingStatus',
      values.bookingStatus?.toLowerCase() === 'all',
      localized(
        'all is not offered: ask for both (booked and pending), and for information (standing orders) apart',
        'all tilbys ikke: be om both (bokførte og reserverte), og om information (faste oppdrag) for seg',
      ),
    ],
    ['pageIndex', values.pageIndex !== undefined, localized('page with offset and limit', 'bla med offset og limit')],
    ['itemsPerPage', values.itemsPerPage !== undefined, localized('page with offset and limit', 'bla med offset og limit')],
  ];
  for (const [path, given, detail] of notOffered) {
    if (given) throw new AppError('PARAMETER_NOT_SUPPORTED', { path, detail });
  }
}

function wholeNumber(name: Name, text: string | undefined, least: number, most: number): number | undefined {
  if (text === undefined) return undefined;
  const value = /^[0-9]{1,9}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= least && value <= most)) {
    throw invalid(name, localized(`must be a whole number from ${least} to ${most}`, `må være et heltall fra ${least} til ${most}`));
  }
  return value;
}

function date(name: Name, text: string | undefined): IsoDate | undefined {
  if (text === undefined) return undefined;
  const checked = checkIsoDate(text);
  if (!checked.ok) throw invalid(name, checked.reason);
  return checked.value;
}

/**
 * The list query of a request, with its defaults: bookingStatus `both`, dateFrom 90 days before the
 * bank's `today`, offset 0, limit 200. Bad values are 400 FORMAT_ERROR naming the parameter;
 * dateFrom after dateTo is 400 PERIOD_INVALID (at dateTo when dateFrom is the default); a Berlin Group parameter the bank does not offer
 * is 400 PARAMETER_NOT_SUPPORTED.
 */
export function readTransactionQuery(values: TransactionListQuerystring, today: IsoDate): TransactionListQuery {
  refuseWhatIsNotOffered(values);
  const status = values.bookingStatus?.toLowerCase() ?? 'both';
  if (!(REPORT_STATUSES as readonly string[]).includes(status)) {
    throw invalid(
      'bookingStatus',
      localized(`must be one of ${REPORT_STATUSES.join(', ')}`, `må være en av ${REPORT_STATUSES.join(', ')}`),
    );
  }
  const givenFrom = date('dateFrom', values.dateFrom);
  const dateFrom = givenFrom ?? addDays(today, -HISTORY_DAYS);
  const dateTo = date('dateTo', values.dateTo);
  if (dateTo !== undefined && dateFrom > dateTo) {
    // Without a dateFrom the refusal is of the dateTo the TPP sent, not of a parameter it never did.
    throw givenFrom === undefined
      ? new AppError('PERIOD_INVALID', {
          path: 'dateTo',
          detail: localized(
            `dateTo ${dateTo} is before the default start of the list, ${HISTORY_DAYS} days back (${dateFrom}): send dateFrom too`,
            `dateTo ${dateTo} er før listens standardstart, ${HISTORY_DAYS} dager tilbake (${dateFrom}): send også dateFrom`,
          ),
        })
      : new AppError('PERIOD_INVALID', { path: 'dateFrom', detail: localized('dateFrom is after dateTo', 'dateFrom er etter dateTo') });
  }
  const snapshot = values.snapshot;
  if (snapshot !== undefined && !/^[A-Za-z0-9_-]{1,4000}$/.test(snapshot)) {
    throw invalid('snapshot', localized('is not a snapshot of a paging link', 'er ikke et øyeblikksbilde fra en sidelenke'));
  }
  return {
    bookingStatus: status as ReportStatus,
    dateFrom,
    dateTo,
    offset: wholeNumber('offset', values.offset, 0, MAX_LIST_OFFSET) ?? 0,
    limit: wholeNumber('limit', values.limit, 1, MAX_PAGE_SIZE) ?? DEFAULT_PAGE_SIZE,
    snapshot,
  };
}
